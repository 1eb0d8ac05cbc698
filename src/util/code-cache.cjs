// V8's code cache for large CommonJS files, where Node keeps none of its own (before 22): compiling
// TypeScript's 9 MB compiler, or Playwright's two 3 MB bundles in the config reader, is a large part of a
// quick command. One cache file per source (CRC and size of its bytes), Node version and heap limit, in the
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
 * V8 refuses a cache made under other flags than its own. Of the flags Scribe's processes differ in, the heap
 * limit is the one V8 counts (a contained run's processes have one, Scribe's own do not), so it names the file:
 * two kinds of process then keep a cache each rather than refusing and rewriting each other's.
 */
function heapLimitTag() {
  const flags = [process.env.NODE_OPTIONS ?? '', ...process.execArgv].join(' ');
  const limits = [...flags.matchAll(/--max[-_]old[-_]space[-_]size[= ](\d+)/g)];
  return limits.length > 0 ? `-heap${limits.at(-1)[1]}` : '';
}

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
  const { write } = compileWithCodeCache(module, bytes.toString('utf8'), file, codeCacheOf(file, checksumOf(bytes), heapLimitTag()));
  if (write) process.once('exit', write);
  module.loaded = true;
  return module.exports;
}

/**
 * Makes every later require of a file that `shouldCache(file, source)` accepts compile from the code cache (a process
 * that loads a package it does not call directly: the config reader and Playwright's bundles).
 * `readOnly`: a process that may not write the cache (a contained run's) takes a cache where there is one and
 * compiles as Node does where there is none.
 */
function cacheCompiledFiles(shouldCache, { readOnly = false } = {}) {
  const compile = nodeModule.prototype._compile;
  const heapTag = heapLimitTag();
  const toWrite = atExit();
  nodeModule.prototype._compile = function compileCached(content, filename, ...rest) {
    if (!shouldCache(filename, content)) return compile.call(this, content, filename, ...rest);
    const cache = codeCacheOf(filename, checksumOf(content), heapTag);
    if (readOnly && cache.cached === undefined) return compile.call(this, content, filename, ...rest);
    const { result, write } = compileWithCodeCache(this, content, filename, cache);
    if (write && !readOnly) toWrite(write);
    return result;
  };
}

/** One exit listener for all of a process's cache writes, however many files it compiles. */
function atExit() {
  const writes = [];
  return (write) => {
    if (writes.length === 0) process.once('exit', () => writes.forEach((each) => each()));
    writes.push(write);
  };
}

/**
 * Playwright's bundles (the *Bundle.js files of playwright-core's and playwright's lib folders): 7 MB every
 * process that loads Playwright compiles, and Babel's 3 MB (lib/transform/babelBundle.js) where it transforms TypeScript.
 */
function isPlaywrightBundle(file) {
  return /[\\/]playwright(-core)?[\\/]lib[\\/](\w+[\\/])*\w+Bundle\.js$/.test(file);
}

/**
 * A module of Playwright's two packages that may compile from a cache: what a contained run's processes do
 * (contained-code-cache.cjs). Node 20 loses a script's import() referrer when V8 takes its code from a cache
 * (the import then fails: "A dynamic import callback was not specified"), so a module that calls import() —
 * the loader of ES module configs and specs, the matchers — compiles as Node compiles it. The bundles are
 * cached whatever they hold, as in Scribe's own processes: their import() calls are not reached in a run
 * (Babel's config files, which Playwright's transform turns off; an optional proxy package; a fallback for a
 * Node without a global crypto; code of `new Function`, which has no referrer to lose).
 */
function isCacheablePlaywrightModule(file, source) {
  return /[\\/]node_modules[\\/]playwright(-core)?[\\/].*\.js$/.test(file) && (isPlaywrightBundle(file) || !source.includes('import('));
}

/**
 * The code cache for a process that loads Playwright: Node's own for every module where it has one (22+),
 * else Scribe's for the files `shouldCache` names: Playwright's bundles in Scribe's own processes (TypeScript's
 * compiler is loaded through loadWithCodeCache), its modules in a trusted run's.
 */
function enableCodeCache(shouldCache = isPlaywrightBundle) {
  if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
  else cacheCompiledFiles(shouldCache);
}

/**
 * Compiles and runs a module as Node's loader would, from the cache where V8 takes it (V8 checks its own
 * version and flags against a cache, not the source: the cache file's name holds the source's checksum). A
 * dynamic import() in the module goes to the main context's loader, as close as vm comes to Node's own compile
 * (Playwright's take absolute paths: its ES module loader and matchers). `write`, where there was no cache or
 * V8 refused it, writes one from what the process has compiled by the time it is called (at exit).
 */
function compileWithCodeCache(module, source, file, { cacheFile, cached }) {
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData: cached, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const result = script.runInThisContext().call(module.exports, module.exports, nodeModule.createRequire(file), module, file, path.dirname(file));
  const stale = cacheFile !== undefined && (cached === undefined || script.cachedDataRejected);
  return { result, write: stale ? () => writeQuietly(cacheFile, script.createCachedData()) : undefined };
}

/** A source's content, as cache files are named by it: its CRC and length. */
function checksumOf(source) {
  return `${crc32(source).toString(16)}-${source.length}`;
}

/** The cache file of a source (none for a file outside node_modules) and what it holds, if anything. */
function codeCacheOf(file, checksum, heapTag) {
  const folder = cacheFolderFor(file);
  if (folder === undefined) return { cacheFile: undefined, cached: undefined };
  const cacheFile = path.join(folder, `${path.basename(file, '.js')}-${process.version}-${process.arch}${heapTag}-${checksum}.v8-cache`);
  return { cacheFile, cached: readIfPresent(cacheFile) };
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
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was written there either (a read-only file system, an archive's)
    }
  }
}

module.exports = { cacheCompiledFiles, cacheFolderFor, enableCodeCache, isCacheablePlaywrightModule, loadWithCodeCache };
