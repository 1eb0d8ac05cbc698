/**
 * The whole `scribe generate` command against a bare `npx playwright test` of the same spec: each a
 * child process, as a user runs them, on the demo app's login (the offline provider: no model time; the
 * proof run included). Prints the medians and their ratio (goal: at most 1.3×), the median of each stage
 * the command reports (timings_ms), and what the stages do not account for: process start-up, loading
 * agents/ and the Playwright config, launching browsers, teardown. Beside each, the CPU seconds of the command's
 * whole process tree (bench/process-cpu.ts, a lower bound), which a loaded machine changes less than wall time.
 *
 * Both commands start the same way, so the ratio compares what they do, not how they are launched:
 * - --from installed (the default): as a user has them. The package as `npm pack` makes it
 *   (test/package/packed.ts), installed with @playwright/test into a fresh project; `npx scribe generate`
 *   against `npx playwright test`, and the same two bins started by `node` directly (what npx adds: about
 *   0.4 s to each, which is why the two sides must match). With --native, the optional peer the README names
 *   for a faster type check (typescript-native, TypeScript 7's native compiler) is installed too; without it,
 *   as a plain install has it, the type check is the JavaScript compiler's.
 * - --from sources: the repository's `node bin/scribe.js` against `node <@playwright/test>/cli.js test`,
 *   no packing: for trying a change to the sources.
 *
 * The project is what `npm init playwright` makes: CommonJS, with a playwright.config.ts; with --module,
 * an ES-module project ("type": "module", playwright.config.mjs), where Playwright's ESM loader is needed
 * by both commands (project/esm-loading.ts).
 *
 * With --model-ms N, the timed commands ask a model instead: an OpenAI-compatible server on loopback
 * (test/fixtures/fake-openai.ts) that answers each call after N ms with the spec the offline generator wrote
 * in the untimed first command, so what the pipeline does while a model answers shows in the stages.
 *
 *   nice -n 15 node --import tsx bench/generate-command.ts [runs=5] [--from installed|sources] [--native] [--module] [--model-ms N]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { packedTarball } from '../test/package/packed.ts';
import { median, loadAverage } from './load.mjs';
import { cpuByKind, SAMPLER } from './process-cpu.ts';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string', default: 'installed' }, native: { type: 'boolean', default: false }, module: { type: 'boolean', default: false }, 'model-ms': { type: 'string' } },
});
const from = flags.from;
if (from !== 'installed' && from !== 'sources') throw new Error(`--from takes installed or sources (got ${from})`);
if (flags.native && from !== 'installed') throw new Error('--native adds the optional peer to the installed package; the sources have it as a devDependency');
const modelMs = flags['model-ms'] === undefined ? undefined : Number(flags['model-ms']);
if (modelMs !== undefined && !(Number.isInteger(modelMs) && modelMs >= 0)) throw new Error(`--model-ms takes a whole number of milliseconds (got ${flags['model-ms']})`);
const runs = Number(positionals[0] ?? 5);
if (!(Number.isInteger(runs) && runs > 0)) throw new Error(`runs must be a whole number above 0 (got ${positionals[0]})`);
const moduleProject = flags.module;
const model = modelMs === undefined ? undefined : await startFakeOpenAI();
const app = await startDemoApp();
const devDependencies = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;

/** How each side is started: the command and the arguments before the command's own. */
interface Launcher {
  name: string;
  scribe: [string, ...string[]];
  playwright: [string, ...string[]];
}

/**
 * The project the commands run in, and how each side is started there. Installed: a fresh project outside
 * the repository with the packed package and @playwright/test. Sources: a folder inside the repository, so
 * the spec resolves the repository's @playwright/test as a project's would.
 */
async function setUp(): Promise<{ work: string; launchers: Launcher[] }> {
  if (from === 'sources') {
    mkdirSync(path.join(root, 'bench', 'work'), { recursive: true });
    const work = mkdtempSync(path.join(root, 'bench', 'work', 'command-'));
    const playwrightCli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');
    return { work, launchers: [{ name: 'node', scribe: ['node', path.join(root, 'bin', 'scribe.js')], playwright: ['node', playwrightCli] }] };
  }
  const tarball = await packedTarball();
  const work = mkdtempSync(path.join(tmpdir(), 'scribe-bench-command-'));
  writeFileSync(path.join(work, 'package.json'), '{ "name": "bench-project", "version": "1.0.0", "private": true }\n');
  // The optional peer the README names for a faster type check, as a user adds it: under its alias.
  const native = flags.native ? [`typescript-native@${devDependencies['typescript-native']}`] : [];
  await run('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', tarball, `@playwright/test@${devDependencies['@playwright/test']}`, ...native], { cwd: work });
  const modules = path.join(work, 'node_modules');
  return {
    work,
    launchers: [
      { name: 'npx', scribe: ['npx', 'scribe'], playwright: ['npx', 'playwright'] },
      { name: 'node', scribe: ['node', path.join(modules, 'scribe-playwright', 'dist', 'cli', 'bin.mjs')], playwright: ['node', path.join(modules, '@playwright', 'test', 'cli.js')] },
    ],
  };
}

interface Document {
  success: boolean;
  testPath: string | null;
  error?: string | null;
  timings_ms?: Record<string, number>;
}

/** The work's wall time, and the CPU seconds of the processes it started (this process's own left out). */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; cpu: number; value: T }> {
  const start = performance.now();
  const { value, seconds } = await cpuByKind(fn);
  const ms = performance.now() - start;
  const cpu = [...seconds].filter(([kind]) => kind !== 'scribe (node, threads)' && kind !== SAMPLER).reduce((sum, [, used]) => sum + used, 0);
  return { ms, cpu, value };
}

