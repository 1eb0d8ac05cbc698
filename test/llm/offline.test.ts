import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadExploreSettings } from '../../src/config/explore.ts';
import { loadOfflineVocabulary } from '../../src/config/offline.ts';
import type { PageInventory } from '../../src/contracts.ts';
import { launchOptions } from '../../src/explore/browser.ts';
import { exploreUrl } from '../../src/explore/inventory.ts';
import { extractCode } from '../../src/llm/extract.ts';
import { OfflineProvider } from '../../src/llm/offline.ts';
import type { Completion, GenerationTask } from '../../src/llm/types.ts';
import { Validator } from '../../src/validate/validator.ts';
import { DEMO_ACCOUNT, startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const critic = loadCriticConfig();
const vocabulary = loadOfflineVocabulary();
const provider = new OfflineProvider(vocabulary);

interface Case {
  file: string;
  path: string;
  description: string;
  /** A line the spec must hold: the outcome it checks. */
  checks: string;
}

const DEMO_REQUESTS: Case[] = [
  { file: 'login-valid', path: '/login', description: 'log in with valid credentials and see the dashboard', checks: "await expect(page.getByTestId('dashboard')).toBeVisible();" },
  { file: 'login-wrong', path: '/login', description: 'log in with a wrong password and see an error', checks: "await expect(page.getByTestId('login-error')).toBeVisible();" },
  { file: 'todo-add', path: '/todos', description: 'add a todo "Water the plants" and see it in the list', checks: "await expect(page.getByTestId('todo-list')).toContainText('Water the plants', { ignoreCase: true });" },
  { file: 'search', path: '/search', description: 'search for playwright and see results', checks: "await expect(page.getByTestId('search-results')).toContainText('playwright', { ignoreCase: true });" },
];
const UNMAPPABLE: Case = { file: 'unmappable', path: '/search', description: 'download the invoice and see the PDF', checks: "await expect(page.getByTestId('search-heading')).toBeVisible();" };

let app: DemoApp;
let browser: Browser;
let workDir: string;
const inventories = new Map<string, PageInventory>();
const answers = new Map<string, Completion>();
let run: PlaywrightRun;

const validators = new Map<string, Validator>();

/** One validator (one compiler project) per explored page, type-checking on, as Scribe and the Critic run it. */
function validatorFor(page: string | undefined): Validator {
  const key = page ?? '';
  if (!validators.has(key)) validators.set(key, new Validator(critic, { typeCheck: true, inventory: page === undefined ? undefined : inventories.get(page) }));
  return validators.get(key)!;
}

function task(c: Case): GenerationTask {
  return { description: c.description, feature: 'demo', url: `${app.url}${c.path}`, inventory: inventories.get(c.path) };
}

const specOf = (c: Case): string => extractCode(answers.get(c.file)!.text)!;

beforeAll(async () => {
  [app, browser] = await Promise.all([startDemoApp(), chromium.launch(launchOptions())]);
  const settings = loadExploreSettings();
  for (const page of new Set([...DEMO_REQUESTS, UNMAPPABLE].map((c) => c.path))) {
    inventories.set(page, await exploreUrl(`${app.url}${page}`, { testIdAttribute: critic.testIdAttribute, settings, browser }));
  }
  for (const c of [...DEMO_REQUESTS, UNMAPPABLE]) answers.set(c.file, await provider.complete({ messages: [], model: 'offline', temperature: 0, task: task(c) }));

  // The specs run where a user's would: inside the project, so @playwright/test resolves.
  workDir = mkdtempSync(path.join(REPO, 'test', '.offline-run-'));
  for (const c of [...DEMO_REQUESTS, UNMAPPABLE]) writeFileSync(path.join(workDir, `${c.file}.spec.ts`), specOf(c));
  run = await runPlaywright(workDir);
}, 120_000);

afterAll(async () => {
  await Promise.all([app?.close(), browser?.close()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe.each(DEMO_REQUESTS)('offline spec for "$description"', (c) => {
  it('maps the request onto the page, selecting by test id and reading credentials from the environment', () => {
    const answer = answers.get(c.file)!;
    expect(answer).toMatchObject({ model: 'offline', usage: { prompt: 0, completion: 0, total: 0 }, attempts: 1 });
    expect(answer.text).toMatch(/^Offline generator \(no language model\): mapped the request onto /);
    expect(answer.text).toContain('```ts\n');
    const spec = specOf(c);
    expect(spec).toContain(`await page.goto('${c.path}');`);
    expect(spec).toContain(c.checks);
    expect(spec).toContain('await page.screenshot(');
    expect(spec).not.toMatch(/https?:\/\//);
    expect(spec).not.toContain(DEMO_ACCOUNT.password);
    expect(spec).not.toMatch(/getBy(Role|Text|Label|Placeholder)|locator\(/);
    expect(spec.match(/await test\.step\(/g)?.length).toBe(4);
  });

  it('passes every rule of critic.yaml, type-checked, with the inventory', () => {
    const result = validatorFor(c.path).validateText(path.join(workDir, `${c.file}.spec.ts`), specOf(c));
    expect(result.issues).toEqual([]);
  });

  it('runs green with Playwright against the demo app', () => {
    expect(run.passed.get(c.description), run.output).toBe(true);
  });
});

describe('the run', () => {
  it('passes as a whole and leaves a screenshot per test as evidence', () => {
    expect(run.code, run.output).toBe(0);
    expect(run.screenshots).toBe(DEMO_REQUESTS.length + 1);
  });
});

describe('credentials', () => {
  it('names the environment variables in the spec instead of holding values', () => {
    const { username_env, password_env } = vocabulary.credentials;
    expect(specOf(DEMO_REQUESTS[0]!)).toContain(`// Credentials come from the environment: set ${username_env} and ${password_env} before running.`);
    expect(specOf(DEMO_REQUESTS[0]!)).toContain(`const password = process.env.${password_env} ?? '';`);
    expect(specOf(DEMO_REQUESTS[1]!)).toContain(`process.env.${password_env} ?? ''}-wrong`);
    expect(specOf(DEMO_REQUESTS[1]!)).toContain('.fill(wrongPassword);');
  });
});

describe('a request it cannot map', () => {
  it('says so plainly and writes a labelled smoke test of the page', () => {
    const answer = answers.get(UNMAPPABLE.file)!;
    expect(answer.text).toMatch(/^Could not map the request to the page: nothing on \/search matches "the PDF"\. Wrote a smoke test of \/search instead/);
    const spec = specOf(UNMAPPABLE);
    expect(spec).toContain("// Scribe's offline generator could not map this request to the page: nothing on /search matches \"the PDF\".");
    expect(spec).toContain("test('smoke test (request not mapped): /search loads'");
    expect(spec).toContain(UNMAPPABLE.checks);
  });

  it('passes every rule and runs green', () => {
    expect(validatorFor(UNMAPPABLE.path).validateText(path.join(workDir, 'unmappable.spec.ts'), specOf(UNMAPPABLE)).issues).toEqual([]);
    expect(run.passed.get('smoke test (request not mapped): /search loads'), run.output).toBe(true);
  });

  it('asks for a page when none was explored, and still writes a valid smoke test', async () => {
    const answer = await provider.complete({ messages: [], model: 'offline', temperature: 0, task: { description: 'log in and see the dashboard', feature: 'demo' } });
    expect(answer.text).toContain('no page was explored (give a URL with --url or BASE_URL');
    const spec = extractCode(answer.text)!;
    expect(spec).toContain("await page.goto('/');");
    expect(validatorFor(undefined).validateText(path.join(REPO, 'generated-tests', 'demo', 'x.spec.ts'), spec).issues).toEqual([]);
  });
});

describe('the provider', () => {
  it('is deterministic and ignores the chat text', async () => {
    const c = DEMO_REQUESTS[3]!;
    const again = await provider.complete({ messages: [{ role: 'user', content: 'write something else entirely' }], model: 'any', temperature: 1, task: task(c) });
    expect(again.text).toBe(answers.get(c.file)!.text);
  });

  it('needs the structured task', async () => {
    await expect(provider.complete({ messages: [{ role: 'user', content: 'log in' }], model: 'offline', temperature: 0 })).rejects.toThrow('CompletionRequest.task');
  });
});

/** Runs every spec in `dir` with Playwright's CLI against the demo app; returns which tests passed. */
interface PlaywrightRun {
  code: number;
  output: string;
  passed: Map<string, boolean>;
  screenshots: number;
}

async function runPlaywright(dir: string): Promise<PlaywrightRun> {
  const config = {
    testDir: '.',
    outputDir: './test-results',
    workers: 2,
    retries: 0,
    reporter: [['json', { outputFile: './report.json' }]],
    use: { baseURL: app.url, testIdAttribute: critic.testIdAttribute, launchOptions: launchOptions() },
  };
  writeFileSync(path.join(dir, 'playwright.config.mjs'), `export default ${JSON.stringify(config, null, 2)};\n`);
  const env = {
    ...process.env,
    [vocabulary.credentials.username_env]: DEMO_ACCOUNT.username,
    [vocabulary.credentials.password_env]: DEMO_ACCOUNT.password,
  };
  const cli = path.join(REPO, 'node_modules', '.bin', 'playwright');
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(cli, ['test', '--config', path.join(dir, 'playwright.config.mjs')], { cwd: dir, env, timeout: 100_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
  const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { suites: Suite[] };
  const passed = new Map(report.suites.flatMap(specsOf).map((spec) => [spec.title, spec.ok]));
  const screenshots = readdirSync(path.join(dir, 'test-results'), { recursive: true }).filter((f) => String(f).endsWith('outcome.png')).length;
  return { code, output, passed, screenshots };
}

interface Suite {
  specs?: Array<{ title: string; ok: boolean }>;
  suites?: Suite[];
}

function specsOf(suite: Suite): Array<{ title: string; ok: boolean }> {
  return [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specsOf)];
}
