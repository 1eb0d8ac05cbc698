// Started by the Runner (run-code-cache.ts), trusted and under a contained run's heap limit: requires the
// modules of Playwright that a run's runner and worker processes load, so that their V8 code cache is written
// (at exit) under the flags those processes have. They read it (contained-code-cache.cjs); they may not write it.
//
//   node --max-old-space-size=N code-cache-maker.cjs <@playwright/test's folder> <stamp> <claim>
'use strict';
const { existsSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { cacheCompiledFiles, isCacheablePlaywrightModule } = require('../../util/code-cache.cjs');

/**
 * Where a run starts, in Playwright's package: its CLI and runner, its TypeScript transform, and its worker's
 * entry (the name differs between releases; a file a release lacks is skipped).
 */
const ENTRIES = ['lib/program.js', 'lib/transform/babelBundle.js', 'lib/worker/workerProcessEntry.js', 'lib/worker/workerMain.js'];

const [testPackage, stamp, claim] = process.argv.slice(2);

/** Requires the entries, each on its own: a module that cannot load outside a run leaves its cache unwritten, and the run compiles it. */
function requireEntries() {
  const playwright = path.dirname(require.resolve('playwright/package.json', { paths: [testPackage] }));
  for (const file of [require.resolve(testPackage), ...ENTRIES.map((entry) => path.join(playwright, entry)).filter(existsSync)]) {
    try {
      require(file);
    } catch {
      // Left to the run.
    }
  }
}

cacheCompiledFiles(isCacheablePlaywrightModule);
try {
  requireEntries();
} catch {
  // No Playwright to be found from the run's: nothing to cache, and the stamp keeps the next run from trying again.
}
// Added after the cache's own exit listener, so the stamp follows the cache files.
process.once('exit', () => {
  try {
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
  } finally {
    rmSync(claim, { force: true });
  }
});
process.exit(0);