const { work, launchers } = await setUp();
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: path.join(work, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const config = path.join(work, moduleProject ? 'playwright.config.mjs' : 'playwright.config.ts');
const generate = ['generate', 'log in with valid credentials and see the dashboard', '--url', `${app.url}/login`, '--feature', 'bench', '--provider', 'offline', '--force', '--json'];
const start = (command: [string, ...string[]], args: string[], options: { env: NodeJS.ProcessEnv }) => run(command[0], [...command.slice(1), ...args], { cwd: work, env: options.env });

interface Side {
  wall: number[];
  cpu: number[];
}

try {
  const projectJson = (from === 'installed' ? JSON.parse(readFileSync(path.join(work, 'package.json'), 'utf8')) : {}) as Record<string, unknown>;
  writeFileSync(path.join(work, 'package.json'), `${JSON.stringify({ ...projectJson, type: moduleProject ? 'module' : 'commonjs' }, null, 2)}\n`);
  // A first command, not timed, writes the spec and warms the CLI bundle, the code caches and the file caches.
  const first = JSON.parse((await start(launchers[0]!.scribe, generate, { env })).stdout) as Document;
  if (!first.success || !first.testPath) throw new Error(`generate failed: ${first.error ?? ''}`);
  if (model) model.answerBy(() => ({ text: fenced(readFileSync(path.join(work, first.testPath!), 'utf8')), delayMs: modelMs }));
  const timedArgs = model ? generate.map((arg) => (arg === 'offline' ? 'openai' : arg)) : generate;
  const timedEnv = model ? { ...env, OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: model.url } : env;
  writeFileSync(config, `export default { testDir: ${JSON.stringify(path.dirname(path.join(work, first.testPath)))}, workers: 1, reporter: 'line', use: { baseURL: ${JSON.stringify(app.url)}, testIdAttribute: 'data-testid', launchOptions: ${JSON.stringify(launchOptions())} } };\n`);
  const sides = new Map(launchers.map((launcher) => [launcher.name, { whole: { wall: [], cpu: [] } as Side, bare: { wall: [], cpu: [] } as Side }]));
  const stages = new Map<string, number[]>();
  const unaccounted: number[] = [];
  const record = (side: Side, measured: { ms: number; cpu: number }) => {
    side.wall.push(measured.ms);
    side.cpu.push(measured.cpu);
  };
  // Rounds alternate the commands and the launchers, so a change in the machine's load falls on all of them.
  for (let i = 0; i < runs; i++) {
    for (const launcher of launchers) {
      const measured = sides.get(launcher.name)!;
      const command = await timed(() => start(launcher.scribe, timedArgs, { env: timedEnv }));
      const document = JSON.parse(command.value.stdout) as Document;
      if (!document.success) throw new Error(`generate failed: ${document.error ?? ''}`);
      record(measured.whole, command);
      const timings = document.timings_ms ?? {};
      for (const [stage, ms] of Object.entries(timings)) stages.set(stage, [...(stages.get(stage) ?? []), ms]);
      // timings_ms.total is the pipeline's own clock; what the command takes beyond it is start-up and teardown.
      unaccounted.push(command.ms - (timings.total ?? 0));
      record(measured.bare, await timed(() => start(launcher.playwright, ['test', '--config', config], { env })));
    }
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const list = (values: number[]) => values.map(s).join(', ');
  console.log(`${runs} rounds, demo app login, ${model ? `a model answering in ${modelMs} ms` : 'offline provider'}, proof run included, ${moduleProject ? 'an ES-module project' : 'a CommonJS project'}, Scribe ${from === 'installed' ? `installed from its packed tarball, ${flags.native ? 'with' : 'without'} the optional native TypeScript compiler` : "from the repository's sources (the native TypeScript compiler installed)"}; medians`);
  for (const launcher of launchers) {
    const { whole, bare } = sides.get(launcher.name)!;
    const scribeCommand = `${launcher.name === 'npx' ? 'npx scribe' : `${launcher.name} ${path.basename(launcher.scribe.at(-1)!)}`} generate`;
    const playwrightCommand = `${launcher.name === 'npx' ? 'npx playwright' : `${launcher.name} ${path.basename(launcher.playwright.at(-1)!)}`} test`;
    console.log(`started by ${launcher.name}:`);
    console.log(`  ${scribeCommand.padEnd(32)} ${s(median(whole.wall))}   (runs: ${list(whole.wall)})`);
    console.log(`  ${playwrightCommand.padEnd(32)} ${s(median(bare.wall))}   (runs: ${list(bare.wall)})`);
    console.log(`  ratio                            ${(median(whole.wall) / median(bare.wall)).toFixed(2)}x (goal <= 1.3x)`);
    if (modelMs !== undefined) console.log(`  ratio, the model's ${modelMs} ms taken out  ${((median(whole.wall) - modelMs) / median(bare.wall)).toFixed(2)}x`);
    console.log(`  CPU seconds (process trees)      scribe ${median(whole.cpu).toFixed(2)}, playwright ${median(bare.cpu).toFixed(2)}: ${(median(whole.cpu) / median(bare.cpu)).toFixed(2)}x`);
  }
  console.log(`load average at the end           ${loadAverage()}`);
  console.log('stages (timings_ms, every launcher):');
  for (const [stage, times] of stages) console.log(`  ${stage.padEnd(12)} ${s(median(times))}`);
  console.log(`  outside the pipeline's total (process start-up, agents/ and config, teardown)  ${s(median(unaccounted))}`);
} finally {
  await model?.close();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
