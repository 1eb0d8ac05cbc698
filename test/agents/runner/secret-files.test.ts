/** The project files a contained run sees empty: its secrets by name, at the top of each folder it reads. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { secretFilesIn } from '../../../src/agents/runner/sandbox.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('masks .env and its variants, registry and host credentials, and nothing a run needs', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'scribe-secret-files-'));
  dirs.push(project);
  for (const name of ['.env', '.env.local', '.npmrc', '.netrc', '.pgpass', '.git-credentials', 'package.json', 'playwright.config.ts', '.envrc-notes.md', 'env.ts', '.environment']) writeFileSync(path.join(project, name), 'x');
  symlinkSync(path.join(project, '.env'), path.join(project, '.env.production'));
  // A folder by a secret's name is not a file to mask; one level down is another folder's business.
  mkdirSync(path.join(project, '.env.d'));
  mkdirSync(path.join(project, 'tests'));
  writeFileSync(path.join(project, 'tests', '.env'), 'x');
  const masked = secretFilesIn([project, path.join(project, 'missing')]).map((file) => path.relative(project, file)).sort();
  expect(masked).toEqual(['.env', '.env.local', '.env.production', '.git-credentials', '.netrc', '.npmrc', '.pgpass']);
  expect(secretFilesIn([project, path.join(project, 'tests')]).map((file) => path.relative(project, file))).toContain(path.join('tests', '.env'));
});
