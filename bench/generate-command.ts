/**
 * The whole `scribe generate` command against a bare `npx playwright test` of the same spec: each a
 * child process, as a user runs them, on the demo app's login (the offline provider: no model time; the
 * proof run included). Prints the medians and their ratio (goal: at most 1.3×), the median of each stage
 * the command reports (timings_ms), and what the stages do not account for: process start-up, loading
 * agents/ and the Playwright config, launching browsers, teardown. Beside each, the CPU seconds of the command's
 * whole process tree (bench/process-cpu.ts, a lower bound), which a loaded machine changes less than wall time.
 *
 * The project is what `npm init playwright` makes: CommonJS, with a playwright.config.ts; with --module,
 * an ES-module project ("type": "module", playwright.config.mjs), where Playwright's ESM loader is needed
 * by both commands (project/esm-loading.ts).
 *
 * With --model-ms N, the timed commands ask a model instead: an OpenAI-compatible server on loopback
 * (test/fixtures/fake-openai.ts) that answers each call after N ms with the spec the offline generator wrote
 * in the untimed first command, so what the pipeline does while a model answers shows in the stages.
 *
 *   nice -n 15 node --import tsx bench/generate-command.ts [runs=5] [--module] [--model-ms N]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { median, loadAverage } from './load.mjs';
import { cpuByKind, SAMPLER } from './process-cpu.ts';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const modelAt = process.argv.indexOf('--model-ms');
const modelMs = modelAt > 0 ? Number(process.argv[modelAt + 1]) : undefined;
if (modelMs !== undefined && !(Number.isInteger(modelMs) && modelMs >= 0)) throw new Error(`--model-ms takes a whole number of milliseconds (got ${process.argv[modelAt + 1]})`);
const runs = Number(process.argv.slice(2).find((arg, i, args) => !arg.startsWith('--') && args[i - 1] !== '--model-ms') ?? 5);
const moduleProject = process.argv.includes('--module');
const model = modelMs === undefined ? undefined : await startFakeOpenAI();
const app = await startDemoApp();
// Inside the repository, so the spec resolves @playwright/test like a project's would.
mkdirSync(path.join(root, 'bench', 'work'), { recursive: true });
const work = mkdtempSync(path.join(root, 'bench', 'work', 'command-'));
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: path.join(work, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const config = path.join(work, moduleProject ? 'playwright.config.mjs' : 'playwright.config.ts');
const generate = ['bin/scribe.js', 'generate', 'log in with valid credentials and see the dashboard', '--url', `${app.url}/login`, '--feature', 'bench', '--provider', 'offline', '--force', '--json'];

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

try {
  writeFileSync(path.join(work, 'package.json'), moduleProject ? '{ "type": "module" }\n' : '{ "type": "commonjs" }\n');
  // A first command, not timed, writes the spec and warms the CLI bundle and the file caches.
  const first = JSON.parse((await run('node', [path.join(root, generate[0]!), ...generate.slice(1)], { cwd: work, env })).stdout) as Document;
  if (!first.success || !first.testPath) throw new Error(`generate failed: ${first.error ?? ''}`);
  if (model) model.answerBy(() => ({ text: fenced(readFileSync(path.join(work, first.testPath!), 'utf8')), delayMs: modelMs }));
  const timedArgs = model ? generate.slice(1).map((arg) => (arg === 'offline' ? 'openai' : arg)) : generate.slice(1);
  const timedEnv = model ? { ...env, OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: model.url } : env;
  writeFileSync(config, `export default { testDir: ${JSON.stringify(path.dirname(path.join(work, first.testPath)))}, workers: 1, reporter: 'line', use: { baseURL: ${JSON.stringify(app.url)}, testIdAttribute: 'data-testid', launchOptions: ${JSON.stringify(launchOptions())} } };\n`);
  const whole: number[] = [];
  const bare: number[] = [];
  const cpu = { whole: [] as number[], bare: [] as number[] };
  const stages = new Map<string, number[]>();
  const unaccounted: number[] = [];
  for (let i = 0; i < runs; i++) {
    const command = await timed(() => run('node', [path.join(root, generate[0]!), ...timedArgs], { cwd: work, env: timedEnv }));
    const document = JSON.parse(command.value.stdout) as Document;
    if (!document.success) throw new Error(`generate failed: ${document.error ?? ''}`);
    whole.push(command.ms);
    cpu.whole.push(command.cpu);
    const timings = document.timings_ms ?? {};
    for (const [stage, ms] of Object.entries(timings)) stages.set(stage, [...(stages.get(stage) ?? []), ms]);
    // timings_ms.total is the pipeline's own clock; what the command takes beyond it is start-up and teardown.
    unaccounted.push(command.ms - (timings.total ?? 0));
    const plain = await timed(() => run('npx', ['playwright', 'test', '--config', config], { cwd: root, env }));
    bare.push(plain.ms);
    cpu.bare.push(plain.cpu);
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`${runs} rounds, demo app login, ${model ? `a model answering in ${modelMs} ms` : 'offline provider'}, proof run included, ${moduleProject ? 'an ES-module project' : 'a CommonJS project'}; medians`);
  console.log(`scribe generate (whole command)   ${s(median(whole))}   (runs: ${whole.map(s).join(', ')})`);
  console.log(`npx playwright test (bare)        ${s(median(bare))}   (runs: ${bare.map(s).join(', ')})`);
  console.log(`ratio                             ${(median(whole) / median(bare)).toFixed(2)}x (goal <= 1.3x)`);
  if (modelMs !== undefined) console.log(`ratio, the model's ${modelMs} ms taken out  ${((median(whole) - modelMs) / median(bare)).toFixed(2)}x`);
  console.log(`CPU seconds (process trees)       scribe generate ${median(cpu.whole).toFixed(2)}, bare ${median(cpu.bare).toFixed(2)}: ${(median(cpu.whole) / median(cpu.bare)).toFixed(2)}x`);
  console.log(`load average at the end           ${loadAverage()}`);
  console.log('stages (timings_ms):');
  for (const [stage, times] of stages) console.log(`  ${stage.padEnd(12)} ${s(median(times))}`);
  console.log(`  outside the pipeline's total (process start-up, agents/ and config, teardown)  ${s(median(unaccounted))}`);
} finally {
  await model?.close();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
