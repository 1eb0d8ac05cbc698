/**
 * The Playwright config reader's child process: it yields the processor to the work that goes on beside
 * it, and compiles Playwright's bundles from V8's code cache (before Node 22, which keeps its own).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProjectPlaywright } from '../../src/project/playwright.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-playwright-read-'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A config that also writes down the priority of the process that evaluates it. */
function writeConfig(): string {
  const priorityFile = path.join(dir, 'priority.txt');
  writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';

writeFileSync(${JSON.stringify(priorityFile)}, String(getPriority()));
export default defineConfig({ testDir: './e2e', use: { testIdAttribute: 'data-qa' } });
`,
  );
  return priorityFile;
}

describe('the Playwright config reader', () => {
  it('reports the asked variables the config set or changed (its .env), not one it left as it was, nor one not asked for', async () => {
    writeFileSync(path.join(dir, '.env'), 'E2E_USERNAME=grace\nE2E_PASSWORD=from-the-file\nBASE_URL=http://127.0.0.1:4000\nDATABASE_URL=postgres://secret\n');
    writeFileSync(
      path.join(dir, 'playwright.config.ts'),
      `import dotenv from 'dotenv';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

dotenv.config({ path: path.resolve(__dirname, '.env') });
process.env.E2E_ROLE = 'admin';
export default defineConfig({ testDir: './e2e' });
`,
    );
    // BASE_URL is the caller's already: dotenv leaves it, so the tests see the caller's.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, BASE_URL: 'http://127.0.0.1:3000' };
    const read = await readProjectPlaywright(dir, env, {}, async () => ['E2E_USERNAME', 'E2E_PASSWORD', 'E2E_ROLE', 'BASE_URL', 'E2E_UNSET']);
    expect(read?.env).toEqual({ E2E_USERNAME: 'grace', E2E_PASSWORD: 'from-the-file', E2E_ROLE: 'admin' });
    // Asked for nothing, it reports nothing.
    expect((await readProjectPlaywright(dir, env))?.env).toEqual({});
  }, 60_000);

  it('runs at low priority, and reads the config all the same', async () => {
    const priorityFile = writeConfig();
    const read = await readProjectPlaywright(dir, process.env);
    expect(read?.project.use.testIdAttribute).toBe('data-qa');
    expect(Number(readFileSync(priorityFile, 'utf8'))).toBe(constants.priority.PRIORITY_LOW);
  }, 60_000);

  it.skipIf(typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function')(
    "compiles Playwright's bundles from a code cache beside them, and writes a damaged one anew",
    async () => {
      writeConfig();
      const cacheDir = path.join(repoRoot, 'node_modules', '.cache', 'scribe');
      // The reader's own cache: named without a heap limit (a contained run's processes keep theirs, named by theirs).
      const coreBundle = () => readdirSync(cacheDir).filter((name) => new RegExp(`^coreBundle-${process.version}-${process.arch}-[0-9a-f]+-\\d+\\.v8-cache$`).test(name));
      expect((await readProjectPlaywright(dir, process.env))?.project.use.testIdAttribute).toBe('data-qa');
      expect(coreBundle()).toHaveLength(1);
      const cacheFile = path.join(cacheDir, coreBundle()[0]!);
      expect(statSync(cacheFile).size).toBeGreaterThan(100_000);

      writeFileSync(cacheFile, 'not a code cache');
      expect((await readProjectPlaywright(dir, process.env))?.project.use.testIdAttribute).toBe('data-qa');
      expect(readFileSync(cacheFile, 'utf8').startsWith('not a code cache')).toBe(false);
      expect(statSync(cacheFile).size).toBeGreaterThan(100_000);
    },
    60_000,
  );
});
