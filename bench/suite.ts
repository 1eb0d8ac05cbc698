/**
 * The suite features, measured on the suite app (test/fixtures/suite-app.ts, a shop behind a login):
 *
 * 1. A plan of 10 scenarios (`scribe plan`, offline), generated with `generate --plan` by 1 worker and by
 *    2 workers, each in a fresh project (nothing to resume): wall time, accepted, and the machine's load;
 *    then the ratio of the two wall times (the goal: 2 workers at least 1.6× faster on 2 cores).
 * 2. `scribe heal` of 10 broken specs (written against version 1, run against version 2, where test ids
 *    were renamed), the Medic answered by the scripted model: 8 right heals, 2 that loosen the assertion
 *    (refused at every attempt). The fake model answers by which spec the Medic's prompt holds (its test's
 *    title), not by call order, so a retry or an extra call cannot shift the answers. Healed, refused, model
 *    calls, time.
 *
 *   node --import tsx bench/suite.ts [--part plan|heal] [--workers 1,2] [--from built|sources] [--no-build] [--profile | --timeline] [--model-ms N]
 *   (default: both parts, 1 and 2 workers, the built package)
 *
 * With --model-ms N, the plan's timed batches ask a model instead of the offline generator: an
 * OpenAI-compatible server on loopback (test/fixtures/fake-openai.ts) that answers each scenario's call after
 * N ms with the spec the offline generator wrote for it in an untimed batch first (by the scenario's request
 * in the prompt). Offline, a batch has no wait for a second worker to fill; a model's answer is such a wait.
 *
 * --from built (the default) builds the package (`npm run build`, not timed) and runs the batch as the
 * installed package does: `node dist/cli/bin.mjs generate --plan …`, a process of its own whose worker
 * threads load compiled JavaScript (with --timeline, the built library's generateBatch in this process).
 * --no-build takes dist/ as last built. --from sources runs the CLI's main() from the TypeScript sources in
 * this process, as the tests do: each worker thread then loads the sources through tsx.
 *
 * --profile prints, for each batch, the CPU seconds by kind of process (bench/process-cpu.ts: Scribe's own
 * threads, its browser, the type checker, each contained run's Playwright and Chromium) and the accepted
 * specs' stage timings summed (their provenance records): where the generations spend the machine. With 1
 * and 2 workers it then prints the ceiling two cores put on the ratio: 2 workers take at least their CPU
 * over 2 cores, and a 1-worker batch that keeps c cores busy on average (work beside its critical path: the
 * proof copy's worker, a run started early) can be at most 2/c times faster on 2 cores.
 *
 * --timeline runs each batch through the library (generateBatch, as `generate --plan` calls it, with its
 * stage lines) and prints, per worker and scenario, when each stage ran and, inside each contained run,
 * when its processes started and ended (bench/timeline.ts); then how many cores the batch and the whole
 * machine used over time, and how long two contained runs overlapped: whether the workers wait for each
 * other, for a core, or for nothing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { HealSuiteResult } from '../src/heal/result.ts';
import { BatchResult } from '../src/workflow/batch.ts';
import { cpuByKind, SAMPLER } from './process-cpu.ts';
import { sampleTimeline, type ProcessSpan, type Timeline } from './timeline.ts';
import * as sourceProject from '../src/project/context.ts';
import * as sourceBatch from '../src/workflow/batch.ts';
import type { PipelineEvent } from '../src/contracts.ts';
import type { ScribeProject } from '../test/fixtures/scribe-project.ts';
import { parsePlan } from '../src/workflow/plan-file.ts';
import { runCli, type CliRun } from '../test/commands/harness.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { RENAMED, startSuiteApp } from '../test/fixtures/suite-app.ts';
import { makeSignedInSuiteProject, makeSuiteProject } from '../test/fixtures/suite-project.ts';
import { loadAverage } from './load.mjs';

const load = loadAverage;
const repoRoot = fileURLToPath(new URL('../', import.meta.url));
console.log(`machine: ${cpus().length} cores; load average at start ${load()}`);
const { values: flags } = parseArgs({
  allowNegative: true,
  options: {
    part: { type: 'string' },
    workers: { type: 'string', default: '1,2' },
    from: { type: 'string', default: 'built' },
    build: { type: 'boolean', default: true },
    profile: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    'model-ms': { type: 'string' },
  },
});
if (flags.profile && flags.timeline) throw new Error('--profile or --timeline, not both (each samples /proc its own way)');
if (flags.part !== undefined && flags.part !== 'plan' && flags.part !== 'heal') throw new Error(`--part ${flags.part}: plan or heal`);
if (flags.from !== 'built' && flags.from !== 'sources') throw new Error(`--from ${flags.from}: built or sources`);
const built = flags.from === 'built';
const modelMs = flags['model-ms'] === undefined ? undefined : Number(flags['model-ms']);
if (modelMs !== undefined && !(Number.isInteger(modelMs) && modelMs >= 0)) throw new Error(`--model-ms takes a whole number of milliseconds (got ${flags['model-ms']})`);
// The test projects' model timeout (1.5 s, for tests of a failing model) would cut the slower answers short.
const modelTimeout = modelMs === undefined ? {} : { 'provider.request_timeout_ms': modelMs + 30_000 };
const workerCounts = flags.workers.split(',').map(Number);
if (workerCounts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--workers ${flags.workers}: counts of workers, comma-separated (1,2)`);

// --- 1. the plan, with 1 and 2 workers ----------------------------------------------------------------
if (flags.part !== 'heal') await planBench();

/** The library the batch runs from: the package's compiled JavaScript (dist/src), or the TypeScript sources. */
interface BatchLibrary {
  loadProject: typeof sourceProject.loadProject;
  generateBatch: typeof sourceBatch.generateBatch;
  planItems: typeof sourceBatch.planItems;
}

