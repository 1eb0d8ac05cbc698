/**
 * A contained run may write only its run folder's working folder (work/) and its TMPDIR: not the run's
 * settings, its modules, its config or the proof copy, which the run's other processes (the proof's
 * worker, the runner loading the config) read after the spec's worker started. A spec with the gate
 * bypassed, as the hostile-run tests do, tries each write under the user's config with a proof run, in
 * both layers at once; the OS sandbox's binds are then tried alone, by a process without Node's permission
 * model. The run's own evidence (screenshot, trace, report, proof) must still be produced.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpec } from '../../../src/agents/runner.ts';
import { osSandboxAvailable, sandboxPrefix } from '../../../src/agents/runner/sandbox.ts';
import type { RunnerReport } from '../../../src/contracts.ts';
import { startDemoApp, type DemoApp } from '../../../src/demo-app/server.ts';
import { CHROMIUM_ARGS, findBrowser } from '../../../src/explore/browser.ts';
import { bundledRunTarget } from '../../fixtures/run-target.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Searches on the demo app (an action its assertion checks, so the run has a proof copy), after trying to
 * write each file of the run folder the run's processes load. Each attempt's outcome is asserted in the test.
 */
const REWRITING_SPEC = `import { test, expect } from '@playwright/test';

test('search', async ({ page }) => {
  const fs = (process as any).getBuiltinModule('node:fs');
  const path = (process as any).getBuiltinModule('node:path');
  const specDir = path.dirname(test.info().file);
  const runDir = path.dirname(specDir);
  const modulesDir = path.join(runDir, 'node_modules', 'scribe-run');
  const proofCopy = path.join(specDir, fs.readdirSync(specDir).find((name: string) => name.endsWith('.proof.ts')));
  const tried: Record<string, string> = {};
  const attempt = (name: string, act: () => unknown) => { try { act(); tried[name] = 'written'; } catch (error) { tried[name] = String((error as { code?: string }).code ?? error); } };
  attempt('settings', () => fs.writeFileSync(path.join(runDir, 'scribe-run.json'), '{"evidenceAttachment":"forged","contained":false}'));
  attempt('fixtures module', () => fs.appendFileSync(path.join(modulesDir, 'scribe-fixtures.js'), '\\nexport const forged = 1;\\n'));
  attempt('proof fixtures module', () => fs.writeFileSync(path.join(modulesDir, 'scribe-proof-fixtures.js'), "export * from '@playwright/test';\\n"));
  attempt('config overlay', () => fs.writeFileSync(path.join(modulesDir, 'scribe-overlay.js'), 'export const overlayUserConfig = (user) => user;\\n'));
  attempt('config', () => fs.appendFileSync(path.join(runDir, 'playwright.config.ts'), '\\n'));
  attempt('proof copy', () => fs.appendFileSync(proofCopy, "\\ntest('forged', () => {});\\n"));
  attempt('module beside the fixtures', () => fs.writeFileSync(path.join(modulesDir, 'scribe-fixtures.mjs'), 'export {};\\n'));
  attempt('Playwright link', () => fs.renameSync(path.join(runDir, 'node_modules'), path.join(runDir, 'moved')));
  attempt('working folder', () => fs.writeFileSync('note.txt', 'the run may write here'));
  attempt('output folder', () => fs.writeFileSync(test.info().outputPath('note.txt'), 'and here'));
  expect(tried).toEqual({
    settings: 'ERR_ACCESS_DENIED',
    'fixtures module': 'ERR_ACCESS_DENIED',
    'proof fixtures module': 'ERR_ACCESS_DENIED',
    'config overlay': 'ERR_ACCESS_DENIED',
    config: 'ERR_ACCESS_DENIED',
    'proof copy': 'ERR_ACCESS_DENIED',
    'module beside the fixtures': 'ERR_ACCESS_DENIED',
    'Playwright link': 'ERR_ACCESS_DENIED',
    'working folder': 'written',
    'output folder': 'written',
  });
  await page.goto('/search.html');
  await page.getByTestId('search-input').fill('playwright');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-status')).toHaveText('2 results for "playwright"');
  await page.screenshot({ path: 'screenshots/results.png' });
});
`;

let app: DemoApp;
let project: string;

