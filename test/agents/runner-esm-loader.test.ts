/**
 * Playwright's ESM loader, only where a project needs it: real projects on disk read by loadProject, run by
 * the real Playwright and Chromium, contained (model code) and through `scribe run` (the user's own spec).
 * Each spec reads from its own process whether it runs without the loader (PW_DISABLE_TS_ESM, set by the
 * preload that installs Playwright's require hooks instead), so each green run shows which way it ran.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RunnerReport } from '../../src/contracts.ts';
import { runSpec } from '../../src/agents/runner.ts';
import { loadRunnerConfig } from '../../src/config/runner.ts';
import { loadProject, runTarget } from '../../src/project/context.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { scribe } from '../commands/cli-harness.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';

const fixtures = fileURLToPath(new URL('../fixtures/runner-app/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const testConfigFile = path.join(fixtures, 'runner.yaml');
const config = loadRunnerConfig(testConfigFile);

let server: StaticServer;
let project: string;

beforeAll(async () => {
  server = await serveDirectory(fixtures);
});
afterAll(() => server.close());
beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'scribe-esm-'));
  // Installed as a project has it: its fixtures import @playwright/test.
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function write(relative: string, text: string): void {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A project's fixtures module in TypeScript (a type annotation only a transform removes). */
const FIXTURES = "import { test as base, expect } from '@playwright/test';\nexport const test = base.extend<{ title: string }>({ title: async ({}, use) => use('Welcome' as string) });\nexport { expect };\n";

/** A spec on its fixtures: the loader's state first, then the page; `loader` is what the process must show. */
function specUsing(loader: 'off' | 'on', check = "await expect(page.getByTestId('title')).toHaveText(title);"): string {
  const expected = loader === 'off' ? "'1'" : 'undefined';
  return `import { test, expect } from './fixtures';\n\ntest('home', async ({ page, title }) => {\n  const disabled: string | undefined = process.env.PW_DISABLE_TS_ESM;\n  expect(disabled).toBe(${expected});\n  await page.goto('/');\n  ${check}\n});\n`;
}

async function contained(text: string, fileName = 'home.spec.ts'): Promise<{ report: RunnerReport; esmLoading: unknown }> {
  const context = await loadProject({ cwd: project, env: process.env });
  const report = await runSpec({
    specText: text,
    fileName,
    sourceDir: path.join(project, 'e2e'),
    baseURL: server.url,
    cwd: project,
    untrusted: true,
    ...runTarget(context),
    ...bundledRunTarget(config),
    proof: {},
  });
  expect(RunnerReport.safeParse(report).success).toBe(true);
  return { report, esmLoading: context.esmLoading?.() };
}

describe('a CommonJS project', () => {
  beforeEach(() => {
    write('package.json', '{ "name": "shop-tests" }\n');
    write('e2e/fixtures.ts', FIXTURES);
  });

  it('runs contained without the ESM loader: the TypeScript spec and fixtures still transformed, the proof still made', async () => {
    const { report, esmLoading } = await contained(specUsing('off', "await page.getByTestId('greet').click();\n  await expect(page.getByTestId('greeting')).toHaveText('Hello!');"));
    expect(esmLoading).toEqual({ needed: false });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass', proof: { verdict: 'proved', line: 7 } });
  });

  it("keeps a failure's line and column exact in the spec without the loader", async () => {
    const { report } = await contained(specUsing('off', "await expect(page.getByTestId('title')).toHaveText('Goodbye');"));
    expect(report).toMatchObject({ status: 'fail', classification: 'app_bug', error_line: 7 });
  });

  it('runs the user\'s own spec through `scribe run` without the loader', async () => {
    write('e2e/home.spec.ts', specUsing('off'));
    write('agents/runner.yaml', readFileSync(testConfigFile, 'utf8'));
    const result = await scribe(['run', 'e2e/home.spec.ts', '--url', server.url, '--json'], { cwd: project, env: { NODE_OPTIONS: '' } });
    expect(RunnerReport.parse(JSON.parse(result.stdout))).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(result.code).toBe(0);
  });

  it('keeps the loader when its Playwright config imports an .mjs module, and runs green under that config', async () => {
    write('settings.mjs', "export const testDir = 'e2e';\n");
    write('playwright.config.ts', "import { defineConfig } from '@playwright/test';\nimport { testDir } from './settings.mjs';\nexport default defineConfig({ testDir });\n");
    const { report, esmLoading } = await contained(specUsing('on'));
    expect(esmLoading).toEqual({ needed: true, because: `${path.join(project, 'settings.mjs')} is an ES module` });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
  });
});

describe('an ES-module project ("type": "module")', () => {
  beforeEach(() => {
    write('package.json', '{ "name": "shop-tests", "type": "module" }\n');
    write('e2e/fixtures.ts', FIXTURES);
  });

  it('keeps the loader: a TypeScript spec importing a TypeScript fixtures module runs green, contained and through `scribe run`', async () => {
    const { report, esmLoading } = await contained(specUsing('on'));
    expect(esmLoading).toEqual({ needed: true, because: `${path.join(project, 'package.json')} says "type": "module"` });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
    write('e2e/home.spec.ts', specUsing('on'));
    write('agents/runner.yaml', readFileSync(testConfigFile, 'utf8'));
    const result = await scribe(['run', 'e2e/home.spec.ts', '--url', server.url, '--json'], { cwd: project, env: { NODE_OPTIONS: '' } });
    expect(RunnerReport.parse(JSON.parse(result.stdout))).toMatchObject({ status: 'pass', classification: 'pass' });
  });
});
