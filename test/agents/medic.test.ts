/**
 * The Medic with the real validator and weakening check, a scripted model behind the real `openai`
 * client, Runner reports shaped as the Runner writes them, and — end to end — the real Runner with
 * Playwright and Chromium against a tiny page on 127.0.0.1.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Medic, type MedicOptions } from '../../src/agents/medic.ts';
import { runSpec } from '../../src/agents/runner.ts';
import { NO_CODE_RULE } from '../../src/agents/spec-check.ts';
import { loadAgents } from '../../src/config/agents.ts';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import { RunnerReport } from '../../src/contracts.ts';
import { createProvider } from '../../src/llm/provider.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { Validator } from '../../src/validate/validator.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced, STRICT_MODE, STRICT_MODE_LINE, STRICT_MODE_HEALED, STRICT_MODE_DROPPED, STRICT_MODE_LOOSENED } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';

const critic = loadCriticConfig();
const validator = new Validator(critic, { typeCheck: true });
const request = { description: 'open the dashboard from the navigation', feature: 'Navigation' };

// A strict-mode violation at line 5, its right heal, and two weakening ones (see model-answers.ts).
const FAILING = STRICT_MODE;
const FAILING_LINE = STRICT_MODE_LINE;
const HEALED = STRICT_MODE_HEALED;
const DROPPED = STRICT_MODE_DROPPED;
const LOOSENED = STRICT_MODE_LOOSENED;

const STRICT_MODE_ERROR = [
  "Error: locator.click: Error: strict mode violation: getByTestId('nav-link') resolved to 2 elements:",
  '    1) <button type="button" data-testid="nav-link">Home</button> aka getByRole(\'button\', { name: \'Home\' })',
  '    2) <button type="button" data-testid="nav-link">Dashboard</button> aka getByRole(\'button\', { name: \'Dashboard\' })',
  '',
  'Call log:',
  "  - waiting for getByTestId('nav-link')",
].join('\n');

const SNAPSHOT = '# Page snapshot\n\n```yaml\n- navigation [ref=e2]:\n  - button "Home" [ref=e3]\n  - button "Dashboard" [ref=e4]\n- heading "Home" [level=1] [ref=e5]\n```';

/** A report as runSpec writes it for the strict-mode violation above. */
function report(overrides: Partial<RunnerReport> = {}): RunnerReport {
  return RunnerReport.parse({
    status: 'fail',
    classification: 'test_bug',
    duration_ms: 2400,
    error_message: STRICT_MODE_ERROR,
    error_line: 5,
    screenshots: ['/tmp/scribe/runs/1/test-failed-1.png'],
    console_errors: [],
    error_context: `# Error details\n\n\`\`\`\n${STRICT_MODE_ERROR}\n\`\`\`\n\n${SNAPSHOT}`,
    segment: { type: 'TEST_RESULT', content: `  1) dashboard.spec.ts:3:1 › opens the dashboard\n\n    ${STRICT_MODE_ERROR}\n\n  1 failed`, outcome: 'FAIL' },
    ...overrides,
  });
}

let fake: FakeOpenAI;
let project: ScribeProject;
let stats: StatsLog;
let medic: Medic;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.requests.length = 0;
  project = makeScribeProject();
  stats = new StatsLog(project.home);
  medic = await makeMedic();
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

async function makeMedic(options: Partial<MedicOptions> = {}): Promise<Medic> {
  const env = project.env(fake.url);
  const scribeConfig = loadScribeConfig(path.join(project.dir, 'agents', 'scribe.yaml'));
  const provider = await createProvider({ env, settings: scribeConfig.provider });
  return new Medic({ scribeConfig, critic, provider, validator, stats, cwd: project.dir, env, ...options });
}

