/** The project files a contained run sees empty: its secrets by name, in each folder it reads and a few folders below. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { hiddenFolders, secretFilesIn } from '../../../src/agents/runner/sandbox.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('masks .env and its variants, registry and host credentials, and nothing a run needs', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'scribe-secret-files-'));
  dirs.push(project);
  for (const name of ['.env', '.env.local', '.npmrc', '.netrc', '.pgpass', '.git-credentials', 'package.json', 'playwright.config.ts', '.envrc-notes.md', 'env.ts', '.environment']) writeFileSync(path.join(project, name), 'x');
  symlinkSync(path.join(project, '.env'), path.join(project, '.env.production'));
  // A folder by a secret's name is not a file to mask.
  mkdirSync(path.join(project, '.env.d'));
  // Below the top, a few folders deep, but not in installed packages, a repository's data or Scribe's home.
  for (const file of ['tests/.env', 'config/env/prod/.env.local', 'a/b/c/d/.env', 'node_modules/pkg/.env', '.git/.env', '.scribe/tmp/.env']) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), 'x');
  }
  const masked = secretFilesIn([project, path.join(project, 'missing')]).map((file) => path.relative(project, file)).sort();
  expect(masked).toEqual(['.env', '.env.local', '.env.production', '.git-credentials', '.netrc', '.npmrc', '.pgpass', 'config/env/prod/.env.local', 'tests/.env'].map((file) => file.split('/').join(path.sep)));
  // A folder read besides the project is looked into as deep again.
  expect(secretFilesIn([path.join(project, 'a')]).map((file) => path.relative(project, file))).toEqual([path.join('a', 'b', 'c', 'd', '.env')]);
});

it('reads the project\'s own folders before those of a folder of thousands (a folder per test in test-results), so those cannot use up the folders it reads', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'scribe-secret-files-wide-'));
  dirs.push(project);
  mkdirSync(path.join(project, 'test-results'));
  for (let n = 0; n < 2_100; n++) mkdirSync(path.join(project, 'test-results', `checkout-${n}-chromium`));
  // A monorepo's packages: wide too, but narrower than test-results, so they are read first of the two.
  mkdirSync(path.join(project, 'packages'));
  for (let n = 0; n < 300; n++) mkdirSync(path.join(project, 'packages', `package-${n}`));
  for (const file of ['apps/web/config/.env', 'packages/package-7/.env']) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), 'x');
  }
  expect(secretFilesIn([project]).map((file) => path.relative(project, file)).sort()).toEqual(['apps/web/config/.env', 'packages/package-7/.env'].map((file) => file.split('/').join(path.sep)));
});

it("hides Scribe's home and a .git inside a folder the run reads, but not one that holds another folder it reads", () => {
  const project = '/work/app';
  const home = '/work/app/.scribe';
  const runDir = '/work/app/.scribe/tmp/run-1';
  expect(hiddenFolders([home, '/work/app/.git'], [runDir, project, '/usr'], runDir)).toEqual([home, '/work/app/.git']);
  // Nothing to hide outside what the run reads.
  expect(hiddenFolders(['/elsewhere/.scribe'], [runDir, project], runDir)).toEqual([]);
  // A spec kept for review under the home, run from there: its folder stays readable.
  expect(hiddenFolders([home], [runDir, project, '/work/app/.scribe/review'], runDir)).toEqual([]);
  // A home that holds the project itself is no folder inside it.
  expect(hiddenFolders(['/work'], [runDir, project], runDir)).toEqual([]);
});
