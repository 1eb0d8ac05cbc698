// What a V8 code cache would save each process of a run that loads Playwright's runner (contained-cli,
// each test worker): the CPU seconds of requiring @playwright/test and playwright/lib/program in a fresh
// Node process, compiling every node_modules file as Node does, and from a code cache made beforehand by a
// process that loaded the same files (vm.Script cachedData, as v8-compile-cache does on Node 20, which has
// no module.enableCompileCache). V8 takes a cache only from a process with the same V8 flags: the last line
// loads with the contained run's heap flag from a cache made without it. Nothing here is what Scribe runs.
//
//   node bench/code-cache.mjs [runs=5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage, median, runsArgument } from './load.mjs';

const runs = runsArgument(5);
const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = mkdtempSync(path.join(tmpdir(), 'scribe-code-cache-'));

/** The child: loads the runner (mode none: as Node does; make: then writes each file's cache; use: from the cache) and prints its CPU seconds and rejected caches. */
const CHILD = `
const Module = require('node:module'), vm = require('node:vm'), fs = require('node:fs'), path = require('node:path'), crypto = require('node:crypto');
const [mode, dir, root] = process.argv.slice(1);
const scripts = [];
let rejected = 0;
if (mode !== 'none') {
  Module.prototype._compile = function (content, filename) {
    const file = path.join(dir, crypto.createHash('sha1').update(filename).digest('hex'));
    const script = new vm.Script(Module.wrap(content), { filename, cachedData: mode === 'use' && fs.existsSync(file) ? fs.readFileSync(file) : undefined });
    if (script.cachedDataRejected) rejected++;
    scripts.push([file, script]);
    const require = (id) => this.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    require.cache = Module._cache;
    return script.runInThisContext().call(this.exports, this.exports, require, this, filename, path.dirname(filename));
  };
}
const before = process.cpuUsage();
require(path.join(root, 'node_modules/@playwright/test'));
require(path.join(root, 'node_modules/playwright/lib/program'));
const used = process.cpuUsage(before);
if (mode === 'make') for (const [file, script] of scripts) fs.writeFileSync(file, script.createCachedData());
console.log(JSON.stringify({ cpu: (used.user + used.system) / 1e6, rejected }));
`;

const load = (mode, flags = []) => JSON.parse(execFileSync(process.execPath, [...flags, '-e', CHILD, mode, cacheDir, root], { encoding: 'utf8' }));

try {
  console.log(`load average at start ${loadAverage()}`);
  load('make');
  const none = [];
  const used = [];
  for (let i = 0; i < runs; i++) {
    none.push(load('none').cpu);
    used.push(load('use').cpu);
  }
  const otherFlags = load('use', ['--max-old-space-size=2048']);
  console.log(`loading Playwright's runner in a fresh process, ${runs} runs each, alternating (medians):`);
  console.log(`  compiled as Node does:   ${median(none).toFixed(3)} CPU s`);
  console.log(`  from a V8 code cache:    ${median(used).toFixed(3)} CPU s`);
  console.log(`  from that cache with --max-old-space-size=2048: ${otherFlags.cpu.toFixed(3)} CPU s, ${otherFlags.rejected} files' caches rejected`);
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
