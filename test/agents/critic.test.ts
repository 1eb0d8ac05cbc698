/**
 * The Critic with the real agents/critic.yaml, the real validator (type-check on), a page inventory
 * explored from the real demo app in Chromium, and the model review through the real `openai` client
 * against a scripted server on 127.0.0.1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { Critic, REVIEW_RULE, parseReviewAnswer, type CriticOptions } from '../../src/agents/critic.ts';
import { loadAgents } from '../../src/config/agents.ts';
import { DEFAULT_CRITIC_PATH, loadCriticConfig, type CriticConfig } from '../../src/config/critic.ts';
import { ConfigError } from '../../src/config/load.ts';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import { CriticVerdict, type PageInventory } from '../../src/contracts.ts';
import { exploreUrl } from '../../src/explore/inventory.ts';
import { MaxDurationOptions } from '../../src/analysis/duration.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { Validator } from '../../src/validate/validator.ts';
import { startDemoApp } from '../../src/demo-app/server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

const specs = fileURLToPath(new URL('../fixtures/specs/', import.meta.url));
const critic = loadCriticConfig();
const validator = new Validator(critic, { typeCheck: true });
const request = { description: 'sign in with the demo account and see the dashboard', feature: 'Login' };

/** A login spec for the demo app: every rule passes, every test id is on /login. */
const LOGIN_SPEC = `import { test, expect } from '@playwright/test';

test('signs in and sees the dashboard', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard-heading')).toHaveText('Dashboard');
  await page.screenshot({ path: 'screenshots/dashboard.png' });
});
`;

let fake: FakeOpenAI;
let project: ScribeProject;
let stats: StatsLog;
let loginInventory: PageInventory;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const app = await startDemoApp();
  try {
    loginInventory = await exploreUrl(`${app.url}/login`, { testIdAttribute: critic.testIdAttribute, settings: loadScribeConfig().explore });
  } finally {
    await app.close();
  }
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
  stats = new StatsLog(project.home);
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

function makeCritic(options: Partial<CriticOptions> = {}): Critic {
  return new Critic({ critic, validator, stats, cwd: project.dir, env: project.env(fake.url), scribeConfig: loadAgents(project.dir).scribe, ...options });
}

const specFile = (name = 'login.spec.ts') => path.join(project.dir, 'generated-tests', 'login', name);
const review = (c: Critic, code: string) => c.review({ file: specFile(), code, request, generation: 'gen-1' });
const errorRules = (verdict: CriticVerdict) => [...new Set(verdict.issues_found.filter((i) => i.severity === 'error').map((i) => i.rule))];

/** The bundled critic.yaml with some keys changed, saved in the project and loaded. */
function criticWith(settings: Record<string, unknown>): CriticConfig {
  const doc = parseDocument(readFileSync(DEFAULT_CRITIC_PATH, 'utf8'));
  for (const [key, value] of Object.entries(settings)) doc.setIn(key.split('.'), value);
  const file = path.join(project.dir, 'agents', 'critic.yaml');
  writeFileSync(file, doc.toString());
  return loadCriticConfig(file);
}