const file = () => path.join(project.dir, 'generated-tests', 'navigation', 'dashboard.spec.ts');
const heal = (extra: { report?: RunnerReport; attempt?: number; previousRefusal?: string } = {}) =>
  medic.heal({ file: file(), code: FAILING, report: extra.report ?? report(), request, attempt: extra.attempt ?? 1, maxAttempts: 3, generation: 'gen-1', previousRefusal: extra.previousRefusal });
const userMessage = (n: number) => fake.requests[n]!.body.messages!.find((m) => m.role === 'user')!.content;
const heals = () => stats.read().filter((e) => e.type === 'heal');

describe('Medic.heal', () => {
  it('heals a strict-mode violation: the request carries the error, the quoted failing line and the page snapshot', async () => {
    fake.reply({ text: `The link is ambiguous; narrow it by its text.\n\n${fenced(HEALED)}` });
    const result = await heal();
    expect(result).toEqual({ status: 'healed', code: HEALED });

    const body = fake.requests[0]!.body;
    expect(body.model).toBe(loadScribeConfig().provider.models.medium);
    const [system, user] = body.messages!;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('- no-nth-methods (error):');
    const prompt = user!.content;
    expect(prompt).toContain(STRICT_MODE_ERROR);
    expect(prompt).toContain(`It failed at line 5 of the spec:\n> ${FAILING_LINE}`);
    expect(prompt).toContain('button "Dashboard" [ref=e4]');
    expect(prompt).toContain(FAILING.trimEnd());
    expect(prompt).toContain(`What it must test: ${request.description}`);
    expect(prompt).toContain('(test_bug)');
    expect(prompt).toContain('Heal attempt 1 of 3');
    expect(prompt).not.toContain('was refused');

    expect(stats.read().map((e) => e.type)).toEqual(['model_call', 'heal']);
    expect(heals()).toEqual([expect.objectContaining({ generation: 'gen-1', outcome: 'healed' })]);
  });

  it('heals a timeout report too', async () => {
    fake.reply({ text: fenced(HEALED) });
    const result = await heal({ report: report({ status: 'timeout', classification: 'timeout', error_message: 'the run took longer than timeouts.run_ms', error_line: null, error_context: null }) });
    expect(result.status).toBe('healed');
    expect(userMessage(0)).not.toContain('It failed at line');
    expect(userMessage(0)).not.toContain('The page when it failed');
  });

  it('refuses a heal that drops the assertion, every time, each refusal fed to the next attempt', async () => {
    fake.reply({ text: fenced(DROPPED) }, { text: fenced(DROPPED) }, { text: fenced(DROPPED) });
    let previousRefusal: string | undefined;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = await heal({ attempt, previousRefusal });
      expect(result.status).toBe('refused');
      if (result.status !== 'refused') return;
      expect(result.code).toBe(DROPPED);
      expect(result.reasons).toEqual([
        expect.stringContaining("`expect(page.getByTestId('page-title')).toHaveText('Dashboard')` was removed"),
        expect.stringMatching(/^\[expect-expect\] line 3: /),
      ]);
      if (previousRefusal) expect(userMessage(attempt - 1)).toContain(`Your previous fix was refused; do not repeat these problems:\n${previousRefusal}`);
      previousRefusal = result.reasons.join('\n');
    }
    expect(heals().map((e) => e.type === 'heal' && e.outcome)).toEqual(['refused', 'refused', 'refused']);
  });

  it("refuses a heal that loosens toHaveText('Dashboard') to toBeVisible(), every time", async () => {
    fake.reply({ text: fenced(LOOSENED) }, { text: fenced(LOOSENED) }, { text: fenced(LOOSENED) });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = await heal({ attempt, previousRefusal: attempt > 1 ? 'the matcher must stay .toHaveText()' : undefined });
      expect(result).toMatchObject({ status: 'refused', code: LOOSENED, reasons: [expect.stringMatching(/became \.toBeVisible\(\) .*the matcher must stay \.toHaveText\(\)/)] });
    }
    expect(heals().map((e) => e.type === 'heal' && e.outcome)).toEqual(['refused', 'refused', 'refused']);
  });

  it('refuses a heal that skips the test', async () => {
    fake.reply({ text: fenced(HEALED.replace("test('opens the dashboard'", "test.fixme('opens the dashboard'")) });
    const result = await heal();
    expect(result).toMatchObject({ status: 'refused', reasons: expect.arrayContaining([expect.stringMatching(/^test\.fixme was added/)]) });
  });

  it('autofixes a heal as Scribe would, and refuses one that breaks a rule no autofix can repair', async () => {
    fake.reply({ text: fenced(HEALED.replace("  await page.goto('/');", "  await page.goto('/');\n  await page.waitForTimeout(500);")) });
    expect(await heal()).toEqual({ status: 'healed', code: HEALED });

    fake.reply({ text: fenced(FAILING.replace(FAILING_LINE, "await page.getByTestId('nav-link').last().click();")) });
    const result = await heal();
    expect(result).toMatchObject({ status: 'refused', reasons: [expect.stringMatching(/^\[no-nth-methods\] line 5: .*\n {4}> await page\.getByTestId\('nav-link'\)\.last\(\)\.click\(\);/)] });
    expect(heals().map((e) => e.type === 'heal' && e.outcome)).toEqual(['healed', 'failed']);
  });

  it('refuses a heal that passes every assertion check but carries a payload: the allow-list gate applies to heals', async () => {
    fake.reply({ text: fenced(HEALED.replace("  await page.goto('/');", "  await page.goto('/');\n  process.getBuiltinModule('node:child_process').execSync('true');")) });
    const result = await heal();
    expect(result).toMatchObject({ status: 'refused', reasons: [expect.stringMatching(/^\[allowed-code\] line 5: `process` gives a spec the runner's own process/)] });
  });

  it('refuses an answer without code, and one that returns the failing spec unchanged', async () => {
    fake.reply({ text: 'The link is ambiguous; you should narrow it.' }, { text: fenced(FAILING) });
    const prose = await heal();
    expect(prose).toMatchObject({ status: 'refused', code: null, reasons: [expect.stringContaining('held no code block')] });
    const unchanged = await heal();
    expect(unchanged).toMatchObject({ status: 'refused', reasons: ['the answer is the failing spec unchanged; it would fail the same way'] });
    expect(NO_CODE_RULE).toBe('no-code-block');
  });

  it('does not heal an app bug or an environment failure, and asks no model', async () => {
    const appBug = await heal({
      report: report({ classification: 'app_bug', error_message: 'Error: expect(locator).toHaveText(expected) failed\n\nExpected: "Dashboard"\nReceived: "Home"', error_line: 6 }),
    });
    expect(appBug.status).toBe('failed');
    if (appBug.status === 'failed') {
      expect(appBug.error).toMatch(/app bugs are reported, not healed/);
      expect(appBug.error).toContain('Received: "Home"');
    }
    const environment = await heal({ report: report({ status: 'error', classification: 'environment', error_message: 'net::ERR_CONNECTION_REFUSED', error_line: 4 }) });
    expect(environment).toMatchObject({ status: 'failed', error: expect.stringContaining('(environment): net::ERR_CONNECTION_REFUSED') });
    expect(fake.requests).toHaveLength(0);
    expect(stats.read()).toEqual([]);
  });

  it("heals only what the project's agents/workflow.yaml routes to the Medic", async () => {
    writeFileSync(path.join(project.dir, 'agents', 'workflow.yaml'), 'blocks:\n  run:\n    on: { TIMEOUT: fallback, APP_BUG: medic }\n');
    const routed = await makeMedic({ workflow: loadAgents(project.dir).workflow });
    const timeout = report({ status: 'timeout', classification: 'timeout', error_message: 'the run took longer than timeouts.run_ms', error_line: null, error_context: null });
    const notHealed = await routed.heal({ file: file(), code: FAILING, report: timeout, request, attempt: 1, maxAttempts: 3 });
    expect(notHealed).toMatchObject({ status: 'failed', error: expect.stringContaining('not healed') });
    expect(fake.requests).toHaveLength(0);

    fake.reply({ text: fenced(HEALED) });
    const appBug = report({ classification: 'app_bug', error_message: 'Error: expect(locator).toHaveText(expected) failed', error_line: 6 });
    expect(await routed.heal({ file: file(), code: FAILING, report: appBug, request, attempt: 1, maxAttempts: 3 })).toEqual({ status: 'healed', code: HEALED });
    expect(userMessage(0)).toContain('(app_bug)');
  });

  it('a model that cannot be reached fails the heal with the reason', async () => {
    fake.reply({ status: 500 }, { status: 500 }, { status: 500 });
    const result = await heal();
    expect(result).toMatchObject({ status: 'failed', error: expect.stringMatching(/could not reach the model: .*HTTP 500/) });
    expect(heals()).toEqual([expect.objectContaining({ outcome: 'failed' })]);
  });
});

describe("the Medic's prompts from the project's agents/scribe.yaml", () => {
  it('an override of the texts that stand in for missing evidence reaches the fix request', async () => {
    writeFileSync(
      path.join(project.dir, 'agents', 'scribe.yaml'),
      [
        'medic:',
        '  prompts:',
        "    no_error_message: 'Playwright said nothing (status {{status}}).'",
        '    no_test_ids: no test ids at all',
        '    no_roles: no named elements either',
      ].join('\n'),
    );
    const scribeConfig = loadAgents(project.dir).scribe;
    const env = project.env(fake.url);
    const custom = new Medic({ scribeConfig, critic, provider: await createProvider({ env, settings: scribeConfig.provider }), validator, stats, cwd: project.dir, env });
    fake.reply({ text: fenced(HEALED) });
    const silent = report({ status: 'timeout', classification: 'timeout', error_message: null, error_line: null, error_context: null, final_page: { url: 'http://127.0.0.1:1/empty', testIds: [], roles: [] } });
    const result = await custom.heal({ file: file(), code: FAILING, report: silent, request, attempt: 1, maxAttempts: 3 });

    expect(result.status).toBe('healed');
    const prompt = userMessage(0);
    expect(prompt).toContain('Playwright said nothing (status timeout).');
    expect(prompt).toContain('Test ids: no test ids at all');
    expect(prompt).toContain('(role "name"): no named elements either');
  });
});

describe('Medic end to end with the Runner', () => {
  const appDir = fileURLToPath(new URL('../fixtures/medic-app/', import.meta.url));
  let app: StaticServer;

  beforeAll(async () => {
    app = await serveDirectory(appDir);
  });
  afterAll(() => app.close());

  it('a strict-mode violation fails as test_bug, is healed through the model, and the healed spec passes', async () => {
    const run = (code: string) => runSpec({ specText: code, fileName: 'dashboard.spec.ts', sourceDir: path.dirname(file()), baseURL: app.url, cwd: project.dir, env: { ...process.env, SCRIBE_HOME: project.home }, ...bundledRunTarget() });

    const failed = await run(FAILING);
    expect(failed).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
    expect(failed.error_message).toMatch(/strict mode violation: getByTestId\('nav-link'\) resolved to 2 elements/);

    fake.reply({ text: fenced(HEALED) });
    const healed = await medic.heal({ file: file(), code: FAILING, report: failed, request, attempt: 1, maxAttempts: 3 });
    expect(healed).toEqual({ status: 'healed', code: HEALED });
    const prompt = userMessage(0);
    expect(prompt).toContain(failed.error_message!.split('\n')[0]);
    expect(prompt).toContain(`> ${FAILING_LINE}`);
    expect(prompt).toContain('button "Dashboard"');

    const passed = await run(HEALED);
    expect(passed).toMatchObject({ status: 'pass', classification: 'pass' });
    const temp = path.join(project.home, 'tmp');
    expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
  });
});
