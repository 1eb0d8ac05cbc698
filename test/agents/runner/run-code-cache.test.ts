/**
 * The code cache of a contained run's processes (src/agents/runner/run-code-cache.ts): its trusted maker,
 * started once per Playwright and heap limit, in real Node processes on a Playwright-shaped installation, and
 * V8 taking what it made under the very flags runPermissions gives a run's processes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPermissions } from '../../../src/agents/runner/permissions.ts';
import { CONTAINED_CODE_CACHE, makeRunCodeCache, runCodeCacheStamp, TRUSTED_CODE_CACHE } from '../../../src/agents/runner/run-code-cache.ts';
import { writeFiles } from '../../fixtures/files.ts';

const codeCache = fileURLToPath(new URL('../../../src/util/code-cache.cjs', import.meta.url));
let installation: string;
const testPackage = () => path.join(installation, 'node_modules', '@playwright', 'test');
const cacheFolder = () => path.join(installation, 'node_modules', '.cache', 'scribe');
const cached = () => (existsSync(cacheFolder()) ? readdirSync(cacheFolder()).filter((name) => name.endsWith('.v8-cache')) : []);

beforeEach(() => {
  installation = mkdtempSync(path.join(tmpdir(), 'scribe-run-code-cache-'));
  writeFiles(installation, {
    'node_modules/@playwright/test/package.json': '{ "name": "@playwright/test", "version": "1.99.0", "main": "index.js" }\n',
    'node_modules/@playwright/test/index.js': "module.exports = require('playwright/lib/index.js');\n",
    'node_modules/playwright/package.json': '{ "name": "playwright", "version": "1.99.0" }\n',
    'node_modules/playwright/lib/index.js': "exports.core = require('playwright-core/lib/coreBundle.js');\n",
    'node_modules/playwright/lib/program.js': 'exports.program = [1, 2].map((n) => n + 1);\n',
    'node_modules/playwright/lib/worker/workerProcessEntry.js': 'exports.entry = () => 1;\n',
    'node_modules/playwright/lib/common/index.js': 'exports.load = (file) => import(file);\n',
    'node_modules/playwright-core/package.json': '{ "name": "playwright-core", "version": "1.99.0" }\n',
    'node_modules/playwright-core/lib/coreBundle.js': 'exports.answer = [1, 2, 3].map((n) => n * 14).at(0);\n',
  });
});
afterEach(() => rmSync(installation, { recursive: true, force: true }));

/** Waits for the maker to be done: its stamp written, then its claim let go (its last act, after the stamp). */
async function makerDone(where: { stamp: string; claim: string }): Promise<void> {
  for (let waited = 0; !existsSync(where.stamp) || existsSync(where.claim); waited += 50) {
    if (waited > 20_000) throw new Error(`the maker did not finish: stamp ${existsSync(where.stamp) ? 'written' : 'missing'}, claim ${existsSync(where.claim) ? 'held' : 'let go'} (${where.stamp})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the contained runs' code cache maker", () => {
  it("caches the modules a run loads under the run's heap limit, stamps it, and lets the claim go", async () => {
    const where = runCodeCacheStamp(testPackage(), 640)!;
    expect(path.basename(where.stamp)).toBe(`contained-run-1.99.0-${process.version}-${process.arch}-heap640.done`);
    makeRunCodeCache(testPackage(), 640);
    await makerDone(where);
    expect(existsSync(where.claim)).toBe(false);
    // The entries and what they require; not the module that calls import(), which Node 20 cannot run from a cache.
    expect(cached().map((name) => name.split('-')[0]).sort()).toEqual(['coreBundle', 'index', 'program', 'workerProcessEntry']);
    expect(cached().every((name) => name.includes('-heap640-'))).toBe(true);
  });

  it('starts no maker where the stamp says the cache was made, or while a recent claim says one is making it', async () => {
    const where = runCodeCacheStamp(testPackage(), 640)!;
    mkdirSync(cacheFolder(), { recursive: true });
    writeFileSync(where.claim, '');
    makeRunCodeCache(testPackage(), 640);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(where.stamp)).toBe(false);
    expect(cached()).toEqual([]);

    rmSync(where.claim);
    writeFileSync(where.stamp, '');
    makeRunCodeCache(testPackage(), 640);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(where.claim)).toBe(false);
    expect(cached()).toEqual([]);
  });

  it('takes over a claim left by a maker that died', async () => {
    const where = runCodeCacheStamp(testPackage(), 640)!;
    mkdirSync(cacheFolder(), { recursive: true });
    writeFileSync(where.claim, '');
    const longAgo = new Date(Date.now() - 5 * 60_000);
    utimesSync(where.claim, longAgo, longAgo);
    makeRunCodeCache(testPackage(), 640);
    await makerDone(where);
    expect(cached().length).toBeGreaterThan(0);
  });

  it("is what V8 takes in a process with a contained run's flags (permission model, heap limit, the preloaded reader)", async () => {
    const where = runCodeCacheStamp(testPackage(), 640)!;
    makeRunCodeCache(testPackage(), 640);
    await makerDone(where);
    const bundle = path.join(installation, 'node_modules/playwright-core/lib/coreBundle.js');
    const cacheFile = path.join(cacheFolder(), cached().find((name) => name.startsWith('coreBundle-'))!);
    const flags = (heapMb: number) => runPermissions({ writable: [installation], readable: [installation, codeCache, CONTAINED_CODE_CACHE], heapMb, preloads: [CONTAINED_CODE_CACHE] }).workers;
    const check = `const vm = require('node:vm'), fs = require('node:fs'), m = require('node:module');
      const s = new vm.Script(m.wrap(fs.readFileSync(${JSON.stringify(bundle)}, 'utf8')), { filename: ${JSON.stringify(bundle)}, cachedData: fs.readFileSync(${JSON.stringify(cacheFile)}), importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
      console.log(s.cachedDataRejected ? 'refused' : 'taken', require(${JSON.stringify(testPackage())}).core.answer);`;
    const run = (heapMb: number) => execFileSync(process.execPath, ['-e', check], { encoding: 'utf8', env: { PATH: process.env.PATH, NODE_OPTIONS: flags(heapMb) } }).trim();
    expect(run(640)).toBe('taken 14');
    expect(run(700)).toBe('refused 14');
    // The reader wrote nothing, though a cache was refused.
    expect(cached().filter((name) => name.includes('-heap700-'))).toEqual([]);
  });

  it('stamps an installation it finds no Playwright in, caching nothing, so the next run does not try again', async () => {
    rmSync(path.join(installation, 'node_modules', 'playwright'), { recursive: true });
    const where = runCodeCacheStamp(testPackage(), 640)!;
    makeRunCodeCache(testPackage(), 640);
    await makerDone(where);
    expect(existsSync(where.claim)).toBe(false);
    expect(cached()).toEqual([]);
  });

  it('gives up quietly where the installation cannot hold a cache (no node_modules folder above it)', () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'scribe-run-code-cache-bare-'));
    try {
      writeFileSync(path.join(bare, 'package.json'), '{ "name": "@playwright/test", "version": "1.99.0" }\n');
      expect(runCodeCacheStamp(bare, 640)).toBeUndefined();
      expect(() => makeRunCodeCache(bare, 640)).not.toThrow();
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

// Where Node keeps a compile cache of its own (22+), a trusted run uses that one, as Scribe's own processes do.
describe.skipIf('enableCompileCache' in nodeModule)("a trusted run's processes (the user's own specs)", () => {
  it("compile Playwright's modules through the cache Scribe's own processes keep, and write it where missing", () => {
    const load = () =>
      execFileSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(testPackage())}).core.answer)`], { encoding: 'utf8', env: { PATH: process.env.PATH, NODE_OPTIONS: `--require ${TRUSTED_CODE_CACHE}` } }).trim();
    expect(load()).toBe('14');
    // Named as a process without a heap limit names them: the command's own bundles share them.
    expect(cached().map((name) => name.split('-')[0]).sort()).toEqual(['coreBundle', 'index']);
    expect(cached().some((name) => name.includes('-heap'))).toBe(false);
    expect(load()).toBe('14');
    expect(cached()).toHaveLength(2);
  });
});