describe('Critic.review: the rules', () => {
  it('approves a clean spec, with its estimate and a critic_verdict event', async () => {
    const verdict = await review(makeCritic(), readFileSync(path.join(specs, 'clean.spec.ts'), 'utf8'));
    expect(CriticVerdict.parse(verdict)).toEqual(verdict);
    expect(verdict).toMatchObject({ status: 'approved', issues_found: [] });
    expect(verdict.reason).toMatch(/^approved: no error-level problem; estimated \d+\.\d s and [\d.]+ per CI run$/);
    expect(verdict.estimated_duration_ms).toBeGreaterThan(0);
    expect(stats.read()).toEqual([expect.objectContaining({ type: 'critic_verdict', generation: 'gen-1', status: 'approved', rules: [] })]);
  });

  it('rejects a planted spec, its reason listing every problem with the offending line', async () => {
    const verdict = await review(makeCritic(), readFileSync(path.join(specs, 'planted.spec.ts'), 'utf8'));
    expect(verdict.status).toBe('rejected');
    const rules = errorRules(verdict);
    for (const rule of ['missing-playwright-await', 'no-hardcoded-base-url', 'no-wait-for-timeout', 'no-hardcoded-credentials', 'no-force-option', 'no-networkidle']) {
      expect(rules).toContain(rule);
    }
    // A warning is reported but does not reject.
    expect(verdict.issues_found).toContainEqual(expect.objectContaining({ rule: 'require-testid-selectors', severity: 'warning' }));
    const errors = verdict.issues_found.filter((i) => i.severity === 'error');
    expect(verdict.reason.split('\n')[0]).toBe(`rejected: ${errors.length} error-level problems`);
    for (const rule of rules) expect(verdict.reason).toContain(`- [${rule}] line `);
    expect(verdict.reason).toContain("> await p['waitForTimeout'](1000);");
    expect(stats.read()).toEqual([expect.objectContaining({ type: 'critic_verdict', status: 'rejected', rules })]);
  });

  it('type-checks: an invented API is rejected', async () => {
    const verdict = await review(makeCritic(), LOGIN_SPEC.replace("getByTestId('login-button').click()", "getByTestId('login-button').clickOn()"));
    expect(verdict.status).toBe('rejected');
    // The invented method is not on the allow-list gate's list of members either.
    expect(errorRules(verdict)).toEqual(['allowed-code', 'type-check']);
  });

  it('with the inventory of the real demo app, rejects an invented test id and approves real ones', async () => {
    expect(loginInventory.testIds.map((t) => t.testId)).toContain('login-button');
    const grounded = makeCritic({ inventory: loginInventory });
    expect((await review(grounded, LOGIN_SPEC)).status).toBe('approved');

    const verdict = await review(grounded, LOGIN_SPEC.replace("'login-button'", "'sign-in-button'"));
    expect(verdict.status).toBe('rejected');
    expect(errorRules(verdict)).toEqual(['no-unknown-testid']);
    expect(verdict.reason).toContain('sign-in-button');
    expect(verdict.reason).toContain("> await page.getByTestId('sign-in-button').click();");
    // Without an inventory there is nothing to check the test id against.
    expect((await review(makeCritic(), LOGIN_SPEC.replace("'login-button'", "'sign-in-button'"))).status).toBe('approved');
  });

  it('estimates duration with max-duration’s costs from critic.yaml and cost with estimate.ci_cost_per_minute', async () => {
    const costs = MaxDurationOptions.parse(critic.criteria.find((c) => c.id === 'max-duration')!.options).cost_ms;
    const perMinute = critic.estimate!.ci_cost_per_minute;
    expect(perMinute).toBeGreaterThan(0);
    const verdict = await review(makeCritic(), LOGIN_SPEC);
    const expectedMs = costs.navigation + 3 * costs.action + costs.assertion + costs.screenshot;
    expect(verdict.estimated_duration_ms).toBe(expectedMs);
    expect(verdict.estimated_cost).toBeCloseTo((expectedMs / 60_000) * perMinute, 6);

    const pricier = criticWith({ 'estimate.ci_cost_per_minute': 0.6, 'rules.max-duration.options.cost_ms.navigation': 6000 });
    const priced = await review(makeCritic({ critic: pricier, validator: undefined }), LOGIN_SPEC);
    const pricierMs = expectedMs - costs.navigation + 6000;
    expect(priced.estimated_duration_ms).toBe(pricierMs);
    expect(priced.estimated_cost).toBeCloseTo((pricierMs / 60_000) * 0.6, 6);
    expect(priced.reason).toContain(`estimated ${(pricierMs / 1000).toFixed(1)} s`);
  });

  it('a spec over max-duration is rejected, and the estimate says by how much', async () => {
    const slow = LOGIN_SPEC.replace("  await page.goto('/login');", "  await page.goto('/login');\n  await page.getByTestId('login-button').waitFor({ timeout: 90_000 });");
    const verdict = await review(makeCritic(), slow);
    expect(verdict.status).toBe('rejected');
    expect(errorRules(verdict)).toContain('max-duration');
    expect(verdict.estimated_duration_ms).toBeGreaterThan(90_000);
  });
});

