#!/usr/bin/env node
// Builds the published package: JavaScript and type declarations in dist/src (tsc, with relative `.ts`
// imports rewritten to `.js`) for the library, the files its modules run beside them, and the `scribe`
// command in dist/cli, bundled as development bundles it (scripts/bundle-cli.mjs). Run by `npm pack` /
// `npm publish` (prepack); development runs the sources.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, compiledRunModules } from './bundle-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

// tsc rewrites `.ts` in emitted JavaScript, not in declarations: a consumer's compiler must find the .d.ts.
const RELATIVE_TS = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const full = path.join(dist, file);
  writeFileSync(full, readFileSync(full, 'utf8').replace(RELATIVE_TS, '$1$2$3.js$2'));
}

// Plain files the build needs beside its modules: the CommonJS scripts child processes run with plain
// Node (the Playwright config reader, the contained run's CLI), the compiler's loader (util/typescript.js
// with its declarations) and the demo app's pages.
const PLAIN = /\.cjs$|^util[\\/]typescript\.(js|d\.ts)$/;
for (const file of readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
  if (PLAIN.test(file)) cpSync(path.join(root, 'src', file), path.join(dist, 'src', file));
}
// The run folder's modules compiled, for the library's Runner (the bundled command carries them itself).
writeFileSync(path.join(dist, 'src/agents/runner/run-folder/compiled.json'), JSON.stringify(await compiledRunModules(path.join(root, 'src'))));
const demoApp = path.join(root, 'src/demo-app');
for (const file of readdirSync(demoApp)) {
  if (!file.endsWith('.ts')) cpSync(path.join(demoApp, file), path.join(dist, 'src/demo-app', file));
}

// The command: each bundled module's import.meta.url is its built module's in dist/src, where the files it
// looks for beside itself are (the bundle's chunks all sit in dist/cli).
const sources = path.join(root, 'src');
const builtModule = (file) => `../src/${path.relative(sources, file).split(path.sep).join('/').replace(/\.ts$/, '.js')}`;
await bundleCli({ entry: path.join(sources, 'bin.ts'), outdir: path.join(dist, 'cli'), moduleUrl: (file) => `new URL(${JSON.stringify(builtModule(file))}, import.meta.url).href` });
