/**
 * Scribe's V8 code cache for Node before 22 (src/util/code-cache.cjs), as the CLI and the config reader set it
 * up (enableCodeCache) for Playwright's bundles: in real Node processes, a bundle required once leaves a cache
 * beside the packages, which the next process takes (it is not written again: only a missing or refused cache
 * is), and nothing else is cached.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeModule from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFiles } from '../fixtures/files.ts';

const codeCache = fileURLToPath(new URL('../../src/util/code-cache.cjs', import.meta.url));
let project: string;

beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'scribe-code-cache-'));
  writeFiles(project, {
    'node_modules/playwright-core/lib/coreBundle.js': 'exports.answer = [1, 2, 3].map((n) => n * 14).at(0);\n',
    'node_modules/playwright-core/lib/server.js': 'exports.answer = 42;\n',
  });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** A fresh Node process that sets the cache up as the CLI does, then requires `file`; prints what it exports. */
function load(file: string): string {
  const script = `const c = require(${JSON.stringify(codeCache)}); c.enableCodeCache(); console.log(require(${JSON.stringify(path.join(project, file))}).answer);`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

const cacheFolder = () => path.join(project, 'node_modules', '.cache', 'scribe');
const cached = () => readdirSync(cacheFolder()).filter((file) => file.endsWith('.v8-cache'));

// Where Node keeps a code cache of its own (22+), the CLI uses that one and this cache is not made.
describe.skipIf('enableCompileCache' in nodeModule)("Scribe's code cache", () => {
  it('caches a Playwright bundle beside its packages, and the next process runs it from that cache without writing it again', () => {
    expect(load('node_modules/playwright-core/lib/coreBundle.js')).toBe('14');
    expect(cached()).toEqual([expect.stringMatching(new RegExp(`^coreBundle-${process.version}-${process.arch}-[0-9a-f]+-\\d+\\.v8-cache$`))]);
    const written = statSync(path.join(cacheFolder(), cached()[0]!)).mtimeMs;
    expect(load('node_modules/playwright-core/lib/coreBundle.js')).toBe('14');
    expect(statSync(path.join(cacheFolder(), cached()[0]!)).mtimeMs).toBe(written);
  });

  it('caches nothing but the bundles: another file of the package compiles as Node compiles it', () => {
    expect(load('node_modules/playwright-core/lib/server.js')).toBe('42');
    expect(() => readdirSync(cacheFolder())).toThrow(/ENOENT/);
  });

  it('keeps a cache per content: a changed bundle runs as changed, from a cache of its own', () => {
    expect(load('node_modules/playwright-core/lib/coreBundle.js')).toBe('14');
    writeFileSync(path.join(project, 'node_modules/playwright-core/lib/coreBundle.js'), 'exports.answer = [1, 2, 3].map((n) => n * 15).at(0);\n');
    expect(load('node_modules/playwright-core/lib/coreBundle.js')).toBe('15');
    expect(cached()).toHaveLength(2);
  });
});

/**
 * A fresh Node process with `flags` that compiles Playwright's modules through the cache as a contained run's
 * processes (readOnly) or its trusted maker (not) do, then requires `file`; prints what it exports.
 */
function loadAs(file: string, { readOnly, flags = [] }: { readOnly: boolean; flags?: string[] }): string {
  const script = `const c = require(${JSON.stringify(codeCache)}); c.cacheCompiledFiles(c.isCacheablePlaywrightModule, { readOnly: ${readOnly} }); Promise.resolve(require(${JSON.stringify(path.join(project, file))}).answer).then((answer) => console.log(answer));`;
  return execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).trim();
}

/** Whether V8, in a fresh process with `flags`, takes `cacheFile` for `file`'s source (as compileWithCodeCache compiles it). */
function takenBy(flags: string[], file: string, cacheFile: string): boolean {
  const script = `const vm = require('node:vm'), fs = require('node:fs'), m = require('node:module');
    const s = new vm.Script(m.wrap(fs.readFileSync(${JSON.stringify(file)}, 'utf8')), { filename: ${JSON.stringify(file)}, cachedData: fs.readFileSync(${JSON.stringify(cacheFile)}), importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    console.log(s.cachedDataRejected ? 'refused' : 'taken');`;
  return execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).trim() === 'taken';
}

describe("the code cache of a contained run's processes", () => {
  const bundle = 'node_modules/playwright-core/lib/coreBundle.js';
  const heapCache = (mb: number) => cached().filter((name) => name.includes(`-heap${mb}-`));

  it('is named by the heap limit, which V8 checks: a cache made under one limit is taken under it and refused without it', () => {
    expect(loadAs(bundle, { readOnly: false, flags: ['--max-old-space-size=512'] })).toBe('14');
    expect(heapCache(512)).toEqual([expect.stringMatching(/^coreBundle-.*-heap512-[0-9a-f]+-\d+\.v8-cache$/)]);
    const made = path.join(cacheFolder(), heapCache(512)[0]!);
    expect(takenBy(['--max-old-space-size=512'], path.join(project, bundle), made)).toBe(true);
    expect(takenBy([], path.join(project, bundle), made)).toBe(false);
    // The same limit through NODE_OPTIONS, as a contained run sets it, names the same file.
    execFileSync(process.execPath, ['-e', `const c = require(${JSON.stringify(codeCache)}); c.cacheCompiledFiles(c.isCacheablePlaywrightModule); require(${JSON.stringify(path.join(project, bundle))});`], { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=512' } });
    expect(heapCache(512)).toHaveLength(1);
  });

  it('is only read by a process that may not write it: one without a cache compiles as Node does and writes nothing', () => {
    expect(loadAs(bundle, { readOnly: true, flags: ['--max-old-space-size=512'] })).toBe('14');
    expect(() => readdirSync(cacheFolder())).toThrow(/ENOENT/);
    expect(loadAs(bundle, { readOnly: false, flags: ['--max-old-space-size=512'] })).toBe('14');
    const made = path.join(cacheFolder(), heapCache(512)[0]!);
    const written = statSync(made).mtimeMs;
    expect(loadAs(bundle, { readOnly: true, flags: ['--max-old-space-size=512'] })).toBe('14');
    expect(statSync(made).mtimeMs).toBe(written);
  });

  it('runs a module from a cache V8 refuses (another limit, or bytes that are no cache) as Node would', () => {
    expect(loadAs(bundle, { readOnly: false, flags: ['--max-old-space-size=512'] })).toBe('14');
    const made = path.join(cacheFolder(), heapCache(512)[0]!);
    writeFileSync(made, 'not a code cache');
    expect(loadAs(bundle, { readOnly: true, flags: ['--max-old-space-size=512'] })).toBe('14');
  });

  it('leaves a module that calls import() to Node, whose import() would fail from a cache on Node 20; any Playwright module else is cached', () => {
    const loader = 'node_modules/playwright/lib/common/index.js';
    const imported = path.join(project, 'imported.mjs');
    writeFileSync(imported, 'export const answer = 7;\n');
    mkdirSync(path.dirname(path.join(project, loader)), { recursive: true });
    writeFileSync(path.join(project, loader), `exports.answer = eval(\`import(${JSON.stringify(imported)})\`).then((module) => module.answer);\n`);
    expect(loadAs(loader, { readOnly: false })).toBe('7');
    expect(loadAs(loader, { readOnly: false })).toBe('7');
    expect(loadAs('node_modules/playwright-core/lib/server.js', { readOnly: false })).toBe('42');
    expect(cached()).toEqual([expect.stringMatching(/^server-.*\.v8-cache$/)]);
  });
});
