import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Playwright's own default testMatch: *.spec.* and *.test.* in JavaScript and TypeScript. */
const SPEC_FILE = /\.(spec|test)\.(c|m)?[jt]sx?$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'test-results', 'playwright-report', '.scribe']);

export class MissingPathError extends Error {}

/** Expands files and folders into the spec files they hold, sorted, each once. */
export function collectSpecFiles(inputs: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  for (const input of inputs) {
    const full = path.resolve(cwd, input);
    if (!existsSync(full)) throw new MissingPathError(`${input}: no such file or folder`);
    if (statSync(full).isDirectory()) walk(full, found);
    else found.add(full);
  }
  return [...found].sort();
}

function walk(dir: string, found: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name), found);
    } else if (SPEC_FILE.test(entry.name)) {
      found.add(path.join(dir, entry.name));
    }
  }
}
