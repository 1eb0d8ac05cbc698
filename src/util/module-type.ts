/**
 * Node's rule for the module type of a .js file (and Playwright's for a .ts one): the "type" of the nearest
 * package.json at or above its folder. A manifest that cannot be read is `unreadable`: what that means is the
 * caller's to decide (a run takes it for CommonJS, as Node would fail to load it anyway; the ESM loader's check
 * keeps the loader, in doubt).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export type ManifestType = 'module' | 'commonjs' | 'unreadable';

export interface NearestManifest {
  file: string;
  type: ManifestType;
}

export function nearestManifest(folder: string): NearestManifest | undefined {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const file = path.join(current, 'package.json');
    if (isFile(file)) return { file, type: manifestType(file) };
    if (path.dirname(current) === current) return undefined;
  }
}

export function manifestType(file: string): ManifestType {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
  } catch {
    return 'unreadable';
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
