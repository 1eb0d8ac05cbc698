/**
 * The variables a project's setup projects read (setup-variables.ts), from real files matched by Playwright's own
 * matcher: through helpers they import, through a chain of dependencies; not the spec's own project's files, not
 * a package's, not a file outside the project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlaywrightProjectEntry } from '../../src/project/playwright.ts';
import { setupProjects, setupProjectVariables } from '../../src/project/setup-variables.ts';
import { writeFiles } from '../fixtures/files.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'scribe-setup-variables-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function entry(name: string, testMatch: PlaywrightProjectEntry['testMatch'], dependencies: string[] = [], testDir = path.join(root, 'e2e')): PlaywrightProjectEntry {
  return { name, testDir, testMatch, testIgnore: [], dependencies, runsSample: true, use: {} };
}

const SETUP_MATCH = [{ regex: '.*\\.setup\\.ts', flags: '' }];
const ANY_SPEC = [{ glob: '**/*.@(spec|test).?(c|m)[jt]s?(x)' }];

function config(projects: PlaywrightProjectEntry[]) {
  return { projects, configFile: path.join(root, 'playwright.config.ts'), configDir: root };
}

describe('setupProjectVariables', () => {
  it("reads the setup project's files and the project files they import, in every form a read takes; not the run's own settings", () => {
    writeFiles(root, {
      'e2e/auth.setup.ts': "import { account } from './support/account';\nimport { api } from '../shared/api.js';\nconst region = process.env.QA_REGION;\nconst debug = [process.env.NODE_OPTIONS, process.env.HOME, process.env.PLAYWRIGHT_BROWSERS_PATH];\n",
      'e2e/support/account.ts': "export const account = () => ({ user: process.env['QA_USER'] });\nconst { QA_TOKEN: token } = process.env;\n",
      'shared/api.ts': 'export const api = process.env.API_ORIGIN;\n',
      'e2e/cart.spec.ts': 'const only = process.env.SPEC_ONLY;\n',
      'e2e/node_modules/pkg/x.setup.ts': 'process.env.IN_A_PACKAGE;\n',
    });
    const projects = [entry('setup', SETUP_MATCH), entry('shop', ANY_SPEC, ['setup'])];
    expect(setupProjectVariables(config(projects), projects[1]!)).toEqual(['API_ORIGIN', 'QA_REGION', 'QA_TOKEN', 'QA_USER']);
  });

  it('follows dependencies through other projects, and nothing without any', () => {
    writeFiles(root, {
      'e2e/db.seed.ts': 'process.env.DB_URL;\n',
      'e2e/auth.setup.ts': 'process.env.QA_USER;\n',
      'e2e/a.spec.ts': 'process.env.SPEC_ONLY;\n',
    });
    const seed = entry('seed', [{ regex: '.*\\.seed\\.ts', flags: '' }]);
    const setup = entry('setup', SETUP_MATCH, ['seed']);
    const shop = entry('shop', ANY_SPEC, ['setup']);
    expect(setupProjects([shop, setup, seed], shop).map((p) => p.name)).toEqual(['seed', 'setup']);
    expect(setupProjectVariables(config([shop, setup, seed]), shop)).toEqual(['DB_URL', 'QA_USER']);
    expect(setupProjectVariables(config([shop, setup, seed]), seed)).toEqual([]);
  });

  it('reads no file outside the project, and survives a dependency cycle and a missing project', () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'scribe-outside-'));
    try {
      writeFiles(outside, { 'secrets.ts': 'process.env.OUTSIDE;\n' });
      writeFiles(root, { 'e2e/auth.setup.ts': `import '${path.relative(path.join(root, 'e2e'), path.join(outside, 'secrets'))}';\nprocess.env.QA_USER;\n` });
      const setup = entry('setup', SETUP_MATCH, ['shop', 'gone']);
      const shop = entry('shop', ANY_SPEC, ['setup']);
      expect(setupProjectVariables(config([setup, shop]), shop)).toEqual(['QA_USER']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
