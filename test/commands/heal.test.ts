/**
 * `scribe heal` through the real CLI: the user's suite, written against version 1 of the suite app,
 * runs against version 2, where a UI change renamed test ids. The Medic's answers come from the fake
 * OpenAI server through the real client; every run is a real Playwright run in Chromium.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HealSuiteResult } from '../../src/heal/result.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced } from '../fixtures/model-answers.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSuiteProject, playwrightTest } from '../fixtures/suite-project.ts';
import { runCli } from './harness.ts';

const LOGIN = `import { test, expect } from '@playwright/test';

test('signs in and is welcomed', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('ada');
  await page.getByTestId('login-password').fill('secret');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('welcome')).toHaveText('Welcome, ada');
});
`;

const SEARCH = `import { test, expect } from '@playwright/test';

test('finds milk', async ({ page }) => {
  await page.goto('/search');
  await page.getByTestId('search-input').fill('milk');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-results')).toContainText('Milk');
});
`;

/** Asserts a price the app does not show: an app bug (or a stale test), never healed. */
const PRICE = `import { test, expect } from '@playwright/test';

test('milk costs two dollars', async ({ page }) => {
  await page.goto('/search?q=milk');
  await expect(page.getByTestId('result-milk')).toHaveText('Milk — $2.00');
});
`;

const ABOUT = `import { test, expect } from '@playwright/test';

test('tells the shop story', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByTestId('about-title')).toHaveText('About the shop');
});
`;

const LOGIN_HEALED = LOGIN.replace("'login-username'", "'username-input'").replace("'login-submit'", "'sign-in-button'");
const SEARCH_HEALED = SEARCH.replace("'search-button'", "'search-submit'");
/** A "heal" that makes the test pass by checking less. */
const SEARCH_LOOSENED = SEARCH_HEALED.replace(".toContainText('Milk')", '.toBeVisible()');

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;
const cli = (args: string[]) => runCli(args, { env: project.env(fake.url), cwd: project.dir });
const read = (file: string) => readFileSync(path.join(project.dir, file), 'utf8');

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await startSuiteApp({ version: 2 });
});
afterAll(async () => {
  await fake.close();
  await app.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  project = makeSuiteProject(app.url, { 'e2e/login.spec.ts': LOGIN, 'e2e/search.spec.ts': SEARCH, 'e2e/price.spec.ts': PRICE, 'e2e/about.spec.ts': ABOUT });
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('scribe heal', { timeout: 300_000 }, () => {
  it('heals the specs a renamed test id broke, in place with every assertion; reports the app bug (exit 1); leaves the passing spec alone with no model call', async () => {
    fake.reply({ text: `The button was renamed.\n\n${fenced(LOGIN_HEALED)}` }, { text: fenced(SEARCH_HEALED) });
    const run = await cli(['heal', 'e2e', '--json']);
    expect(run.code).toBe(1);
    const result = HealSuiteResult.parse(JSON.parse(run.stdout));
    const byFile = Object.fromEntries(result.specs.map((spec) => [spec.file, spec]));
    expect(byFile['e2e/about.spec.ts']).toMatchObject({ status: 'passed', classification: 'pass', model_calls: 0, heal_attempts: 0, diff: null, written: false });
    expect(byFile['e2e/price.spec.ts']).toMatchObject({ status: 'regression', classification: 'app_bug', model_calls: 0, written: false });
    expect(byFile['e2e/price.spec.ts']!.message).toContain('Milk — $2.50');
    expect(byFile['e2e/login.spec.ts']).toMatchObject({ status: 'healed', classification: 'test_bug', model_calls: 1, heal_attempts: 1, written: true });
    expect(byFile['e2e/search.spec.ts']).toMatchObject({ status: 'healed', classification: 'test_bug', model_calls: 1, written: true });
    expect(byFile['e2e/search.spec.ts']!.diff).toContain("-  await page.getByTestId('search-button').click();\n+  await page.getByTestId('search-submit').click();");
    expect(result.summary).toMatchObject({ specs: 4, passed: 1, healed: 2, regression: 1, not_healed: 0, model_calls: 2 });

    // Written in place, assertions intact; the app bug's and the passing spec's files untouched.
    expect(read('e2e/login.spec.ts')).toBe(LOGIN_HEALED);
    expect(read('e2e/search.spec.ts')).toBe(SEARCH_HEALED);
    expect(read('e2e/price.spec.ts')).toBe(PRICE);
    expect(read('e2e/about.spec.ts')).toBe(ABOUT);

    // The Medic was shown the run's evidence: the missing id and the page's real ids, nearest first.
    const asked = fake.requests.map((request) => request.body.messages!.find((m) => m.role === 'user')!.content);
    expect(asked[0]).toContain("getByTestId('login-username')");
    expect(asked[0]).toContain('username-input');
    expect(asked[1]).toContain('search-submit');

    // The user's own Playwright run is green on the healed and passing specs.
    const own = await playwrightTest(project.dir, ['e2e/login.spec.ts', 'e2e/search.spec.ts', 'e2e/about.spec.ts']);
    expect(own.output).toMatch(/3 passed/);
    expect(own.code).toBe(0);
  });

  it('--dry-run prints the diff and writes nothing; a heal that loosens an assertion is refused, the spec left as it is', async () => {
    fake.reply({ text: fenced(SEARCH_HEALED) });
    const dry = await cli(['heal', 'e2e/search.spec.ts', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('HEALED');
    expect(dry.stdout).toContain("+  await page.getByTestId('search-submit').click();");
    expect(read('e2e/search.spec.ts')).toBe(SEARCH);

    fake.reply({ text: fenced(SEARCH_LOOSENED) }, { text: fenced(SEARCH_LOOSENED) }, { text: fenced(SEARCH_LOOSENED) });
    const loosened = await cli(['heal', 'e2e/search.spec.ts', '--json']);
    expect(loosened.code).toBe(1);
    const [spec] = HealSuiteResult.parse(JSON.parse(loosened.stdout)).specs;
    expect(spec).toMatchObject({ status: 'not_healed', heal_attempts: 3, model_calls: 3, written: false });
    expect(spec!.reasons.join('\n')).toMatch(/toContainText\('Milk'\)/);
    expect(read('e2e/search.spec.ts')).toBe(SEARCH);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['heal', 'e2e/missing.spec.ts'])).code).toBe(2);
    expect((await cli(['heal', 'e2e', '--url', 'ftp://x'])).code).toBe(2);
  });
});
