/**
 * Whether a project's runs need Playwright's ESM loader, read from real folders: each way a file may load as
 * an ES module keeps the loader, wherever it sits; what no run loads (node_modules, hidden folders, reports)
 * does not; a project too large to read whole keeps it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectEsmLoading } from '../../src/project/esm-loading.ts';

let root: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'scribe-esm-loading-'));
  project = path.join(root, 'project');
  mkdirSync(project);
  // A CommonJS project as `npm init` leaves it, with a TypeScript config, spec and fixtures.
  write('package.json', '{ "name": "shop-tests", "type": "commonjs" }\n');
  write('playwright.config.ts', "import { defineConfig } from '@playwright/test';\nimport { base } from './e2e/urls';\nexport default defineConfig({ testDir: 'e2e', use: { baseURL: base } });\n");
  write('e2e/urls.ts', "export const base = 'http://127.0.0.1:3000';\n");
  write('e2e/fixtures.ts', "import { test as base } from '@playwright/test';\nexport const test = base.extend({});\n");
  write('e2e/home.spec.ts', "import { test } from './fixtures';\ntest('home', async ({ page }) => { await page.goto('/'); });\n");
  // Not a script: no run loads it.
  write('README.md', 'Load it lazily with `await import("./x")`.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, text: string): void {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('projectEsmLoading', () => {
  it('needs no loader for a CommonJS project of TypeScript specs, fixtures and config', () => {
    expect(projectEsmLoading([project, path.join(project, 'e2e')])).toEqual({ needed: false });
  });

  it('needs it for an .mjs or .mts module anywhere in the project', () => {
    write('e2e/support/data.mjs', 'export const users = [];\n');
    expect(projectEsmLoading([project])).toEqual({ needed: true, because: `${path.join(project, 'e2e/support/data.mjs')} is an ES module` });
    rmSync(path.join(project, 'e2e/support/data.mjs'));
    write('helpers.mts', 'export const x = 1;\n');
    expect(projectEsmLoading([project])).toMatchObject({ needed: true, because: expect.stringContaining('helpers.mts is an ES module') });
  });

  it('needs it for a package.json of "type": "module": the project\'s, a subfolder\'s, or one above the project', () => {
    write('e2e/pages/package.json', '{ "type": "module" }\n');
    expect(projectEsmLoading([project])).toMatchObject({ needed: true, because: expect.stringContaining(path.join('e2e', 'pages', 'package.json')) });
    rmSync(path.join(project, 'e2e/pages/package.json'));
    // Node takes a folder's module type from the nearest package.json: above the project when it has none.
    rmSync(path.join(project, 'package.json'));
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    expect(projectEsmLoading([project])).toEqual({ needed: true, because: `${path.join(root, 'package.json')} says "type": "module"` });
  });

  it('keeps the loader for a package.json it cannot read (in doubt)', () => {
    write('package.json', '{ "type": \n');
    expect(projectEsmLoading([project])).toEqual({ needed: true, because: `${path.join(project, 'package.json')} cannot be read` });
  });

  it('needs it for a dynamic import() in any script, however it is spaced', () => {
    write('e2e/pages/lazy.ts', "export async function admin() {\n  return (await import ('./admin')).AdminPage;\n}\n");
    expect(projectEsmLoading([project])).toEqual({ needed: true, because: `${path.join(project, 'e2e/pages/lazy.ts')} has a dynamic import()` });
  });

  it('does not take a name ending in "import" for an import(), nor a static import', () => {
    write('e2e/pages/data.ts', "import { x } from './x';\nexport const reimport = (f: () => void) => f();\nreimport(() => x);\n");
    expect(projectEsmLoading([project])).toEqual({ needed: false });
  });

  it('does not read what no run loads: node_modules, hidden folders, Playwright\'s reports', () => {
    write('node_modules/chalk/source/index.js', "export default {};\nawait import('x');\n");
    write('node_modules/chalk/package.json', '{ "type": "module" }\n');
    write('.scribe/tmp/run-1/package.json', '{ "type": "module" }\n');
    write('playwright-report/trace/assets/index.js', "import('./viewer.js');\n");
    write('test-results/shot.mjs', 'export {};\n');
    expect(projectEsmLoading([project])).toEqual({ needed: false });
  });

  it('reads a folder outside the project when its runs load from there (a testDir beside it)', () => {
    const suite = path.join(root, 'suite');
    mkdirSync(suite);
    writeFileSync(path.join(suite, 'flow.mjs'), 'export {};\n');
    expect(projectEsmLoading([project])).toEqual({ needed: false });
    expect(projectEsmLoading([project, suite])).toMatchObject({ needed: true, because: expect.stringContaining('flow.mjs') });
  });

  it('keeps the loader for a project larger than it reads, and for a linked file it does not follow', () => {
    expect(projectEsmLoading([project], { entries: 3, bytes: 1_000_000 })).toEqual({ needed: true, because: 'the project has more than 3 files to look through' });
    expect(projectEsmLoading([project], { entries: 1000, bytes: 10 })).toMatchObject({ needed: true, because: expect.stringContaining('more than 10 bytes') });
    symlinkSync(path.join(project, 'e2e', 'urls.ts'), path.join(project, 'e2e', 'linked.ts'));
    expect(projectEsmLoading([project])).toEqual({ needed: true, because: `${path.join(project, 'e2e', 'linked.ts')} is a link, not followed` });
  });
});
