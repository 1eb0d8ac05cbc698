#!/usr/bin/env node
/** The installed package's `scribe` command (bundled to dist/cli/bin.mjs); development runs bin/scribe.js on the sources. */
import nodeModule, { createRequire } from 'node:module';

// V8's code cache spares each start compiling TypeScript's compiler and Playwright's bundles anew: Node's own
// where it has one (22+), else Scribe's, set up before anything loads Playwright.
const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (enableCompileCache) enableCompileCache();
else {
  const codeCache = createRequire(import.meta.url)('./util/code-cache.cjs') as { cacheCompiledFiles: (shouldCache: (file: string) => boolean) => void; isPlaywrightBundle: (file: string) => boolean };
  codeCache.cacheCompiledFiles(codeCache.isPlaywrightBundle);
}

const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
