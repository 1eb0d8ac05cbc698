import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Playwright's own default testMatch: *.spec.* and *.test.* in JavaScript and TypeScript. */
const SPEC_FILE = /\.(spec|test)\.(c|m)?[jt]sx?$/;
/** Files a Playwright config's testMatch may name (its setup files too); declaration files are never tests. */
const SCRIPT_FILE = /(?<!\.d)\.(c|m)?[jt]sx?$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'test-results', 'playwright-report', '.scribe']);

export class MissingPathError extends Error {}

/**
 * Expands files and folders into the spec files they hold, sorted, each once. In a folder, `isTest` decides
 * (the Playwright config's testDir, testMatch and testIgnore, as `npx playwright test` selects); without
 * one, Playwright's default pattern. A file named is taken as it is.
 */
export function collectSpecFiles(inputs: readonly string[], cwd: string, isTest?: (file: string) => boolean): string[] {
  const found = new Set<string>();
  for (const input of inputs) {
    const full = path.resolve(cwd, input);
    if (!existsSync(full)) throw new MissingPathError(`${input}: no such file or folder`);
    if (statSync(full).isDirectory()) walk(full, found, isTest ?? ((file) => SPEC_FILE.test(path.basename(file))));
    else found.add(full);
  }
  return [...found].sort();
}

/** Whether any folder was named (only then does the Playwright config decide which files are specs). */
export function namesAFolder(inputs: readonly string[], cwd: string): boolean {
  return inputs.some((input) => {
    const full = path.resolve(cwd, input);
    return existsSync(full) && statSync(full).isDirectory();
  });
}

function walk(dir: string, found: Set<string>, isTest: (file: string) => boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(full, found, isTest);
    } else if (SCRIPT_FILE.test(entry.name) && isTest(full)) {
      found.add(full);
    }
  }
}
