/**
 * The shared queue on this machine: accepted specs per minute with 1, 2 and 4 `scribe worker`
 * processes (one job at a time each, as one small machine would run), and the queue's own overhead
 * per job — enqueue to start, an idle worker waiting — against the in-process queue of `scribe serve`.
 *
 * All real: a redis-server on a free loopback port, `scribe serve --queue` and `scribe worker`
 * processes, the offline generator on the bundled demo app (search and todo requests, each its own
 * spec). Each round starts its workers and first gives each one job (its cold start: loading Scribe
 * into the job's thread, the first type checker), timed apart; then it submits JOBS jobs at once and
 * times the first POST to the last job done: the rate of workers that are already up, as a deployment's are.
 *
 *   nice -n 15 npx tsx bench/queue-throughput.ts                     # JOBS=8 RUN=0 SAMPLES=5
 *   JOBS=12 RUN=1 nice -n 15 npx tsx bench/queue-throughput.ts      # with a Playwright run of every spec
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { JobView } from '../src/contracts.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { startRedis } from '../test/fixtures/redis-server.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { call, settled, startApi, startScribe, startWorker, writeServerSettings } from '../test/queue/processes.ts';

const JOBS = Number(process.env.JOBS ?? 8);
const RUN = process.env.RUN === '1';
const OVERHEAD_SAMPLES = Number(process.env.SAMPLES ?? 5);
const WORKER_COUNTS = (process.env.WORKERS ?? '1,2,4').split(',').map(Number);
const TOKEN = 'bench-token';

const redis = await startRedis();
const demo = await startDemoApp();
const project = makeScribeProject();
writeServerSettings(project.dir, { 'jobs.max_queued': 1000 });
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home, SCRIBE_API_TOKEN: TOKEN };

let round = 0;
const request = (n: number) => {
  const kind = n % 2 === 0 ? { description: 'search for playwright and see results', url: `${demo.url}/search` } : { description: 'add "Water the plants" and see it in the list', url: `${demo.url}/todos` };
  return { ...kind, feature: `bench ${round} ${n}`, run: RUN };
};

const median = (values: number[]) => (values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
const startDelay = (job: JobView) => Date.parse(job.started_at!) - Date.parse(job.created_at);
const duration = (job: JobView) => Date.parse(job.finished_at!) - Date.parse(job.started_at!);
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');

/** Submits `count` jobs at once and waits for all of them. */
async function batch(url: string, count: number): Promise<JobView[]> {
  round += 1;
  const ids: string[] = [];
  for (let n = 0; n < count; n++) ids.push((await call(url, TOKEN, 'POST', '/v1/generate', request(n))).json.id as string);
  return Promise.all(ids.map((id) => settled(url, TOKEN, id)));
}

/** Submits `count` jobs one after another to an idle backend; the enqueue-to-start delay of each. */
async function overhead(url: string, count: number): Promise<number[]> {
  const delays: number[] = [];
  round += 1;
  for (let n = 0; n < count; n++) {
    const posted = await call(url, TOKEN, 'POST', '/v1/generate', request(n));
    delays.push(startDelay(await settled(url, TOKEN, posted.json.id)));
  }
  return delays;
}

/** The median of each stage's wall time over `jobs` (timings_ms of the `generate --json` document). */
function stageMedians(jobs: JobView[]): string {
  const stages = [...new Set(jobs.flatMap((job) => Object.keys(job.result?.timings_ms ?? {})))].filter((stage) => stage !== 'total');
  return stages.map((stage) => `${stage} ${seconds(median(jobs.flatMap((job) => job.result?.timings_ms?.[stage] ?? [])))}`).join(', ');
}

interface Row {
  workers: number;
  accepted: number;
  wallS: number;
  perMinute: number;
  medianJobS: number;
  coldJobS: number;
  stages: string;
  load: string;
}

try {
  console.log(`queue bench: ${JOBS} jobs a round, run: ${RUN}, offline generator, demo app; ${new Date().toISOString()}; load average ${load()}`);
  const api = await startApi(redis.url, project.dir, env);
  const rows: Row[] = [];
  for (const workers of WORKER_COUNTS) {
    const started = await Promise.all(Array.from({ length: workers }, () => startWorker(redis.url, project.dir, env, 1)));
    const cold = await batch(api.url, workers);
    const began = performance.now();
    const jobs = await batch(api.url, JOBS);
    const minutes = (performance.now() - began) / 60_000;
    const accepted = jobs.filter((job) => job.status === 'done').length;
    const row: Row = { workers, accepted, wallS: minutes * 60, perMinute: accepted / minutes, medianJobS: median(jobs.map(duration)) / 1000, coldJobS: median(cold.map(duration)) / 1000, stages: stageMedians(jobs), load: load() };
    rows.push(row);
    console.log(`${workers} worker(s): ${accepted}/${JOBS} accepted in ${row.wallS.toFixed(1)} s (load average ${row.load})`);
    for (const job of jobs.filter((j) => j.status !== 'done')) console.log(`  ${workers} workers, not accepted: ${job.id}: ${(job.error ?? job.result?.error ?? '').split('\n')[0]}`);
    await Promise.all(started.map((worker) => worker.stop()));
  }

  const worker = await startWorker(redis.url, project.dir, env, 1);
  await batch(api.url, 1);
  const queued = await overhead(api.url, OVERHEAD_SAMPLES);
  await worker.stop();
  await api.stop();

  const local = startScribe(['serve', '--port', '0'], project.dir, env);
  const localUrl = (await local.line((entry) => entry.msg === 'listening', 'listening')).url as string;
  await batch(localUrl, 1);
  const inProcess = await overhead(localUrl, OVERHEAD_SAMPLES);
  await local.stop();

  console.log('');
  console.log('| workers | accepted | wall s | accepted specs/min | median job s | cold first job s | median stage s (warm) | load after |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.workers} | ${row.accepted}/${JOBS} | ${row.wallS.toFixed(1)} | ${row.perMinute.toFixed(2)} | ${row.medianJobS.toFixed(1)} | ${row.coldJobS.toFixed(1)} | ${row.stages} | ${row.load} |`);
  }
  console.log('');
  console.log('| enqueue to start, idle warm worker | median ms | samples ms |');
  console.log('|---|---|---|');
  console.log(`| shared queue (Redis) | ${median(queued)} | ${queued.join(', ')} |`);
  console.log(`| in-process | ${median(inProcess)} | ${inProcess.join(', ')} |`);
  console.log(`load average at the end: ${load()}`);
} finally {
  await redis.close();
  await demo.close();
  rmSync(path.join(project.dir, 'generated-tests'), { recursive: true, force: true });
  project.remove();
}
