// Preloaded (`--require` in NODE_OPTIONS) into each Playwright process of a trusted run (the user's own specs:
// `scribe run`, `scribe heal`), as Scribe's own processes load theirs: Node's compile cache where it has one
// (22+), else Scribe's for Playwright's modules, written where missing. These processes run with the flags
// Scribe's own do, so they share one cache (a contained run's, with its heap limit, keeps another).
'use strict';
const { enableCodeCache, isCacheablePlaywrightModule } = require('../../util/code-cache.cjs');

enableCodeCache(isCacheablePlaywrightModule);