beforeAll(async () => {
  app = await startDemoApp();
  project = mkdtempSync(path.join(tmpdir(), 'scribe-read-only-run-'));
  mkdirSync(path.join(project, 'e2e'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'), 'junction');
  writeFileSync(path.join(project, 'package.json'), '{ "name": "docs", "private": true }\n');
  writeFileSync(
    path.join(project, 'playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: './e2e', use: { launchOptions: { executablePath: ${JSON.stringify(findBrowser(process.env).executablePath)}, args: ${JSON.stringify(CHROMIUM_ARGS)} } } });
`,
  );
});
afterAll(async () => {
  await app?.close();
  rmSync(project, { recursive: true, force: true });
});

describe('a contained run’s writes', () => {
  let report: RunnerReport;
  beforeAll(async () => {
    report = await runSpec({
      ...bundledRunTarget(),
      specText: REWRITING_SPEC,
      fileName: 'search.spec.ts',
      sourceDir: path.join(project, 'e2e'),
      baseURL: app.url,
      cwd: project,
      env: process.env,
      playwrightConfigFile: path.join(project, 'playwright.config.ts'),
      untrusted: true,
      proof: {},
    });
  }, 180_000);

  it('are refused everywhere in the run folder but its working and output folders: settings, modules, config, proof copy', () => {
    expect(report.error_message).toBeNull();
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
  });

  it('still leave the run’s own evidence: the screenshot, the trace, the report and the proof', () => {
    expect(report.screenshots.map((file) => path.basename(file))).toContain('results.png');
    expect(report.screenshots.every(existsSync)).toBe(true);
    expect(report.traces?.length).toBeGreaterThan(0);
    expect(report.tests).toEqual([expect.objectContaining({ title: 'search', status: 'passed' })]);
    expect(report.proof?.verdict).toBe('proved');
    expect(report.containment?.os_sandbox).toBe(osSandboxAvailable(process.env));
  });
});

describe.skipIf(!osSandboxAvailable(process.env))('the OS sandbox alone (a process without Node’s permission model)', () => {
  it('binds the run folder read-only but its working folder', () => {
    const runDir = mkdtempSync(path.join(tmpdir(), 'scribe-sandbox-binds-'));
    const networkDir = mkdtempSync(path.join(tmpdir(), 'scribe-sandbox-net-'));
    try {
      const workDir = path.join(runDir, 'work');
      mkdirSync(workDir);
      writeFileSync(path.join(runDir, 'scribe-run.json'), '{}\n');
      writeFileSync(path.join(networkDir, 'hosts'), '127.0.0.1 localhost\n');
      writeFileSync(path.join(networkDir, 'policy.json'), '{}\n');
      writeFileSync(path.join(networkDir, 'empty'), '');
      const choice = sandboxPrefix(
        'required',
        { runDir, workDir, readOnly: [runDir, repoRoot], userFolders: [repoRoot], hidden: [], networkDir, tempDir: path.join(tmpdir(), `scribe-sandbox-tmp-${process.pid}`), limits: { tempBytes: 1024 * 1024, fileBytes: 1024 * 1024 } },
        process.env,
      );
      const prefix = 'prefix' in choice ? choice.prefix : [];
      expect(prefix).toContain('--ro-bind-try');
      const script = `const fs = require('node:fs');
const tried = {};
const attempt = (name, act) => { try { act(); tried[name] = 'written'; } catch (error) { tried[name] = error.code; } };
attempt('settings', () => fs.writeFileSync(${JSON.stringify(path.join(runDir, 'scribe-run.json'))}, 'forged'));
attempt('new module', () => fs.writeFileSync(${JSON.stringify(path.join(runDir, 'scribe-fixtures.js'))}, ''));
attempt('working folder', () => fs.writeFileSync('note.txt', 'here'));
process.stdout.write(JSON.stringify(tried));`;
      const [command, ...args] = [...prefix, process.execPath, '-e', script];
      const result = spawnSync(command!, args, { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({ settings: 'EROFS', 'new module': 'EROFS', 'working folder': 'written' });
      expect(readFileSync(path.join(runDir, 'scribe-run.json'), 'utf8')).toBe('{}\n');
      expect(readFileSync(path.join(workDir, 'note.txt'), 'utf8')).toBe('here');
    } finally {
      rmSync(runDir, { recursive: true, force: true });
      rmSync(networkDir, { recursive: true, force: true });
    }
  });

  it("hides the project's secret files a few folders deep, however large the Playwright installation beside it", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'scribe-sandbox-secrets-'));
    try {
      const [runDir, networkDir, project, installation] = ['run', 'net', 'project', 'node_modules'].map((name) => path.join(root, name)) as [string, string, string, string];
      const workDir = path.join(runDir, 'work');
      mkdirSync(workDir, { recursive: true });
      mkdirSync(networkDir);
      writeFileSync(path.join(networkDir, 'hosts'), '127.0.0.1 localhost\n');
      writeFileSync(path.join(networkDir, 'policy.json'), '{}\n');
      writeFileSync(path.join(networkDir, 'empty'), '');
      const secret = path.join(project, 'apps', 'web', 'config', '.env');
      mkdirSync(path.dirname(secret), { recursive: true });
      writeFileSync(secret, 'API_TOKEN=from-the-project\n');
      // An installation the size of a real app's: more folders, a few deep, than a run looks into for secrets.
      for (let n = 0; n < 1_100; n++) mkdirSync(path.join(installation, `package-${n}`, 'lib'), { recursive: true });
      const choice = sandboxPrefix(
        'required',
        { runDir, workDir, readOnly: [runDir, project, installation], userFolders: [project], hidden: [], networkDir, tempDir: path.join(tmpdir(), `scribe-sandbox-tmp-${process.pid}`), limits: { tempBytes: 1024 * 1024, fileBytes: 1024 * 1024 } },
        process.env,
      );
      const prefix = 'prefix' in choice ? choice.prefix : [];
      const script = `try { process.stdout.write('read: ' + require('node:fs').readFileSync(${JSON.stringify(secret)}, 'utf8')); } catch (error) { process.stdout.write(error.code); }`;
      const [command, ...args] = [...prefix, process.execPath, '-e', script];
      const result = spawnSync(command!, args, { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      // An empty file in its place: read as empty (a config's process.loadEnvFile('.env') loads nothing, and does not throw).
      expect(result.stdout).toBe('read: ');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
