// V8's code cache for large CommonJS files, where Node keeps none of its own (before 22): compiling
// TypeScript's 9 MB compiler, or Playwright's two 3 MB bundles in the config reader, is a large part of a
// quick command. One cache file per source (CRC and size of its bytes) and Node version, in the
// .cache/scribe folder of the node_modules that holds the source; written at exit, when it holds the
// functions the run compiled, and only when there was none or V8 refused it.
//
// CommonJS, so that both the ES modules and the config reader's plain-Node child process can load it.
'use strict';
const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const nodeModule = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { threadId } = require('node:worker_threads');
const { crc32 } = require('node:zlib');

/**
 * Runs a CommonJS file as require would, compiled from the code cache, and registers it in require's
 * cache, so a later require of it (ts-morph's of the compiler) gets this copy.
 */
function loadWithCodeCache(file) {
  const module = new nodeModule.Module(file);
  module.filename = file;
  module.paths = nodeModule._nodeModulePaths(path.dirname(file));
  require.cache[file] = module;
  // The checksum of the bytes: a string's is a few times slower (it is encoded first).
  const bytes = readFileSync(file);
  compileWithCodeCache(module, bytes.toString('utf8'), file, `${crc32(bytes).toString(16)}-${bytes.length}`);
  module.loaded = true;
  return module.exports;
}

/**
 * Makes every later require of a file that `shouldCache` accepts compile from the code cache (a process
 * that loads a package it does not call directly: the config reader and Playwright's bundles).
 */
function cacheCompiledFiles(shouldCache) {
  const compile = nodeModule.prototype._compile;
  nodeModule.prototype._compile = function compileCached(content, filename, ...rest) {
    return shouldCache(filename) ? compileWithCodeCache(this, content, filename, `${crc32(content).toString(16)}-${content.length}`) : compile.call(this, content, filename, ...rest);
  };
}

/** Playwright's bundles (playwright-core's and playwright's lib/*Bundle.js): 7 MB every process that loads Playwright compiles. */
function isPlaywrightBundle(file) {
  return /[\\/]playwright(-core)?[\\/]lib[\\/]\w+Bundle\.js$/.test(file);
}

/**
 * The code cache for a process that loads Playwright: Node's own for every module where it has one (22+),
 * else Scribe's for Playwright's bundles (TypeScript's compiler is loaded through loadWithCodeCache).
 */
function enableCodeCache() {
  if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
  else cacheCompiledFiles(isPlaywrightBundle);
}

/** `checksum` names the source's content: V8 checks its own version and flags against a cache, not the source. */
function compileWithCodeCache(module, source, file, checksum) {
  const cacheFile = codeCacheFile(file, checksum);
  const cached = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData: cached });
  const result = script.runInThisContext().call(module.exports, module.exports, nodeModule.createRequire(file), module, file, path.dirname(file));
  if (cacheFile !== undefined && (cached === undefined || script.cachedDataRejected)) process.once('exit', () => writeQuietly(cacheFile, script.createCachedData()));
  return result;
}

/** One cache file per source content and Node version; none for a file outside node_modules. */
function codeCacheFile(file, checksum) {
  const folder = cacheFolderFor(file);
  return folder === undefined ? undefined : path.join(folder, `${path.basename(file, '.js')}-${process.version}-${process.arch}-${checksum}.v8-cache`);
}

/** Where Scribe keeps its caches for a file of an installed package: the .cache/scribe folder of that node_modules. */
function cacheFolderFor(file) {
  const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  return at < 0 ? undefined : path.join(file.slice(0, at), 'node_modules', '.cache', 'scribe');
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

module.exports = { cacheCompiledFiles, cacheFolderFor, enableCodeCache, loadWithCodeCache };
