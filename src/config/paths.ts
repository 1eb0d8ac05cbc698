import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Scribe's own folder (the one holding its package.json): the sources' parent in development, the
 * installed package's folder when running from its build (dist/src/…).
 */
export const PACKAGE_ROOT = packageRootFrom(path.dirname(fileURLToPath(import.meta.url)));

/** Scribe's own agents/ folder, holding the embedded defaults. */
export const BUNDLED_AGENTS_DIR = path.join(PACKAGE_ROOT, 'agents');

function packageRootFrom(dir: string): string {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (path.dirname(current) === current) throw new Error(`no package.json above ${dir}`);
  }
}
