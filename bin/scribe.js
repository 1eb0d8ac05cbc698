#!/usr/bin/env node
// Runs Scribe's TypeScript sources with no build step. The first run after a change bundles src/ with esbuild
// into a cache file; later runs import that bundle directly, which starts about twice as fast as a loader hook.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import nodeModule from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// V8's code cache spares every start compiling TypeScript's 9 MB compiler anew (Node 22 has it built in).
if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
else nodeModule.createRequire(import.meta.url)('v8-compile-cache');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'src');

function listSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Changes whenever a source file, the bundler or this script changes. */
function fingerprint(files) {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${path.relative(sources, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function bundle(outfile) {
  const { build } = await import('esbuild');
  const temporary = `${outfile}.tmp-${process.pid}`;
  await build({
    entryPoints: [path.join(sources, 'cli.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [
      {
        // Each module keeps its own import.meta.url, so paths it computes from it stay right in the bundle.
        name: 'keep-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  renameSync(temporary, outfile);
}

// Under node_modules, so the bundle's bare imports resolve to this package's dependencies.
const cacheDir = path.join(root, 'node_modules', '.cache', 'scribe');
const bundled = path.join(cacheDir, `cli-${fingerprint(listSources(sources))}.mjs`);
if (!existsSync(bundled)) {
  mkdirSync(cacheDir, { recursive: true });
  await bundle(bundled);
}
const { main } = await import(pathToFileURL(bundled).href);
process.exitCode = await main(process.argv);
