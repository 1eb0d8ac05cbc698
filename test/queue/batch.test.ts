/**
 * POST /v1/batch with a shared queue, all real: a redis-server, two `scribe serve --queue` API nodes and one
 * `scribe worker` (the offline generator, the bundled demo app). The batch posted to the first node is
 * answered by the second, which follows it to its summary; both nodes see it finish, and it is recorded in
 * the ledger once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { BatchResult, readBatches } from '../../src/workflow/batch.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { call, startApi, startWorker, type ScribeProcess } from './processes.ts';

const TOKEN = 'queue-batch-token';

let redis: RedisServer;
let demo: DemoApp;
let project: ScribeProject;
const processes: ScribeProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  demo = await startDemoApp();
  project = makeScribeProject();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await redis?.close();
  await demo?.close();
  project?.remove();
});

/** Polls the batch on an API node until it is done (bounded); every answer on the way is a 200. */
async function doneBatch(base: string, id: string): Promise<{ done: boolean; result?: unknown; scenarios: Array<{ job: string | null; status: string }> }> {
  for (let poll = 0; poll < 1200; poll++) {
    const { status, json } = await call(base, TOKEN, 'GET', `/v1/batches/${id}`);
    expect(status, JSON.stringify(json)).toBe(200);
    if (json.done) return json;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`batch ${id} did not finish`);
}

it('a batch posted to one API node is answered by another, and recorded once', { timeout: 600_000 }, async () => {
  // No model configured: the offline generator writes the specs.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home, SCRIBE_API_TOKEN: TOKEN };
  const [first, second] = await Promise.all([startApi(redis.url, project.dir, env), startApi(redis.url, project.dir, env)]);
  processes.push(first, second);
  processes.push(await startWorker(redis.url, project.dir, env, 1));

  const requests = [
    { description: 'search for playwright and see results', feature: 'queue batch search', url: `${demo.url}/search`, run: false },
    { description: 'add "Water the plants" and see it in the list', feature: 'queue batch todos', url: `${demo.url}/todos`, run: false },
  ];
  const posted = await call(first.url, TOKEN, 'POST', '/v1/batch', { requests });
  expect(posted.status, JSON.stringify(posted.json)).toBe(202);
  const jobs = posted.json.scenarios.map((s: { job: string | null }) => s.job);
  expect(jobs).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);

  // The other node knows the batch from the start, with the same jobs.
  const early = await call(second.url, TOKEN, 'GET', `/v1/batches/${posted.json.batch}`);
  expect(early.status, JSON.stringify(early.json)).toBe(200);
  expect(early.json.scenarios.map((s: { job: string | null }) => s.job)).toEqual(jobs);

  // Both nodes follow it to the end; of the two that see it finish, one records it.
  const [onSecond, onFirst] = await Promise.all([doneBatch(second.url, posted.json.batch), doneBatch(first.url, posted.json.batch)]);
  const result = BatchResult.parse(onSecond.result);
  expect(result.scenarios.filter((s) => s.status !== 'accepted'), JSON.stringify(result.scenarios)).toEqual([]);
  expect(result).toMatchObject({ batch: posted.json.batch, success: true, summary: { scenarios: 2, accepted: 2, skipped: 0, failed: 0 } });
  expect(onSecond.scenarios.map((s) => s.job)).toEqual(jobs);
  expect(BatchResult.parse(onFirst.result)).toEqual(result);
  expect(readBatches(project.home).map((b) => b.batch)).toEqual([posted.json.batch]);

  // A batch no node took is unknown to both.
  const unknown = '00000000-0000-4000-8000-000000000000';
  for (const node of [first, second]) {
    const missing = await call(node.url, TOKEN, 'GET', `/v1/batches/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: 'batch_not_found' });
  }
});
