/**
 * The run folder's own modules (src/agents/runner/run-folder/) are source files, type-checked and linted
 * with the rest, compiled into each run folder's node_modules/scribe-run (which Playwright does not
 * transform) with the run's settings written beside them as data.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ts } from '../../../src/util/typescript.js';
import { loadRunnerConfig } from '../../../src/config/runner.ts';
import { createWorkspace, resolvePlaywright, runLoadsEsm, type WorkspaceSettings } from '../../../src/agents/runner/workspace.ts';
import type { RunSettings } from '../../../src/agents/runner/run-folder/scribe-run.ts';

const SOURCES = fileURLToPath(new URL('../../../src/agents/runner/run-folder/', import.meta.url));
const SPEC = "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page).toHaveTitle('Home');\n});\n";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const MODULES = (dir: string) => path.join(dir, 'node_modules', 'scribe-run');
const modulesOf = (dir: string) => readdirSync(MODULES(dir)).sort();

/** The compiled module holds its source's code: each of the source's exported names, and no type left. */
function expectCompiledFrom(compiled: string, source: string): void {
  const text = readFileSync(compiled, 'utf8');
  const exported = [...readFileSync(path.join(SOURCES, source), 'utf8').matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((match) => match[1]!);
  for (const name of exported) expect(text, `${source}: ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
  expect(ts.transpileModule(text, { fileName: 'check.js', reportDiagnostics: true }).diagnostics ?? []).toEqual([]);
  expect(text).not.toMatch(/^import type |: PageElements\b|: RunSettings\b/m);
}

function workspace(extra: Partial<WorkspaceSettings>, packageJson?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-run-folder-'));
  dirs.push(dir);
  if (packageJson) writeFileSync(path.join(dir, 'package.json'), packageJson);
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

  it('are compiled to JavaScript in the folder’s node_modules, the config linked from there, the run’s settings as data beside them: a plain run', () => {
    const { dir, created, runSettings, files } = workspace({});
    expect(files).toEqual(['node_modules', 'package.json', 'playwright.config.cjs', 'scribe-run.json', 'spec', 'work']);
    expect(modulesOf(dir)).toEqual(['package.json', 'playwright.config.cjs', 'scribe-fixtures.js', 'scribe-page-elements.js', 'scribe-run.js']);
    for (const name of ['scribe-fixtures', 'scribe-page-elements', 'scribe-run']) expectCompiledFrom(path.join(MODULES(dir), `${name}.js`), `${name}.ts`);
    expect(lstatSync(created.configFile).isSymbolicLink()).toBe(true);
    expect(realpathSync(created.configFile)).toBe(realpathSync(path.join(MODULES(dir), 'playwright.config.cjs')));
    expect(readFileSync(created.configFile, 'utf8')).toContain('module.exports = {');
    expect(runSettings).toEqual({ evidenceAttachment: created.evidenceAttachment, contained: false });
    expect(readFileSync(created.specFile, 'utf8')).toContain("from '../node_modules/scribe-run/scribe-fixtures.js'");
  });

  it('are compiled to the spec’s module type: CommonJS beside a spec of a CommonJS folder, ES modules in a "type": "module" one', () => {
    const { dir } = workspace({});
    expect(JSON.parse(readFileSync(path.join(MODULES(dir), 'package.json'), 'utf8'))).toMatchObject({ type: 'commonjs' });
    expect(readFileSync(path.join(MODULES(dir), 'scribe-fixtures.js'), 'utf8')).toMatch(/require\("@playwright\/test"\)/);
    const esm = workspace({}, '{ "type": "module" }\n');
    expect(JSON.parse(readFileSync(path.join(MODULES(esm.dir), 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    expect(readFileSync(path.join(MODULES(esm.dir), 'scribe-fixtures.js'), 'utf8')).toMatch(/^import .* from '@playwright\/test';$/m);
  });

  it('a contained proof run under the user’s config: the proof fixtures and the overlay join them, the config file names only the user’s', () => {
    const userConfig = path.join(tmpdir(), 'someone', 'playwright.config.ts');
    const { dir, created, runSettings, files } = workspace({
      contained: { wsEndpoint: 'ws://127.0.0.1:9/abc', tsconfig: '/p/tsconfig.json' },
      proof: { texts: [SPEC], timings: { expectTimeoutMs: 1234, quietMs: 56, afterQuietMs: 789 } },
      userConfig: { file: userConfig, project: 'chromium' },
    });
    expect(files).toEqual(['node_modules', 'package.json', 'playwright.config.ts', 'scribe-run.json', 'spec', 'work']);
    expect(modulesOf(dir)).toEqual(['package.json', 'scribe-fixtures.js', 'scribe-overlay.js', 'scribe-page-elements.js', 'scribe-proof-fixtures.js', 'scribe-run.js']);
    expect(runSettings).toMatchObject({
      evidenceAttachment: created.evidenceAttachment,
      contained: true,
      proof: { expectTimeoutMs: 1234, quietMs: 56, afterQuietMs: 789 },
      overlay: { configDir: path.dirname(userConfig), project: 'chromium', specName: ['home.spec.ts', 'home.spec.ts.proof.ts'], connectOptions: { wsEndpoint: 'ws://127.0.0.1:9/abc' }, tsconfig: '/p/tsconfig.json' },
    });
    const config = readFileSync(created.configFile, 'utf8');
    expect(config).toContain(`import user from ${JSON.stringify(userConfig)};`);
    expect(config).toContain("import { overlayUserConfig } from './node_modules/scribe-run/scribe-overlay.js';");
    expect(config).not.toContain(created.evidenceAttachment);
    expect(readFileSync(created.proofFiles[0]!, 'utf8')).toContain("from '../node_modules/scribe-run/scribe-proof-fixtures.js'");
    for (const name of ['scribe-proof-fixtures', 'scribe-overlay']) expectCompiledFrom(path.join(MODULES(dir), `${name}.js`), `${name}.ts`);
  });
});

describe('runLoadsEsm', () => {
  it('says a run loads an ES module itself for an .mts/.mjs spec, a spec folder or config of "type": "module"; not for CommonJS ones', () => {
    const project = mkdtempSync(path.join(tmpdir(), 'scribe-run-esm-'));
    dirs.push(project);
    const cjs = path.join(project, 'cjs');
    const esm = path.join(project, 'esm');
    mkdirSync(cjs);
    mkdirSync(esm);
    writeFileSync(path.join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(path.join(esm, 'package.json'), '{ "type": "module" }\n');
    expect(runLoadsEsm({ fileName: 'home.spec.ts', sourceDir: cjs })).toBe(false);
    expect(runLoadsEsm({ fileName: 'home.spec.ts', sourceDir: cjs }, path.join(cjs, 'playwright.config.ts'))).toBe(false);
    expect(runLoadsEsm({ fileName: 'home.spec.mts', sourceDir: cjs })).toBe(true);
    expect(runLoadsEsm({ fileName: 'home.spec.mjs', sourceDir: cjs })).toBe(true);
    expect(runLoadsEsm({ fileName: 'home.spec.ts', sourceDir: esm })).toBe(true);
    expect(runLoadsEsm({ fileName: 'home.spec.ts', sourceDir: cjs }, path.join(cjs, 'playwright.config.mts'))).toBe(true);
    expect(runLoadsEsm({ fileName: 'home.spec.ts', sourceDir: cjs }, path.join(esm, 'playwright.config.ts'))).toBe(true);
  });
});
