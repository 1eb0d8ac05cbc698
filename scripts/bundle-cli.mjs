// The command line as one bundle of Scribe's modules (its packages stay imports), split at dynamic imports so
// each command loads only what it uses. Development (bin/scribe.js) and the published package
// (scripts/build.mjs) run the same bundle: it starts a tenth of a second sooner than some 170 modules.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, stop, transform } from 'esbuild';

/**
 * The run folder's own modules (src/agents/runner/run-folder/), compiled to either module type, by name: the
 * Runner writes them into each run folder (agents/runner/workspace.ts), which then need not compile them.
 */
export async function compiledRunModules(sources) {
  const folder = path.join(sources, 'agents', 'runner', 'run-folder');
  const names = readdirSync(folder).filter((file) => file.endsWith('.ts')).map((file) => path.basename(file, '.ts'));
  const compile = async (format) => {
    const compiled = await Promise.all(names.map(async (name) => [name, (await transform(readFileSync(path.join(folder, `${name}.ts`), 'utf8'), { loader: 'ts', format, target: 'node20' })).code]));
    return Object.fromEntries(compiled);
  };
  return { module: await compile('esm'), commonjs: await compile('cjs') };
}

/**
 * Bundles `entry` into `outdir` (`.mjs` files). `moduleUrl(file)` is the JavaScript expression that stands
 * for a source file's `import.meta.url` in the bundle, so each module still finds the files beside it
 * (the config reader, the demo app's pages, agents/) where the bundle runs.
 */
export async function bundleCli({ entry, outdir, moduleUrl }) {
  try {
    await build({
      entryPoints: [entry],
      outdir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
      define: { SCRIBE_COMPILED_RUN_MODULES: JSON.stringify(await compiledRunModules(path.dirname(entry))) },
      plugins: [
        {
          name: 'keep-import-meta-url',
          setup(b) {
            b.onLoad({ filter: /\.[jt]s$/ }, (args) => ({
              contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', moduleUrl(args.path)),
              loader: args.path.endsWith('.ts') ? 'ts' : 'js',
            }));
          },
        },
      ],
    });
  } finally {
    // esbuild keeps its service process for the next call: the CLI that just bundled (an MCP server, a worker)
    // would carry it as a child for its whole life, outliving the runs it cancels.
    await stop();
  }
}
