/**
 * Whether the project's runs need Playwright's ESM loader: decided once per project, from its files, so a
 * run of a project that loads nothing as an ES module can do without the loader's thread (the Runner's
 * agents/runner/playwright-cjs-transform.cjs). Anything that could load as an ES module keeps the loader:
 * an .mjs or .mts file, a package.json of "type": "module" (in the project or above it), a dynamic
 * `import(` anywhere in a script (Node loads its target as an ES module), and a project too large to read
 * whole. node_modules is not read (Playwright transforms nothing there, with the loader or without it),
 * nor hidden folders (.scribe's run folders) and Playwright's default output folders.
 * A module outside the project folders loaded as an ES module without the loader fails loudly (Node's
 * "Unknown file extension" for TypeScript); it never passes in a way it would not with the loader.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { manifestType, nearestManifest } from '../util/module-type.ts';

export type EsmLoading = { needed: false } | { needed: true; because: string };

/** How much of a project is read before it is taken as needing the loader. */
export interface EsmScanLimits {
  entries: number;
  bytes: number;
}

// A test project is far below them; reading 8 MB of scripts takes about a tenth of a second.
export const ESM_SCAN_LIMITS: EsmScanLimits = { entries: 10_000, bytes: 8 * 1024 * 1024 };

const ESM_EXTENSIONS = ['.mjs', '.mts'];
/** Playwright's default output folders: reports, traces, results, whose viewer scripts no run loads. */
const OUTPUT_FOLDERS = ['test-results', 'playwright-report', 'blob-report'];
const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.cts', '.js', '.jsx', '.cjs'];
/** `import(`, also in comments and strings: a false hit only keeps the loader. */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/** The project's need of the ESM loader, from the folders its runs load files from (the project, the config's, testDir). */
export function projectEsmLoading(folders: readonly string[], limits: EsmScanLimits = ESM_SCAN_LIMITS): EsmLoading {
  const roots = outermost(folders.map((folder) => path.resolve(folder)));
  for (const root of roots) {
    const above = nearestManifest(root);
    if (above && above.type !== 'commonjs') return { needed: true, because: manifestReason(above.file, above.type) };
  }
  const budget = { ...limits };
  for (const root of roots) {
    const found = scanFolder(root, budget, limits);
    if (found) return { needed: true, because: found };
  }
  return { needed: false };
}

/** What in `root` may load as an ES module, or undefined: a depth-first walk within the budget. */
function scanFolder(root: string, budget: EsmScanLimits, limits: EsmScanLimits): string | undefined {
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (--budget.entries < 0) return `the project has more than ${limits.entries} files to look through`;
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || OUTPUT_FOLDERS.includes(entry.name)) continue;
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) pending.push(file);
      else if (entry.isSymbolicLink()) return `${file} is a link, not followed`;
      else if (entry.isFile()) {
        const found = esmFile(file, budget, limits);
        if (found) return found;
      }
    }
  }
  return undefined;
}

function esmFile(file: string, budget: EsmScanLimits, limits: EsmScanLimits): string | undefined {
  const extension = path.extname(file);
  if (ESM_EXTENSIONS.includes(extension)) return `${file} is an ES module`;
  if (path.basename(file) === 'package.json') {
    const type = manifestType(file);
    return type === 'commonjs' ? undefined : manifestReason(file, type);
  }
  if (!SCRIPT_EXTENSIONS.includes(extension)) return undefined;
  budget.bytes -= statSync(file).size;
  if (budget.bytes < 0) return `the project's scripts are more than ${limits.bytes} bytes to look through`;
  return DYNAMIC_IMPORT.test(readFileSync(file, 'utf8')) ? `${file} has a dynamic import()` : undefined;
}

/** Why a package.json keeps the loader: it says "type": "module", or it cannot be read (in doubt, the loader stays). */
function manifestReason(file: string, type: 'module' | 'unreadable'): string {
  return type === 'module' ? `${file} says "type": "module"` : `${file} cannot be read`;
}

/** The folders none of the others contains. */
function outermost(folders: readonly string[]): string[] {
  const unique = [...new Set(folders)];
  return unique.filter((folder) => !unique.some((other) => other !== folder && !path.relative(other, folder).startsWith('..') && !path.isAbsolute(path.relative(other, folder))));
}
