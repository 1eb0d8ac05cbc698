/**
 * V8's code cache spares every start compiling TypeScript's compiler anew: built into Node 22, from
 * v8-compile-cache on Node 20. That package compiles every required file as CommonJS, so an ES module
 * loaded with require() (the native type checker's API) goes to Node's own compiler instead.
 */
const Module = require('node:module');

if (Module.enableCompileCache) {
  Module.enableCompileCache();
} else {
  const nodeCompile = Module.prototype._compile;
  require('v8-compile-cache');
  const cachedCompile = Module.prototype._compile;
  Module.prototype._compile = function compile(content, filename, format) {
    return format === 'module' ? nodeCompile.call(this, content, filename, format) : cachedCompile.call(this, content, filename);
  };
}
