#!/usr/bin/env node
/** The installed package's `scribe` command (bundled to dist/cli/bin.mjs); development runs bin/scribe.js on the sources. */
import nodeModule from 'node:module';

// V8's code cache spares each start compiling TypeScript's compiler anew, where Node has it built in (22+).
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
