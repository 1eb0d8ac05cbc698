// Preloaded (`--require` in NODE_OPTIONS) into each Playwright process of a contained run: Playwright's
// modules compile from the V8 code cache a trusted process made for them (code-cache-maker.cjs, under the
// run's heap limit, which V8 checks a cache against), and a module without one compiles as Node compiles it.
// Read only: the run may write nothing outside its working folder, and so no process reads a cache a run wrote.
'use strict';
const { cacheCompiledFiles, isCacheablePlaywrightModule } = require('../../util/code-cache.cjs');

cacheCompiledFiles(isCacheablePlaywrightModule, { readOnly: true });