/** Builds the package as `npm pack` does (its prepack), then loads the built library. */
async function builtLibrary(): Promise<BatchLibrary> {
  const started = performance.now();
  if (flags.build) {
    execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`built the package (dist/) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else console.log('the package as last built (dist/, --no-build)');
  const dist = (file: string) => pathToFileURL(path.join(repoRoot, 'dist', 'src', file)).href;
  const [project, batch] = (await Promise.all([import(dist('project/context.js')), import(dist('workflow/batch.js'))])) as [typeof sourceProject, typeof sourceBatch];
  return { loadProject: project.loadProject, generateBatch: batch.generateBatch, planItems: batch.planItems };
}

/** The installed package's command (its bin, dist/cli/bin.mjs) in a process of its own. */
function builtCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  return new Promise((resolve) =>
    execFile(process.execPath, [path.join(repoRoot, 'dist', 'cli', 'bin.mjs'), ...args], { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

async function planBench(): Promise<void> {
  const library: BatchLibrary = built ? await builtLibrary() : { ...sourceProject, ...sourceBatch };
  const cli = built ? builtCli : runCli;
  console.log(`the batch runs from ${built ? 'the built package (dist/)' : 'the TypeScript sources (worker threads through tsx)'}`);
  const app = await startSuiteApp();
  const planner = makeSignedInSuiteProject(app.url, { 'planner.max_scenarios': 10 });
  const offline = (home: string) => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: home });
  const planned = await runCli(['plan', '--out', 'plan.yaml'], { env: offline(planner.home), cwd: planner.dir });
  if (planned.code !== 0) throw new Error(`plan failed: ${planned.stderr}`);
  const planText = readFileSync(path.join(planner.dir, 'plan.yaml'), 'utf8');
  console.log(`plan: ${parsePlan(planText, 'plan.yaml').scenarios.length} scenarios`);
  planner.remove();
  const model = modelMs === undefined ? undefined : await scriptedModel(cli, app.url, planText, modelMs);
  const batchEnv = (home: string) => (model ? { ...offline(home), OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: model.url } : offline(home));

  const wall = new Map<number, number>();
  const cpuTotal = new Map<number, number>();
  for (const workers of workerCounts) {
    const project = makeSignedInSuiteProject(app.url, { 'planner.max_scenarios': 10, ...modelTimeout }, { 'plan.yaml': planText });
    const before = load();
    const started = performance.now();
    const generate = () => cli(['generate', '--plan', 'plan.yaml', '--workers', String(workers), '--json'], { env: batchEnv(project.home), cwd: project.dir });
    let result: BatchResult;
    let cpu: Map<string, number> | undefined;
    let timeline: { sampled: Timeline<BatchResult>; stages: StageLine[] } | undefined;
    if (flags.timeline) {
      timeline = await batchTimeline(library, project, batchEnv(project.home), planText, workers);
      result = timeline.sampled.value;
    } else {
      const { value: run, seconds } = flags.profile ? await cpuByKind(generate) : { value: await generate(), seconds: undefined };
      if (run.code !== 0 && run.code !== 1) throw new Error(`generate --plan exited ${run.code}: ${run.stderr}`);
      result = BatchResult.parse(JSON.parse(run.stdout));
      cpu = seconds;
    }
    const seconds = (performance.now() - started) / 1000;
    wall.set(workers, seconds);
    console.log(`generate --plan, ${workers} worker${workers === 1 ? '' : 's'}: ${seconds.toFixed(1)} s wall; ${result.summary.accepted}/${result.summary.scenarios} accepted; load average before ${before}, after ${load()}`);
    for (const failed of result.scenarios.filter((s) => s.status === 'failed')) console.log(`  not accepted: ${failed.request} — ${failed.error?.split('\n')[0] ?? 'no error'}`);
    if (cpu) cpuTotal.set(workers, printProfile(cpu, project.dir, seconds));
    if (timeline) printTimeline(timeline.sampled, timeline.stages);
    project.remove();
  }
  const asked = model ? `, a model answering in ${modelMs} ms (${model.requests.length} calls)` : ', offline';
  for (const [workers, seconds] of wall) if (workers > 1 && wall.has(1)) console.log(`${workers} workers against 1${asked}: ${(wall.get(1)! / seconds).toFixed(2)}× faster${workers === 2 ? ' (goal 1.6×)' : ''}; load average now ${load()}`);
  if (cpuTotal.has(1) && cpuTotal.has(2)) printCeiling(wall.get(1)!, cpuTotal.get(1)!, cpuTotal.get(2)!);
  await model?.close();
  await app.close();
}

/**
 * A model that answers each scenario of the plan after `delayMs` with the spec the offline generator wrote
 * for it (an untimed 2-worker batch in a project of its own): a good first answer, so each scenario makes one
 * call, as a capable model's does. A scenario the offline batch did not accept gets no answer (the server's 500).
 */
async function scriptedModel(cli: typeof runCli, appUrl: string, planText: string, delayMs: number): Promise<FakeOpenAI> {
  const project = makeSignedInSuiteProject(appUrl, { 'planner.max_scenarios': 10 }, { 'plan.yaml': planText });
  try {
    const run = await cli(['generate', '--plan', 'plan.yaml', '--workers', '2', '--json'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home }, cwd: project.dir });
    const result = BatchResult.parse(JSON.parse(run.stdout));
    const specs = result.scenarios.filter((s) => s.status === 'accepted' && s.testPath).map((s) => ({ request: s.request, text: readFileSync(path.resolve(project.dir, s.testPath!), 'utf8') }));
    console.log(`the model's answers: the offline generator's specs of ${specs.length}/${result.scenarios.length} scenarios, each after ${delayMs} ms`);
    const model = await startFakeOpenAI();
    // The longest request the prompt holds: one request may be part of another.
    const inPrompt = (prompt: string) => specs.filter((spec) => prompt.includes(JSON.stringify(spec.request).slice(1, -1))).sort((a, b) => b.request.length - a.request.length)[0];
    model.answerBy((body) => {
      const spec = inPrompt(JSON.stringify(body.messages ?? []));
      return spec ? { text: fenced(spec.text), delayMs } : undefined;
    });
    return model;
  } finally {
    project.remove();
  }
}

/**
 * What two cores allow, from the CPU the batches needed: 2 workers cannot take less than their CPU over 2
 * cores, so T1/T2 is at most 2·T1/CPU(2 workers); with no CPU added by the second worker, at most 2 over the
 * cores the 1-worker batch already kept busy on average (its work beside its critical path).
 */
function printCeiling(oneWorkerWall: number, oneWorkerCpu: number, twoWorkersCpu: number): void {
  const cores = oneWorkerCpu / oneWorkerWall;
  console.log(
    `ceiling on 2 cores (meaningful on an otherwise idle machine): 2 workers need ≥ ${(twoWorkersCpu / 2).toFixed(1)} s (their ${twoWorkersCpu.toFixed(1)} CPU s over 2 cores), so at most ${((2 * oneWorkerWall) / twoWorkersCpu).toFixed(2)}×; ` +
      `the 1-worker batch kept ${cores.toFixed(2)} cores busy on average, so even with no CPU added by the second worker at most ${(2 / cores).toFixed(2)}×; ` +
      `1.6× needs CPU(2 workers) ≤ ${((2 * oneWorkerWall) / 1.6).toFixed(1)} s (the second worker added ${(twoWorkersCpu - oneWorkerCpu).toFixed(1)} CPU s)`,
  );
}

/** CPU seconds by kind of process, and the accepted specs' stage timings summed (seconds of wall time in each stage); returns the CPU seconds in all. */
function printProfile(cpu: Map<string, number>, dir: string, wallSeconds: number): number {
  // From the built package the command is a process of its own (a node process that runs no Playwright), and
  // this process's own threads and its esbuild (tsx's, loading the bench) are the bench's, not the batch's.
  const bench = built ? [SAMPLER, 'scribe (node, threads)', 'scribe: esbuild'] : [SAMPLER];
  const work = [...cpu].filter(([kind]) => !bench.includes(kind));
  const total = work.reduce((sum, [, n]) => sum + n, 0);
  const benchSeconds = bench.reduce((sum, kind) => sum + (cpu.get(kind) ?? 0), 0);
  console.log(`  CPU ${total.toFixed(1)} s in all, ${(total / wallSeconds).toFixed(2)} cores on average (besides ${benchSeconds.toFixed(1)} s of the bench's own, its sampling included):`);
  const named = (kind: string) => (built && kind === 'scribe: node' ? 'scribe: node (the command, its threads)' : kind);
  for (const [kind, seconds] of work.sort((a, b) => b[1] - a[1])) if (seconds >= 0.05) console.log(`    ${seconds.toFixed(1).padStart(7)} s  ${named(kind)}`);
  const stages = new Map<string, number>();
  const records = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.provenance.json') && !file.includes('node_modules'));
  for (const file of records) {
    const timings = (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { timings_ms?: Record<string, number> }).timings_ms ?? {};
    for (const [stage, ms] of Object.entries(timings)) stages.set(stage, (stages.get(stage) ?? 0) + ms / 1000);
  }
  console.log(`  stage wall time summed over ${records.length} accepted specs: ${[...stages].map(([stage, s]) => `${stage} ${s.toFixed(1)} s`).join(', ')}`);
  return total;
}

/** A stage line of a batch's scenario, with the worker that ran it. */
interface StageLine {
  index: number;
  worker: number;
  event: PipelineEvent;
}

/** The batch as `generate --plan` runs it (library, not CLI: the stage lines reach the caller), sampled. */
async function batchTimeline(library: BatchLibrary, project: ScribeProject, env: NodeJS.ProcessEnv, planText: string, workers: number): Promise<{ sampled: Timeline<BatchResult>; stages: StageLine[] }> {
  const stages: StageLine[] = [];
  const loaded = await library.loadProject({ cwd: project.dir, env });
  const items = library.planItems(parsePlan(planText, 'plan.yaml'));
  const sampled = await sampleTimeline(() =>
    library.generateBatch({ project: loaded, items, source: 'plan.yaml', workers, onProgress: (event) => event.type === 'stage' && stages.push({ index: event.index, worker: event.worker, event: event.event }) }),
  );
  return { sampled, stages };
}

/**
 * Per worker, each scenario's stages (seconds from the batch's start) and its contained run's processes
 * (seconds from the run's start: the sandbox, Playwright's CLI, the browser, the test workers, the last
 * process seen); then the cores used over time, and how long two runs overlapped.
 */
function printTimeline(timeline: Timeline<BatchResult>, stages: StageLine[]): void {
  const at = (ms: number) => ((ms - timeline.startMs) / 1000).toFixed(1);
  const windows = stageWindows(stages);
  const runs = runSpans(timeline);
  // A run starts early (with its generation) and waits for its spec: its test workers start when the spec is
  // given, in its run stage. Each run is one scenario's: the first after the stage's start not yet taken.
  const runOf = new Map<number, RunSpan>();
  for (const window of windows.filter((w) => w.stage === 'run' && !runOf.has(w.index)).sort((a, b) => a.startMs - b.startMs)) {
    const taken = new Set(runOf.values());
    const given = runs.filter((r) => !taken.has(r) && r.testsStartMs !== undefined && r.testsStartMs >= window.startMs - 50 && r.testsStartMs <= window.endMs);
    const run = given.sort((a, b) => a.testsStartMs! - b.testsStartMs!)[0];
    if (run) runOf.set(window.index, run);
  }
  console.log('  timeline (s from the batch start; inside a run, s from its start):');
  for (const worker of [...new Set(stages.map((s) => s.worker))].sort()) {
    for (const index of [...new Set(stages.filter((s) => s.worker === worker).map((s) => s.index))]) {
      const own = windows.filter((w) => w.index === index);
      const run = runOf.get(index);
      const inside = run ? ` [${run.marks.map(([name, ms]) => `${name} +${((ms - run.startMs) / 1000).toFixed(1)}`).join(' ')}; ${run.cpuSeconds.toFixed(1)} CPU s]` : '';
      console.log(`    worker ${worker} #${index}: ${own.map((w) => `${w.stage} ${at(w.startMs)}–${at(w.endMs)}`).join(' · ')}${inside}`);
    }
  }
  const seconds = (timeline.endMs - timeline.startMs) / 1000;
  const mean = (pick: (b: { ours: number; machine: number }) => number) => timeline.busy.reduce((sum, b) => sum + pick(b), 0) / Math.max(1, timeline.busy.length);
  const saturated = timeline.busy.filter((b) => b.machine >= 1.9).length / Math.max(1, timeline.busy.length);
  console.log(`  cores used on average: this batch ${mean((b) => b.ours).toFixed(2)}, the whole machine ${mean((b) => b.machine).toFixed(2)}; the machine had both cores busy ${(saturated * 100).toFixed(0)}% of the time`);
  const buckets: string[] = [];
  for (let from = timeline.startMs; from < timeline.endMs; from += 5000) {
    const inBucket = timeline.busy.filter((b) => b.atMs > from && b.atMs <= from + 5000);
    const avg = (pick: (b: { ours: number; machine: number }) => number) => (inBucket.reduce((sum, b) => sum + pick(b), 0) / Math.max(1, inBucket.length)).toFixed(1);
    buckets.push(`${avg((b) => b.ours)}/${avg((b) => b.machine)}`);
  }
  console.log(`  cores per 5 s (this batch/machine): ${buckets.join(' ')}`);
  const overlap = overlapSeconds(runs.map((r) => [r.startMs, r.endMs]));
  const inRuns = runs.reduce((sum, r) => sum + (r.endMs - r.startMs) / 1000, 0);
  console.log(`  contained runs: ${runs.length}, ${inRuns.toFixed(1)} s summed, ${runs.reduce((sum, r) => sum + r.cpuSeconds, 0).toFixed(1)} CPU s; two at once for ${overlap.toFixed(1)} s of the batch's ${seconds.toFixed(1)} s`);
}

/** Each scenario's stages as windows: from a stage's first `started` to its next `done` or `failed`. */
function stageWindows(stages: StageLine[]): Array<{ index: number; stage: string; startMs: number; endMs: number }> {
  const windows: Array<{ index: number; stage: string; startMs: number; endMs: number }> = [];
  const open = new Map<string, number>();
  for (const { index, event } of stages) {
    const key = `${index}:${event.stage}`;
    const ms = Date.parse(event.at);
    if (event.status === 'started' && !open.has(key)) open.set(key, ms);
    if ((event.status === 'done' || event.status === 'failed') && open.has(key)) {
      windows.push({ index, stage: event.stage, startMs: open.get(key)!, endMs: ms });
      open.delete(key);
    }
  }
  return windows;
}

/** A contained run: its first process's start, its last process's last sighting, its test workers' start, its CPU, and when its kinds of process started. */
interface RunSpan {
  startMs: number;
  endMs: number;
  testsStartMs?: number;
  cpuSeconds: number;
  marks: Array<[string, number]>;
}

/** Each contained run of the timeline, in the order they started. */
function runSpans(timeline: Timeline<BatchResult>): RunSpan[] {
  const byRun = new Map<number, ProcessSpan[]>();
  for (const proc of timeline.processes) if (proc.run !== undefined) byRun.set(proc.run, [...(byRun.get(proc.run) ?? []), proc]);
  // A run has Playwright's CLI; a tree without one is the sandbox's probe (bwrap running `true`).
  return [...byRun.values()]
    .filter((procs) => procs.some((p) => /contained-cli/.test(p.kind)))
    .map((procs) => {
      const first = (pattern: RegExp) => procs.filter((p) => pattern.test(p.kind)).sort((a, b) => a.startMs - b.startMs);
      const startMs = Math.min(...procs.map((p) => p.startMs));
      const endMs = Math.max(...procs.map((p) => p.lastSeenMs));
      const marks: Array<[string, number]> = [
        ['cli', first(/contained-cli/)[0]?.startMs],
        ['browser', first(/chromium browser/)[0]?.startMs],
        ...first(/node playwright/).map((p, i): [string, number | undefined] => [`worker${i + 1}`, p.startMs]),
        ['end', endMs],
      ].filter((mark): mark is [string, number] => mark[1] !== undefined);
      const testsStartMs = first(/node playwright/)[0]?.startMs;
      return { startMs, endMs, ...(testsStartMs !== undefined ? { testsStartMs } : {}), cpuSeconds: procs.reduce((sum, p) => sum + p.cpuSeconds, 0), marks };
    })
    .sort((a, b) => a.startMs - b.startMs);
}

/** Seconds during which at least two of the intervals were open at once. */
function overlapSeconds(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([from, to]): Array<[number, number]> => [[from, 1], [to, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let since = 0;
  let total = 0;
  for (const [ms, step] of edges) {
    if (open >= 2 && open + step < 2) total += ms - since;
    if (open < 2 && open + step >= 2) since = ms;
    open += step;
  }
  return total / 1000;
}

// --- 2. heal 10 broken specs ---------------------------------------------------------------------------
if (flags.part !== 'plan') await healBench();

async function healBench(): Promise<void> {
  const v2 = await startSuiteApp({ version: 2 });
  const fake = await startFakeOpenAI();
  const spec = (title: string, body: string) => `import { test, expect } from '@playwright/test';\n\ntest('${title}', async ({ page }) => {\n${body}});\n`;
  const SIGN_IN = "  await page.goto('/login');\n  await page.getByTestId('login-username').fill('ada');\n  await page.getByTestId('login-password').fill('secret');\n  await page.getByTestId('login-submit').click();\n";
  const specs: Record<string, string> = {
    'e2e/01-sign-in.spec.ts': spec('signs in', `${SIGN_IN}  await expect(page.getByTestId('welcome')).toHaveText('Welcome, ada');\n`),
    'e2e/02-sign-in-bob.spec.ts': spec('signs in as bob', SIGN_IN.replace("'ada'", "'bob'") + "  await expect(page.getByTestId('welcome')).toHaveText('Welcome, bob');\n"),
    'e2e/03-search-milk.spec.ts': spec('finds milk', "  await page.goto('/search');\n  await page.getByTestId('search-input').fill('milk');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('search-results')).toContainText('Milk');\n"),
    'e2e/04-search-bread.spec.ts': spec('finds bread', "  await page.goto('/search');\n  await page.getByTestId('search-input').fill('bread');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('result-bread')).toHaveText('Bread — $3.00');\n"),
    'e2e/05-search-none.spec.ts': spec('says when nothing matches', "  await page.goto('/search');\n  await page.getByTestId('search-input').fill('caviar');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('no-results')).toHaveText('No products match');\n"),
    'e2e/06-add-milk.spec.ts': spec('adds milk to the cart', `${SIGN_IN}  await page.goto('/products/milk');\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('cart-note')).toHaveText('Added Milk to the cart');\n`),
    'e2e/07-add-eggs.spec.ts': spec('adds eggs to the cart', `${SIGN_IN}  await page.goto('/products/eggs');\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('cart-note')).toHaveText('Added Eggs to the cart');\n`),
    'e2e/08-cart-count.spec.ts': spec('counts what was added', `${SIGN_IN}  await page.goto('/products/bread');\n  await page.getByTestId('add-to-cart').click();\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-count')).toHaveText('1 items');\n`),
    'e2e/09-search-eggs.spec.ts': spec('finds eggs', "  await page.goto('/search');\n  await page.getByTestId('search-input').fill('eggs');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('result-eggs')).toHaveText('Eggs — $4.20');\n"),
    'e2e/10-profile.spec.ts': spec('saves the display name', `${SIGN_IN}  await page.goto('/profile');\n  await page.getByTestId('profile-name').fill('Ada L');\n  await page.getByTestId('profile-save').click();\n  await expect(page.getByTestId('profile-saved')).toHaveText('Saved, Ada L');\n`),
  };
  const heal = (text: string) => Object.entries(RENAMED).reduce((code, [old, renamed]) => code.replaceAll(`'${old}'`, `'${renamed}'`), text);
  /** Two specs get "heals" that pass by checking less: refused at each of the 3 attempts. */
  const LOOSENED = new Set(['e2e/04-search-bread.spec.ts', 'e2e/09-search-eggs.spec.ts']);
  const answers = Object.entries(specs).map(([file, text]) => ({
    title: /test\('([^']+)'/.exec(text)![1]!,
    answer: fenced(LOOSENED.has(file) ? heal(text).replace(/\.toHaveText\('[^']+'\)/, '.toBeVisible()') : heal(text)),
  }));
  // The spec being healed is the one whose test's title the Medic's prompt quotes (every title is unique).
  fake.answerBy((request) => {
    const prompt = (request.messages ?? []).map((m) => m.content).join('\n');
    const found = answers.find((a) => prompt.includes(`test('${a.title}'`));
    return found ? { text: found.answer } : undefined;
  });
  const project = makeSuiteProject(v2.url, specs);
  const before = load();
  const started = performance.now();
  const run = await runCli(['heal', 'e2e', '--json'], { env: project.env(fake.url), cwd: project.dir });
  const seconds = (performance.now() - started) / 1000;
  const result = HealSuiteResult.parse(JSON.parse(run.stdout));
  const s = result.summary;
  console.log(
    `heal of 10 broken specs: ${s.healed} healed, ${s.not_healed} refused or not healed, ${s.passed} passed, ${s.regression} regressions; ${s.model_calls} model calls; ${seconds.toFixed(1)} s wall (exit ${run.code}); load average before ${before}, after ${load()}`,
  );
  for (const outcome of result.specs) console.log(`  ${outcome.file}: ${outcome.status} (${outcome.heal_attempts} attempts, ${(outcome.duration_ms / 1000).toFixed(1)} s)`);
  project.remove();
  await fake.close();
  await v2.close();
}
