/**
 * The run folder's own modules (src/agents/runner/run-folder/) are source files, type-checked and linted
 * with the rest, copied into each run folder with the run's settings written beside them as data.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ts } from '../../../src/util/typescript.js';
import { loadRunnerConfig } from '../../../src/config/runner.ts';
import { createWorkspace, resolvePlaywright, type WorkspaceSettings } from '../../../src/agents/runner/workspace.ts';
import type { RunSettings } from '../../../src/agents/runner/run-folder/scribe-run.ts';

const SOURCES = fileURLToPath(new URL('../../../src/agents/runner/run-folder/', import.meta.url));
const SPEC = "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page).toHaveTitle('Home');\n});\n";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function workspace(extra: Partial<WorkspaceSettings>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-run-folder-'));
  dirs.push(dir);
  const settings: WorkspaceSettings = { baseURL: 'http://127.0.0.1:4000', testIdAttribute: 'data-testid', launch: {}, runner: loadRunnerConfig(), ...extra };
  const created = createWorkspace(dir, 'r1', { text: SPEC, fileName: 'home.spec.ts', sourceDir: dir }, resolvePlaywright(process.cwd()), settings);
  const runSettings = JSON.parse(readFileSync(path.join(dir, 'scribe-run.json'), 'utf8')) as RunSettings;
  return { dir, created, runSettings, files: readdirSync(dir).sort() };
}

describe('the run folder’s modules', () => {
  it('import only packages and each other, by the .js name Playwright maps to the copy', () => {
    const modules = readdirSync(SOURCES).filter((file) => file.endsWith('.ts'));
    expect(modules.length).toBeGreaterThanOrEqual(5);
    for (const file of modules) {
      const relative = ts.preProcessFile(readFileSync(path.join(SOURCES, file), 'utf8'), true, true).importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.'));
      for (const specifier of relative) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/scribe-[a-z-]+\.js$/);
        expect(modules, `${file} imports ${specifier}`).toContain(specifier.slice(2).replace(/\.js$/, '.ts'));
      }
    }
  });

  it('are copied as they are, with the run’s settings as data beside them: a plain run', () => {
    const { dir, created, runSettings, files } = workspace({});
    expect(files).toEqual(['node_modules', 'package.json', 'playwright.config.mjs', 'scribe-fixtures.ts', 'scribe-page-elements.ts', 'scribe-run.json', 'scribe-run.ts', 'spec', 'work']);
    for (const name of ['scribe-fixtures.ts', 'scribe-page-elements.ts', 'scribe-run.ts']) expect(readFileSync(path.join(dir, name), 'utf8')).toBe(readFileSync(path.join(SOURCES, name), 'utf8'));
    expect(runSettings).toEqual({ evidenceAttachment: created.evidenceAttachment, contained: false });
    expect(readFileSync(created.specFile, 'utf8')).toContain("from '../scribe-fixtures.ts'");
  });

  it('a contained proof run under the user’s config: the proof fixtures and the overlay join them, the config file names only the user’s', () => {
    const userConfig = path.join(tmpdir(), 'someone', 'playwright.config.ts');
    const { dir, created, runSettings, files } = workspace({
      contained: { wsEndpoint: 'ws://127.0.0.1:9/abc', tsconfig: '/p/tsconfig.json' },
      proof: { text: SPEC, expectTimeoutMs: 1234 },
      userConfig: { file: userConfig, project: 'chromium' },
    });
    expect(files).toEqual(['node_modules', 'package.json', 'playwright.config.ts', 'scribe-fixtures.ts', 'scribe-overlay.ts', 'scribe-page-elements.ts', 'scribe-proof-fixtures.ts', 'scribe-run.json', 'scribe-run.ts', 'spec', 'work']);
    expect(runSettings).toMatchObject({
      evidenceAttachment: created.evidenceAttachment,
      contained: true,
      proof: { expectTimeoutMs: 1234 },
      overlay: { configDir: path.dirname(userConfig), project: 'chromium', specName: ['home.spec.ts', 'home.spec.ts.proof.ts'], connectOptions: { wsEndpoint: 'ws://127.0.0.1:9/abc' }, tsconfig: '/p/tsconfig.json' },
    });
    const config = readFileSync(created.configFile, 'utf8');
    expect(config).toContain(`import user from ${JSON.stringify(userConfig)};`);
    expect(config).toContain("import { overlayUserConfig } from './scribe-overlay.js';");
    expect(config).not.toContain(created.evidenceAttachment);
    expect(readFileSync(created.proofFile!, 'utf8')).toContain("from '../scribe-proof-fixtures.ts'");
    expect(readFileSync(path.join(dir, 'scribe-proof-fixtures.ts'), 'utf8')).toBe(readFileSync(path.join(SOURCES, 'scribe-proof-fixtures.ts'), 'utf8'));
  });
});
