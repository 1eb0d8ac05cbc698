import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Scribe's own agents/ folder, holding the embedded defaults. */
export const BUNDLED_AGENTS_DIR = fileURLToPath(new URL('../../agents/', import.meta.url));

/**
 * Where an agents/*.yaml file comes from: an explicit path, else the project's own agents/ folder
 * in the working directory, else the defaults Scribe ships with.
 */
export function agentsFile(name: string, cwd: string, explicit?: string): string {
  if (explicit) return path.resolve(cwd, explicit);
  const local = path.join(cwd, 'agents', name);
  return existsSync(local) ? local : path.join(BUNDLED_AGENTS_DIR, name);
}
