/**
 * The shared queue on this machine: accepted specs per minute with 1, 2 and 4 `scribe worker`
 * processes (one job at a time each, as one small machine would run), and the queue's own overhead
 * per job — enqueue to start, an idle worker waiting — against the in-process queue of `scribe serve`.
 *
 * All real: a redis-server on a free loopback port, `scribe serve --queue` and `scribe worker`
 * processes, the offline generator on the bundled demo app (search and todo requests, each its own
 * spec). Each throughput round submits JOBS jobs at once and times the first POST to the last job done.
 *
 *   npx tsx bench/queue-throughput.ts            # JOBS=8 RUN=0 by default
 *   JOBS=12 RUN=1 npx tsx bench/queue-throughput.ts   # with a Playwright run of every spec
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startDemoApp } from '../src/demo-app/server.ts';
import { startRedis } from '../test/fixtures/redis-server.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { call, settled, startApi, startScribe, startWorker, writeServerSettings } from '../test/queue/processes.ts';

const JOBS = Number(process.env.JOBS ?? 8);
const RUN = process.env.RUN === '1';
const OVERHEAD_SAMPLES = Number(process.env.SAMPLES ?? 5);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const startDelay = (job: { created_at: string; started_at: string | null }) => Date.parse(job.started_at!) - Date.parse(job.created_at);

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

try {
  console.log(`queue bench: ${JOBS} jobs a round, run: ${RUN}, offline generator, demo app; ${new Date().toISOString()}`);
  const api = await startApi(redis.url, project.dir, env);

  for (const workers of [1, 2, 4]) {
    const started = await Promise.all(Array.from({ length: workers }, () => startWorker(redis.url, project.dir, env, 1)));
    round += 1;
    const began = performance.now();
    const ids = [];
    for (let n = 0; n < JOBS; n++) ids.push((await call(api.url, TOKEN, 'POST', '/v1/generate', request(n))).json.id as string);
    const jobs = await Promise.all(ids.map((id) => settled(api.url, TOKEN, id)));
    const minutes = (performance.now() - began) / 60_000;
    const accepted = jobs.filter((job) => job.status === 'done').length;
    console.log(`${workers} worker${workers === 1 ? ' ' : 's'}: ${accepted}/${JOBS} accepted in ${(minutes * 60).toFixed(1)} s = ${(accepted / minutes).toFixed(1)} accepted specs/min; median job ${(median(jobs.map((j) => Date.parse(j.finished_at!) - Date.parse(j.started_at!))) / 1000).toFixed(1)} s`);
    for (const job of jobs.filter((j) => j.status !== 'done')) console.log(`  not accepted: ${job.id}: ${(job.error ?? '').split('\n')[0]}`);
    await Promise.all(started.map((worker) => worker.stop()));
  }

  const worker = await startWorker(redis.url, project.dir, env, 1);
  const queued = await overhead(api.url, OVERHEAD_SAMPLES);
  await worker.stop();
  await api.stop();

  const local = startScribe(['serve', '--port', '0'], project.dir, env);
  const localUrl = (await local.line((entry) => entry.msg === 'listening', 'listening')).url as string;
  const inProcess = await overhead(localUrl, OVERHEAD_SAMPLES);
  await local.stop();
  console.log(`enqueue to start, idle worker (median of ${OVERHEAD_SAMPLES}): shared queue ${median(queued)} ms [${queued.join(', ')}], in-process ${median(inProcess)} ms [${inProcess.join(', ')}]`);
} finally {
  await redis.close();
  await demo.close();
  rmSync(path.join(project.dir, 'generated-tests'), { recursive: true, force: true });
  project.remove();
}
