#!/usr/bin/env node
/** The installed package's `scribe` command (bundled to dist/cli/bin.mjs); development runs bin/scribe.js on the sources. */
import { createRequire } from 'node:module';

// V8's code cache spares each start compiling Playwright's bundles anew: set up before anything loads Playwright.
(createRequire(import.meta.url)('./util/code-cache.cjs') as { enableCodeCache: () => void }).enableCodeCache();

const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
