/**
 * Exploring behind a login through the real CLI (issue 25): `scribe generate` on the suite app, whose every page
 * but /login, /about and /search redirects to /login, with no storage state file. (a) The Playwright config has a
 * setup project that signs in and writes the state: it runs, and the prompt's inventory holds the signed-in pages'
 * controls. (b) No setup project, the declared credentials set: Scribe signs in through the form; same check, and
 * the password's value is in no model request. (c) Wrong or unset credentials: both outputs say the pages behind
 * the login were not explored, and the generation still ends normally. (d) The credentials only in the project's
 * .env, which its Playwright config loads with dotenv (as Playwright's docs show) or Node's own loader: taken from
 * there, as `npx playwright test` has them; the spec runs green (the config, loaded again inside the sandbox,
 * reads the masked .env as empty) and the password is in no model request. (e) A setup project reading variables
 * of its own (not declared), through a helper, set only in that .env: they are passed to its runs, so it signs in;
 * (f) set nowhere, the run's failure names them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty } from '../fixtures/model-answers.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSuiteProject } from '../fixtures/suite-project.ts';
import { CHROMIUM_ARGS, findBrowser } from '../../src/explore/browser.ts';
import { runCli } from './harness.ts';

/** Not a common word: the redaction of a common one is redaction.test.ts's subject, not this test's. */
const PASSWORD = 'Quill-Harbor-7731';
const DESCRIPTION = 'open the products page and see the Products heading';

// Grounded on /products, which only a signed-in exploration sees.
const SPEC = `import { test, expect } from '@playwright/test';

test('shows the products', async ({ page }) => {
  await page.goto('/products');
  await expect(page.getByTestId('products-title')).toHaveText('Products');
  await page.screenshot({ path: 'test-results/products.png' });
});
`;

/** The same check, signing in first through the form with the declared credentials: a spec that runs green with no storage state. */
const SIGNED_IN_SPEC = `import { test, expect } from '@playwright/test';

test('shows the products', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(process.env.E2E_USERNAME!);
  await page.getByTestId('login-password').fill(process.env.E2E_PASSWORD!);
  await page.getByTestId('login-submit').click();
  await page.goto('/products');
  await expect(page.getByTestId('products-title')).toHaveText('Products');
  await page.screenshot({ path: 'test-results/products.png' });
});
`;

/**
 * A config whose tests depend on a setup project that signs in through the form and writes .auth/user.json. Its
 * assertions wait 2 s, as the suite project's do: a setup project given a wrong password waits them out.
 */
function setupProjectConfig(baseURL: string): string {
  return `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  expect: { timeout: 2000 },
  use: {
    baseURL: ${JSON.stringify(baseURL)},
    launchOptions: { executablePath: ${JSON.stringify(findBrowser(process.env).executablePath)}, args: ${JSON.stringify(CHROMIUM_ARGS)} },
  },
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    { name: 'shop', dependencies: ['setup'], use: { storageState: '.auth/user.json' } },
  ],
});
`;
}

const AUTH_SETUP = `import { test as setup, expect } from '@playwright/test';

setup('sign in', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(process.env.E2E_USERNAME!);
  await page.getByTestId('login-password').fill(process.env.E2E_PASSWORD!);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.context().storageState({ path: '.auth/user.json' });
});
`;

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp({ password: PASSWORD })]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});
afterEach(() => {
  fake.requests.length = 0;
  project.remove();
});

function withSetupProject(): ScribeProject {
  const made = makeSuiteProject(app.url, { 'e2e/auth.setup.ts': AUTH_SETUP });
  writeFileSync(path.join(made.dir, 'playwright.config.ts'), setupProjectConfig(app.url));
  mkdirSync(path.join(made.dir, '.auth'), { recursive: true });
  return made;
}

async function generate(credentials: NodeJS.ProcessEnv) {
  // The same answer to every call: where the pages behind the login were not explored, it is refused and retried.
  fake.answerBy(() => ({ text: chatty(SPEC) }));
  const run = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/`, '--feature', 'products', '--no-run', '--json'], { env: project.env(fake.url, credentials), cwd: project.dir });
  const shown = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/`, '--feature', 'products', '--no-run', '--force'], { env: project.env(fake.url, credentials), cwd: project.dir });
  return { result: JSON.parse(run.stdout), run, terminal: shown.stdout + shown.stderr };
}