describe('Critic.review: the model review (switched on in critic.yaml)', () => {
  let reviewing: CriticConfig;
  let reviewValidator: Validator;

  beforeEach(() => {
    reviewing = criticWith({ 'review.enabled': true });
    reviewValidator ??= new Validator(reviewing, { typeCheck: true });
  });

  const reviewer = () => makeCritic({ critic: reviewing, validator: reviewValidator });
  const answer = (json: unknown) => ({ text: JSON.stringify(json) });

  it('is off in the bundled critic.yaml', () => {
    expect(critic.review.enabled).toBe(false);
    expect(critic.review.prompt).toContain('{{spec}}');
  });

  it('pass: approved, after one model call that carries the request and the spec', async () => {
    fake.reply(answer({ verdict: 'pass', reason: 'It signs in and checks the dashboard heading.', missing: [] }));
    const verdict = await review(reviewer(), LOGIN_SPEC);
    expect(verdict).toMatchObject({ status: 'approved', issues_found: [] });
    expect(verdict.reason).toContain('the model review passed: It signs in and checks the dashboard heading.');

    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body;
    expect(body.temperature).toBe(reviewing.review.temperature);
    expect(body.model).toBe(loadScribeConfig().provider.models.medium);
    const prompt = body.messages!.map((m) => m.content).join('\n');
    expect(prompt).toContain(`Request: ${request.description}`);
    expect(prompt).toContain("await expect(page.getByTestId('dashboard-heading')).toHaveText('Dashboard');");
    expect(stats.read().map((e) => e.type)).toEqual(['model_call', 'critic_verdict']);
  });

  it('fail: rejected, the model’s reason and what is missing become an issue Scribe is sent back with', async () => {
    fake.reply(answer({ verdict: 'fail', reason: 'It never checks who is signed in.', missing: ['the signed-in user name'] }));
    const verdict = await review(reviewer(), LOGIN_SPEC);
    expect(verdict.status).toBe('rejected');
    expect(verdict.issues_found).toEqual([expect.objectContaining({ rule: REVIEW_RULE, severity: 'error' })]);
    expect(verdict.issues_found[0]!.message).toContain('It never checks who is signed in. Missing: the signed-in user name.');
    expect(verdict.reason).toContain(`- [${REVIEW_RULE}]`);
    expect(stats.read().at(-1)).toMatchObject({ type: 'critic_verdict', status: 'rejected', rules: [REVIEW_RULE] });
  });

  it('an answer that is not JSON, or JSON of another shape, is a rejection with a clear reason', async () => {
    fake.reply({ text: 'Looks good to me!' }, answer({ verdict: 'maybe', reason: 'hard to say' }));
    const prose = await review(reviewer(), LOGIN_SPEC);
    expect(prose.status).toBe('rejected');
    expect(prose.reason).toContain('the model review gave no usable judgement (the answer is not JSON)');
    expect(prose.reason).toContain('Looks good to me!');

    const shape = await review(reviewer(), LOGIN_SPEC);
    expect(shape.status).toBe('rejected');
    expect(shape.reason).toMatch(/does not have the expected shape \{verdict, reason, missing\}: verdict: /);
  });

  it('JSON in a fenced block is read', async () => {
    fake.reply({ text: `Here is my judgement:\n\`\`\`json\n${JSON.stringify({ verdict: 'pass', reason: 'Covers the request.' })}\n\`\`\`` });
    expect((await review(reviewer(), LOGIN_SPEC)).status).toBe('approved');
  });

  it('a model that cannot be reached is a rejection, not a crash', async () => {
    fake.reply({ status: 500 }, { status: 500 }, { status: 500 });
    const verdict = await review(reviewer(), LOGIN_SPEC);
    expect(verdict.status).toBe('rejected');
    expect(verdict.reason).toMatch(/the model review could not run: .*HTTP 500/);
    expect(stats.read()[0]).toMatchObject({ type: 'model_call', attempts: 3, error: expect.stringContaining('HTTP 500') });
  });

  it('a spec the rules reject is not sent to the model', async () => {
    const verdict = await review(reviewer(), LOGIN_SPEC.replace("getByTestId('login-button').click()", "getByTestId('login-button').click({ force: true })"));
    expect(verdict.status).toBe('rejected');
    expect(errorRules(verdict)).toEqual(['no-force-option']);
    expect(fake.requests).toHaveLength(0);
  });

  it('an enabled review without a prompt is a configuration error naming the key', () => {
    const doc = parseDocument(readFileSync(DEFAULT_CRITIC_PATH, 'utf8'));
    doc.setIn(['review', 'enabled'], true);
    doc.deleteIn(['review', 'prompt']);
    const file = path.join(project.dir, 'agents', 'critic.yaml');
    writeFileSync(file, doc.toString());
    expect(() => loadCriticConfig(file)).toThrow(ConfigError);
    expect(() => loadCriticConfig(file)).toThrow(/review\.prompt: the review is enabled, so it needs review\.prompt/);
  });
});

describe('parseReviewAnswer', () => {
  it('never throws, whatever the answer', () => {
    for (const text of ['', '{', 'null', '[]', '{"verdict": "pass"}', '```json\n{"verdict": 1}\n```']) {
      expect(parseReviewAnswer(text).success).toBe(false);
    }
    expect(parseReviewAnswer('{"verdict": "fail", "reason": "x", "missing": ["y"]}')).toEqual({ success: true, answer: { verdict: 'fail', reason: 'x', missing: ['y'] } });
  });
});
