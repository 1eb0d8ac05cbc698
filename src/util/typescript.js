// TypeScript's compiler API: the copy ts-morph ships, so its types are ts-morph's `ts` (typescript.d.ts).
//
// Loaded with require rather than by importing ts-morph: an ES import of a CommonJS package makes Node scan
// its source for export names, and Scribe uses nothing of ts-morph but `ts`. Where Node has no compile cache
// of its own (before 22), V8's code cache is kept beside the package: compiling the 9 MB compiler anew is
// about a tenth of a `scribe validate` run.
//
// Plain JavaScript with a declaration file, since a TypeScript module cannot export a value that is also
// the compiler's namespace of types.
import { readFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { threadId } from 'node:worker_threads';
import { crc32 } from 'node:zlib';

const require = createRequire(import.meta.url);
const compilerFile = require.resolve('@ts-morph/common/dist/typescript.js');

export const ts = nodeModule.enableCompileCache || require.cache[compilerFile] ? require(compilerFile) : loadWithCodeCache(compilerFile);

/**
 * Runs a CommonJS module as require would, compiled from V8's code cache when one matches its source, and
 * registers it, so ts-morph's own require of it gets this copy. The cache is written at exit, when it
 * holds the functions this run compiled, and only when there was none or V8 refused it.
 */
function loadWithCodeCache(file) {
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const cacheFile = codeCacheFile(file, bytes);
  const cached = readIfPresent(cacheFile);
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData: cached });
  const module = new nodeModule.Module(file);
  module.filename = file;
  module.paths = nodeModule._nodeModulePaths(path.dirname(file));
  require.cache[file] = module;
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  if (cached === undefined || script.cachedDataRejected) process.once('exit', () => writeQuietly(cacheFile, script.createCachedData()));
  return module.exports;
}

/** One cache file per compiler source and Node version: V8 checks its version and flags, not the source's content. */
function codeCacheFile(file, bytes) {
  const nodeModules = file.slice(0, file.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
  const key = `${process.version}-${process.arch}-${crc32(bytes).toString(16)}-${bytes.length}`;
  return path.join(nodeModules, '.cache', 'scribe', `typescript-${key}.v8-cache`);
}

function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Atomically, and never failing the run: a read-only install simply has no cache. */
function writeQuietly(file, data) {
  // Threads of one process (the server's job workers) may write at once: the name is theirs alone.
  const temporary = `${file}.tmp-${process.pid}-${threadId}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