/** One generation that runs its spec, every model call answered with `spec`, nothing of the credentials in Scribe's own environment. */
async function generateAndRun(spec: string) {
  fake.answerBy(() => ({ text: chatty(spec) }));
  const run = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/`, '--feature', 'products', '--json'], { env: project.env(fake.url, {}), cwd: project.dir });
  return { run, result: JSON.parse(run.stdout) };
}

/** Every model request's messages, as sent. */
const sent = () => fake.requests.map((request) => JSON.stringify(request.body.messages)).join('\n');

/** How a config loads the project's .env: dotenv, as Playwright's docs show, or Node's own loader (which throws on a file it cannot read). */
const ENV_LOADERS = {
  dotenv: "import dotenv from 'dotenv';\nimport path from 'node:path';\n\ndotenv.config({ path: path.resolve(__dirname, '.env') });\n",
  'process.loadEnvFile': "import path from 'node:path';\n\nprocess.loadEnvFile(path.resolve(__dirname, '.env'));\n",
};

/**
 * A setup project as users write them: it reads credentials of its own (no declared ones), through a helper
 * module, set only in the .env its config loads with dotenv.
 */
const OWN_VARIABLES_SETUP = `import { test as setup, expect } from '@playwright/test';
import { qaAccount } from './helpers/account';

setup('sign in', async ({ page }) => {
  const { login, secret } = qaAccount();
  await page.goto('/login');
  await page.getByTestId('login-username').fill(login);
  await page.getByTestId('login-password').fill(secret);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.context().storageState({ path: '.auth/user.json' });
});
`;

const ACCOUNT_HELPER = `export function qaAccount() {
  const { QA_SECRET } = process.env;
  return { login: process.env['QA_LOGIN'] ?? 'nobody', secret: QA_SECRET ?? '' };
}
`;

function withOwnSetupVariables(): ScribeProject {
  const made = makeSuiteProject(app.url, { 'e2e/auth.setup.ts': OWN_VARIABLES_SETUP, 'e2e/helpers/account.ts': ACCOUNT_HELPER });
  writeFileSync(path.join(made.dir, 'playwright.config.ts'), `${ENV_LOADERS.dotenv}${setupProjectConfig(app.url)}`);
  writeFileSync(path.join(made.dir, '.env'), `QA_LOGIN=grace\nQA_SECRET=${PASSWORD}\n`);
  mkdirSync(path.join(made.dir, '.auth'), { recursive: true });
  return made;
}

/** The suite project, its credentials only in .env, which its config loads. */
function withEnvFile(loader: string): ScribeProject {
  const made = makeSuiteProject(app.url, {});
  const config = path.join(made.dir, 'playwright.config.ts');
  writeFileSync(config, `${loader}${readFileSync(config, 'utf8')}`);
  writeFileSync(path.join(made.dir, '.env'), `E2E_USERNAME=grace\nE2E_PASSWORD=${PASSWORD}\n`);
  return made;
}

describe('scribe generate behind a login', { timeout: 300_000 }, () => {
  it('(a) runs the setup project, then explores the signed-in pages', async () => {
    project = withSetupProject();
    const { result, run, terminal } = await generate({ E2E_USERNAME: 'ada', E2E_PASSWORD: PASSWORD });
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method: 'setup_project', explored_behind_login: true });
    expect(result.sign_in.message).toContain("setup project 'setup'");
    expect(terminal).toContain("running the setup project 'setup' to sign in");
    expect(terminal).toContain("signed in with the storage state the setup project 'setup' made");
    const prompt = JSON.stringify(fake.requests[0]!.body.messages);
    expect(prompt).toContain('Welcome, ada');
    expect(prompt).toContain('products-title');
    expect(result).toMatchObject({ success: true });
    expect(sent()).not.toContain(PASSWORD);
  });

  it('(b) with no setup project, signs in through the form with the declared credentials', async () => {
    project = makeSuiteProject(app.url, {});
    const { result, run, terminal } = await generate({ E2E_USERNAME: 'grace', E2E_PASSWORD: PASSWORD });
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method: 'login_form', explored_behind_login: true });
    expect(terminal).toContain('signed in through the login form with the declared credentials');
    const prompt = JSON.stringify(fake.requests[0]!.body.messages);
    expect(prompt).toContain('Welcome, grace');
    expect(prompt).toContain('products-title');
    // The sign-in page stays in view: with no storage state, the spec itself must sign in there.
    expect(prompt).toContain('login-username');
    expect(result).toMatchObject({ success: true });
    expect(sent()).not.toContain(PASSWORD);
    expect(run.stdout + run.stderr + terminal).not.toContain(PASSWORD);
  });

  it.each(Object.entries(ENV_LOADERS))('(d) takes the credentials from the .env the Playwright config loads with %s, signs in, runs the spec green', async (_name, loader) => {
    project = withEnvFile(loader);
    const { run, result } = await generateAndRun(SIGNED_IN_SPEC);
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method: 'login_form', explored_behind_login: true });
    expect(result.warnings).toContain('E2E_USERNAME, E2E_PASSWORD are taken as playwright.config.ts sets them (its .env, say), as `npx playwright test` has them');
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Welcome, grace');
    expect(result, JSON.stringify(result.runner?.error_message)).toMatchObject({ success: true, runner: { classification: "pass" } });
    expect(sent()).not.toContain(PASSWORD);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it("(e) passes the setup project the variables it reads, from the .env the config loads: it signs in for exploring and for the run", async () => {
    project = withOwnSetupVariables();
    // None declared either.
    const { run, result } = await generateAndRun(SPEC);
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method: 'setup_project', explored_behind_login: true });
    expect(result.warnings).toContain('QA_LOGIN, QA_SECRET are taken as playwright.config.ts sets them (its .env, say), as `npx playwright test` has them');
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Welcome, grace');
    // The run ran the setup project first, signed in: the spec's page behind the login was there.
    expect(result, JSON.stringify(result.runner?.error_message)).toMatchObject({ success: true, runner: { classification: 'pass' } });
    expect(sent()).not.toContain(PASSWORD);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it('(f) names the variables a failing setup project reads that are set nowhere', async () => {
    project = withOwnSetupVariables();
    writeFileSync(path.join(project.dir, '.env'), '');
    const { run, result } = await generateAndRun(SPEC);
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method: 'none', explored_behind_login: false });
    expect(result.sign_in.message).toContain('The setup projects read QA_LOGIN, QA_SECRET, which are not set');
    expect(result.runner, run.stdout + run.stderr).toMatchObject({ classification: 'environment' });
    expect(result.runner.error_message).toMatch(/^setup project 'setup' failed at e2e\/auth\.setup\.ts:10/);
    expect(result.runner.error_message).toContain('The setup projects read QA_LOGIN, QA_SECRET, which are not set: neither in the environment nor by the Playwright config (its .env)');
    expect(result.success).toBe(false);
  });

  it.each([
    ['a wrong password, through the form', () => makeSuiteProject(app.url, {}), { E2E_USERNAME: 'grace', E2E_PASSWORD: 'not-the-password' }, 'login_form'],
    ['unset credentials, no setup project', () => makeSuiteProject(app.url, {}), {}, 'none'],
    ['a wrong password, in the setup project', withSetupProject, { E2E_USERNAME: 'ada', E2E_PASSWORD: 'not-the-password' }, 'none'],
  ])('(c) %s: says the pages behind the login were not explored', async (_name, make, credentials, method) => {
    project = make();
    const { result, run, terminal } = await generate(credentials);
    expect(result.sign_in, run.stdout + run.stderr).toMatchObject({ method, explored_behind_login: false });
    expect(result.sign_in.message).toContain('the pages behind the login were not explored');
    expect(terminal).toContain('the pages behind the login were not explored');
    // The model saw the sign-in page only; the generation ended with a result, not a crash.
    const prompt = JSON.stringify(fake.requests[0]!.body.messages);
    expect(prompt).toContain('login-username');
    expect(prompt).not.toContain('products-title');
    expect([0, 1]).toContain(run.code);
    expect(sent()).not.toContain('not-the-password');
  });
});
