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

const codeCache = fileURLToPath(new URL('../../src/util/code-cache.cjs', import.meta.url));
let project: string;

beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'scribe-code-cache-'));
  const files: Array<[string, string]> = [
    ['node_modules/playwright-core/lib/coreBundle.js', 'exports.answer = [1, 2, 3].map((n) => n * 14).at(0);\n'],
    ['node_modules/playwright-core/lib/server.js', 'exports.answer = 42;\n'],
  ];
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), text);
  }
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
