// Preloaded (`--require` in NODE_OPTIONS) into each Playwright process of a run whose project loads nothing
// as an ES module (project/esm-loading.ts): Playwright's own TypeScript transform, as CommonJS require
// hooks, without its ESM loader. On a Node without module.registerHooks (Node 20), Playwright registers
// that loader with module.register, which starts a loader thread in every runner and worker process:
// 0.3–0.5 CPU s each, idle in a CommonJS project. PW_DISABLE_TS_ESM skips it, but Playwright then installs
// no transform at all (it installs its require hooks only beside the loader), so the hooks are installed
// here, from the transform Playwright exports, as it installs them (installCJSHooks in its transform.ts).
// Only for the Playwright versions read to do so (1.61–1.65: 1.60 and older install their require hooks
// whatever the loader, and later ones are not read yet); with any other, nothing changes: the loader stays.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

/** The Playwright versions whose transform installs its require hooks only beside the ESM loader: [major, minor]. */
const CHECKED_VERSIONS = { from: [1, 61], through: [1, 65] };
/** The files Playwright transforms, and the style files a spec may import that load as nothing. */
const TRANSFORMED = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.mts', '.cjs', '.cts'];
const STYLES = ['.css', '.less', '.scss'];

/** Playwright's transform, from the run folder's link to the Playwright whose CLI runs (workspace.ts). */
function playwrightTransform() {
  try {
    const link = path.join(process.env.SCRIBE_RUN_FOLDER ?? '', 'node_modules', '@playwright', 'test');
    const commonFile = require.resolve('playwright/lib/common', { paths: [fs.realpathSync(link)] });
    const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(commonFile), '..', '..', 'package.json'), 'utf8'));
    if (!checkedVersion(version)) return undefined;
    const { transform } = require(commonFile);
    const used = ['transformHook', 'resolveHook', 'shouldTransform'];
    return transform && used.every((name) => typeof transform[name] === 'function') ? transform : undefined;
  } catch {
    return undefined;
  }
}

function checkedVersion(version) {
  const [major, minor] = String(version).split('.').map(Number);
  const at = (bound) => major * 1000 + minor - (bound[0] * 1000 + bound[1]);
  return at(CHECKED_VERSIONS.from) >= 0 && at(CHECKED_VERSIONS.through) <= 0;
}

function installRequireHooks(transform) {
  const loaders = Module._extensions;
  const jsLoader = loaders['.js'];
  // Node loads .cjs with its own loader, which Playwright leaves alone too.
  for (const extension of TRANSFORMED.filter((e) => e !== '.cjs')) {
    const original = loaders[extension] || jsLoader;
    loaders[extension] = function load(module, filename, ...rest) {
      if (TRANSFORMED.includes(path.extname(filename)) && transform.shouldTransform(filename)) {
        const compile = module._compile;
        module._compile = function transformed(code, file) {
          module._compile = compile;
          return compile.call(this, transform.transformHook(code, filename).code, file);
        };
      }
      original.call(this, module, filename, ...rest);
    };
  }
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolve(specifier, parent, ...rest) {
    const resolved = parent ? transform.resolveHook(parent.filename, specifier) : undefined;
    return resolveFilename.call(this, resolved ?? specifier, parent, ...rest);
  };
  for (const extension of STYLES) loaders[extension] = () => {};
}

// A Node with module.registerHooks runs Playwright's loader in the process itself: no thread to spare.
const transform = typeof Module.registerHooks === 'function' ? undefined : playwrightTransform();
if (transform) {
  installRequireHooks(transform);
  process.env.PW_DISABLE_TS_ESM = '1';
}
