#!/usr/bin/env node
/** The installed package's `scribe` command (built to dist/src/bin.js); development runs bin/scribe.js on the sources. */
import nodeModule from 'node:module';

// V8's code cache spares every start compiling TypeScript's compiler anew (Node 22 has it built in).
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
if (enableCompileCache) enableCompileCache();
else nodeModule.createRequire(import.meta.url)('v8-compile-cache');

const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
