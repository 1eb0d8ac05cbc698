/**
 * The V8 code cache of a contained run's Playwright processes. They compile Playwright's 11 MB of modules
 * (runner and two workers, each its own) and may write nothing outside their working folder, so they read a
 * cache (contained-code-cache.cjs) that a trusted process made: code-cache-maker.cjs, started here once per
 * Playwright release, Node version and heap limit (V8 takes a cache only under the flags it was made with),
 * in the background after a run, which it does not slow. A stamp beside the cache says it was made; a claim
 * keeps two runs from starting two makers.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { cacheFolderFor } = require('../../util/code-cache.cjs') as { cacheFolderFor: (file: string) => string | undefined };

/** Preloaded into a contained run's Playwright processes: the cache, read only. */
export const CONTAINED_CODE_CACHE = fileURLToPath(new URL('./contained-code-cache.cjs', import.meta.url));
/** Preloaded into a trusted run's Playwright processes: the cache Scribe's own processes keep, written where missing. */
export const TRUSTED_CODE_CACHE = fileURLToPath(new URL('./trusted-code-cache.cjs', import.meta.url));
/** What the preloads require: the cache's own code, which a contained run must be able to read. */
export const CODE_CACHE_MODULE = fileURLToPath(new URL('../../util/code-cache.cjs', import.meta.url));
const MAKER = fileURLToPath(new URL('./code-cache-maker.cjs', import.meta.url));

/** A claim older than this is a maker that died: the next run may start another. */
const CLAIM_EXPIRES_MS = 60_000;

export interface RunCodeCacheStamp {
  /** Written by the maker once the cache is made. */
  stamp: string;
  /** Held while a maker runs. */
  claim: string;
}

/** Where the stamp of the cache for this Playwright (`packageDir`: @playwright/test's real folder) and heap limit is; undefined outside node_modules. */
export function runCodeCacheStamp(packageDir: string, heapMb: number): RunCodeCacheStamp | undefined {
  const folder = cacheFolderFor(packageDir);
  if (folder === undefined) return undefined;
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const stamp = path.join(folder, `contained-run-${version}-${process.version}-${process.arch}-heap${heapMb}.done`);
  return { stamp, claim: `${stamp}.making` };
}

/**
 * Starts the maker of the contained runs' code cache unless it was made or is being made; never fails and never
 * waits (a read-only installation simply runs without the cache). Its environment is Scribe's without
 * NODE_OPTIONS: a flag of the caller's there would change what V8 checks, and the run has none of them.
 */
export function makeRunCodeCache(packageDir: string, heapMb: number, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const where = runCodeCacheStamp(packageDir, heapMb);
    if (where === undefined || existsSync(where.stamp) || !claimed(where.claim)) return;
    const { NODE_OPTIONS: _callers, ...rest } = env;
    const maker = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, MAKER, packageDir, where.stamp, where.claim], { stdio: 'ignore', env: rest });
    maker.on('error', () => rmSync(where.claim, { force: true }));
    maker.unref();
  } catch {
    // No cache: the runs compile as they did.
  }
}

/** Takes the claim: made now, or left by a maker that has been gone too long to be running. */
function claimed(claim: string): boolean {
  mkdirSync(path.dirname(claim), { recursive: true });
  try {
    closeSync(openSync(claim, 'wx'));
    return true;
  } catch {
    if (Date.now() - statSync(claim).mtimeMs < CLAIM_EXPIRES_MS) return false;
    rmSync(claim, { force: true });
    closeSync(openSync(claim, 'wx'));
    return true;
  }
}
