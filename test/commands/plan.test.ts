/**
 * `scribe plan` through the real CLI on the suite app (a shop behind a login, nine pages), explored in
 * Chromium signed in through the Playwright config's storage state; offline, and with the scripted model.
 * With no storage state file, signed in as `generate` signs in: through the login form with the declared
 * credentials; with none declared, the plan says the pages behind the login were not explored.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePlan, TestPlan } from '../../src/workflow/plan-file.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSignedInSuiteProject, makeSuiteProject } from '../fixtures/suite-project.ts';
import { closedUrl, freePort } from '../fixtures/closed-url.ts';
import { runCli } from './harness.ts';

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;
const offlineEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home });

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});
beforeEach(() => {
  fake.requests.length = 0;
  project = makeSignedInSuiteProject(app.url, { 'planner.max_scenarios': 10 });
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('scribe plan', { timeout: 180_000 }, () => {
  it('offline: a Markdown plan of the pages behind the login, each scenario with its page, steps and expected outcome', async () => {
    const run = await runCli(['plan', '--out', 'plan.md'], { env: offlineEnv(), cwd: project.dir });
    expect(run.stderr).toContain('scenarios by offline');
    expect(run.stderr).toContain(`explored signed in with the storage state ${path.join('.auth', 'user.json')}`);
    expect(run.code).toBe(0);
    const text = readFileSync(path.join(project.dir, 'plan.md'), 'utf8');
    const plan = parsePlan(text, 'plan.md');
    expect(plan.planner).toBe('offline');
    expect(plan.scenarios.length).toBeGreaterThanOrEqual(8);
    expect(plan.scenarios.length).toBeLessThanOrEqual(10);
    // Signed in: the pages behind the login were explored, with what they show.
    const pages = plan.scenarios.map((s) => s.page);
    expect(pages).toEqual(expect.arrayContaining(['/', '/products', '/cart', '/profile']));
    expect(plan.scenarios).toContainEqual(expect.objectContaining({ request: 'open /products and see the product list', page: '/products', steps: ['open /products'] }));
    expect(plan.scenarios).toContainEqual(expect.objectContaining({ request: 'open / and see the heading "Welcome, ada"' }));
    for (const scenario of plan.scenarios) expect(scenario.expected.length).toBeGreaterThan(0);
    expect(text).toContain('## 1. ');
    expect(text).toContain('## Pages not reached');
    expect(text).toContain('Sign-in: explored signed in with the storage state');
  });

  it('with no storage state file: signs in through the login form with the declared credentials, says so in --json, and plans the pages behind the login', async () => {
    const unsigned = makeSuiteProject(app.url, {}, { 'planner.max_scenarios': 10 });
    try {
      const env = { ...offlineEnv(), SCRIBE_HOME: unsigned.home, E2E_USERNAME: 'ada', E2E_PASSWORD: 'secret' };
      const run = await runCli(['plan', '--out', 'plan.yaml', '--json'], { env, cwd: unsigned.dir });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const plan = TestPlan.parse(JSON.parse(run.stdout));
      expect(plan.sign_in).toEqual({ method: 'login_form', explored_behind_login: true, message: 'signed in through the login form with the declared credentials' });
      expect(plan.scenarios.length).toBeGreaterThanOrEqual(8);
      expect(plan.scenarios.map((s) => s.page)).toEqual(expect.arrayContaining(['/', '/products', '/cart', '/profile']));
      expect(plan.scenarios).toContainEqual(expect.objectContaining({ request: 'open / and see the heading "Welcome, ada"' }));
      expect(parsePlan(readFileSync(path.join(unsigned.dir, 'plan.yaml'), 'utf8'), 'plan.yaml')).toEqual(plan);
    } finally {
      unsigned.remove();
    }
  });

  it('with no storage state, setup project or credentials: the terminal and the plan say the pages behind the login were not explored', async () => {
    const unsigned = makeSuiteProject(app.url, {}, { 'planner.max_scenarios': 10 });
    try {
      const run = await runCli(['plan', '--out', 'plan.yaml'], { env: { ...offlineEnv(), SCRIBE_HOME: unsigned.home }, cwd: unsigned.dir });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/\/login is a sign-in page and there is no storage state, no setup project, and the declared credentials \(E2E_USERNAME, E2E_PASSWORD\) are not set: the pages behind the login were not explored \(set explore\.storage_state/);
      const plan = parsePlan(readFileSync(path.join(unsigned.dir, 'plan.yaml'), 'utf8'), 'plan.yaml');
      expect(plan.sign_in).toMatchObject({ method: 'none', explored_behind_login: false });
      const pages = plan.scenarios.map((s) => s.page);
      expect(pages).toContain('/login');
      expect(pages).not.toContain('/products');
      expect(pages).not.toContain('/profile');
    } finally {
      unsigned.remove();
    }
  });

  it('with a model: the model proposes the scenarios from the site inventory, cut to planner.max_scenarios; the YAML plan names its tokens', async () => {
    const proposed = Array.from({ length: 12 }, (_, n) => ({ request: `scenario ${n + 1}: search for milk and see it`, page: '/search', steps: ['open /search', 'search for milk'], expected: 'Milk is listed' }));
    fake.reply({ text: `Here is the plan.\n\n\`\`\`yaml\n${stringify({ scenarios: proposed })}\`\`\`` });
    const run = await runCli(['plan', '--out', 'plans/shop.yaml'], { env: project.env(fake.url), cwd: project.dir });
    expect(run.code).toBe(0);
    const plan = TestPlan.parse(parsePlan(readFileSync(path.join(project.dir, 'plans', 'shop.yaml'), 'utf8'), 'shop.yaml'));
    expect(plan.scenarios).toHaveLength(10);
    expect(plan.scenarios[0]).toEqual({ ...proposed[0], steps: proposed[0]!.steps });
    expect(plan.tokens).toBe(150);
    const [system, user] = fake.requests[0]!.body.messages!;
    expect(system!.content).toContain('at most\n10 scenarios');
    // The inventory of the signed-in pages went into the prompt.
    expect(user!.content).toContain('product-list');
    expect(user!.content).toContain('profile-name');
  });

  it("starts the Playwright config's webServer to explore, as `generate` does, and stops it after", async () => {
    const port = await freePort();
    writeFileSync(path.join(project.dir, 'app.cjs'), "require('node:http').createServer((req, res) => res.end('<!doctype html><title>Kiosk</title><h1>Opening hours</h1><a href=\"/about\">About us</a>')).listen(Number(process.env.PORT), '127.0.0.1');\n");
    writeFileSync(
      path.join(project.dir, 'playwright.config.ts'),
      `import { defineConfig } from '@playwright/test';\n\nexport default defineConfig({\n  testDir: './e2e',\n  use: { baseURL: 'http://127.0.0.1:${port}' },\n  webServer: { command: 'node app.cjs', url: 'http://127.0.0.1:${port}', env: { PORT: '${port}' } },\n});\n`,
    );
    const run = await runCli(['plan', '--json'], { env: offlineEnv(), cwd: project.dir });
    expect(run.code, run.stderr).toBe(0);
    const plan = TestPlan.parse(JSON.parse(run.stdout));
    expect(plan.app).toBe(`http://127.0.0.1:${port}`);
    expect(plan.scenarios).toContainEqual(expect.objectContaining({ request: 'open / and see the heading "Opening hours"' }));
    // Stopped after: nothing answers on its port any more.
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('an app that does not answer is a failure naming the URL and what to check (exit 1), not an internal error', async () => {
    const url = await closedUrl();
    const run = await runCli(['plan', '--url', url], { env: offlineEnv(), cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`scribe: Cannot explore ${url}`);
    expect(run.stderr).toContain('is the app running there?');
    expect(run.stderr).not.toContain('internal error');
  });

  it('a model answer that is no plan is a failure saying why (exit 1), nothing written; a bad --out is a usage error (exit 2)', async () => {
    fake.reply({ text: '```yaml\nscenarios: nope\n```' });
    const run = await runCli(['plan', '--out', 'plan.yaml'], { env: project.env(fake.url), cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the model's plan cannot be used: scenarios: /);
    expect((await runCli(['plan', '--out', 'plan.txt'], { env: offlineEnv(), cwd: project.dir })).code).toBe(2);
  });
});
