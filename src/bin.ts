#!/usr/bin/env node
/** The installed package's `scribe` command (built to dist/src/bin.js); development runs bin/scribe.js on the sources. */
import nodeModule from 'node:module';

nodeModule.createRequire(import.meta.url)('./compile-cache.cjs');

const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
