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

/** Scribe's folder in a project, for its statistics, jobs and caches: $SCRIBE_HOME, else <cwd>/.scribe. */
export function statsHome(env: NodeJS.ProcessEnv, cwd: string): string {
  const home = env.SCRIBE_HOME?.trim();
  return home ? path.resolve(cwd, home) : path.join(cwd, '.scribe');
}

function packageRootFrom(dir: string): string {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (path.dirname(current) === current) throw new Error(`no package.json above ${dir}`);
  }
}
