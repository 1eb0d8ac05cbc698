/**
 * The shared queue's limits and operations against a real redis-server: a full queue (429), two API
 * nodes racing for its last places, cancel (a queued job, and a running one on a worker process), the
 * job timeout, per-caller concurrency, a worker draining on SIGTERM (its job handed back to another),
 * and Redis going away (the API answers 503, then 200; a worker reconnects and goes on).
 * The model is the scripted fake: a call that hangs keeps a job running as long as a test needs.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServerConfig, type ServerConfig } from '../../src/config/server.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { StatsEvent } from '../../src/stats/events.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty, GOOD_SPEC } from '../fixtures/model-answers.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { call, settled, startWorker, writeServerSettings, type ScribeProcess } from './processes.ts';

const TOKEN = 'limits-test-token';
const REQUEST = { description: 'search for milk and see it in the results', run: false };

let redis: RedisServer;
let fake: FakeOpenAI;
let project: ScribeProject;
let api: RunningServer | undefined;
const workers: ScribeProcess[] = [];

/** The bundled settings with short locks, as the project's agents/server.yaml has them too. */
const SETTINGS: Record<string, unknown> = { 'queue.lock_ms': 4000, 'queue.stalled_interval_ms': 1000, 'queue.command_timeout_ms': 1500, 'shutdown.grace_ms': 500 };

function configWith(settings: Record<string, unknown>): ServerConfig {
  const config = structuredClone(loadServerConfig());
  for (const [key, value] of Object.entries(settings)) {
    const [section, name] = key.split('.') as [keyof ServerConfig, string];
    (config[section] as Record<string, unknown>)[name] = value;
  }
  return config;
}

async function startApi(settings: Record<string, unknown> = {}): Promise<string> {
  const all = { ...SETTINGS, ...settings };
  writeServerSettings(project.dir, all);
  api = await startServer({ host: '127.0.0.1', port: 0, cwd: project.dir, env: env(), config: configWith(all), log: () => {}, queue: redis.url });
  return api.url;
}

const env = () => project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN });

async function outcomes(id: string): Promise<string[]> {
  const reader = new Redis(redis.url);
  const stream = await reader.xrange('scribe:scribe:stats', '-', '+');
  reader.disconnect();
  return stream.map(([, fields]) => StatsEvent.parse(JSON.parse(fields[1]!))).filter((e) => e.generation === id && (e.type === 'success' || e.type === 'give_up')).map((e) => (e.type === 'give_up' ? `give_up:${e.reason}` : e.type));
}

beforeEach(async () => {
  redis = await startRedis();
  fake = await startFakeOpenAI();
  // A model call that hangs is given up only after two minutes: the job runs until a test stops it.
  project = makeScribeProject({ 'provider.request_timeout_ms': 120_000, 'provider.http_retries': 0 });
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
  await api?.stop();
  api = undefined;
  await fake.close();
  await redis.close();
  project.remove();
});

describe('the shared queue', () => {
  it('answers 429 with Retry-After past max_queued, and cancels a queued job: failed at once, 409 the second time', async () => {
    const url = await startApi({ 'jobs.max_queued': 2 });
    const first = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'one' });
    const second = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'two' });
    expect([first.status, second.status]).toEqual([202, 202]);
    const third = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'three' });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('10');
    expect(third.json).toMatchObject({ error: 'queue_full' });

    const cancelled = await call(url, TOKEN, 'DELETE', `/v1/jobs/${first.json.id}`);
    expect(cancelled).toMatchObject({ status: 200, json: { id: first.json.id, status: 'failed', error: 'cancelled by DELETE /v1/jobs/:id', started_at: null } });
    expect((await call(url, TOKEN, 'GET', `/v1/jobs/${first.json.id}`)).json).toMatchObject({ status: 'failed' });
    expect((await call(url, TOKEN, 'DELETE', `/v1/jobs/${first.json.id}`)).status).toBe(409);
    expect((await call(url, TOKEN, 'DELETE', '/v1/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Its place is free again.
    expect((await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'four' })).status).toBe(202);
    expect(fake.requests).toHaveLength(0);
  });

  it('two API nodes racing for the last places: exactly max_queued jobs accepted in all, each with its own queue_position', async () => {
    const url = await startApi({ 'jobs.max_queued': 5 });
    const other = await startServer({ host: '127.0.0.1', port: 0, cwd: project.dir, env: env(), config: configWith({ ...SETTINGS, 'jobs.max_queued': 5 }), log: () => {}, queue: redis.url });
    try {
      const answers = await Promise.all(Array.from({ length: 16 }, (_, n) => call(n % 2 === 0 ? url : other.url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: `race ${n}` })));
      const accepted = answers.filter((answer) => answer.status === 202);
      expect(accepted).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(11);
      // The queue holds those five and nothing else; the two nodes agree on where each one is.
      expect(await (await fetch(`${other.url}/healthz`)).json()).toMatchObject({ queued: 5 });
      const positions = await Promise.all(accepted.map(async (answer, n) => (await call(n % 2 === 0 ? url : other.url, TOKEN, 'GET', `/v1/jobs/${answer.json.id}`)).json.queue_position));
      expect([...positions].sort()).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await other.stop();
    }
  });

  it('a Redis that goes away: 503 with a clear body and a healthz that says so, not a hang; back to 200 once it returns', async () => {
    const url = await startApi();
    const posted = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'before' });
    expect(posted.status).toBe(202);
    const healthy = await fetch(`${url}/healthz`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toMatchObject({ status: 'ok', queued: 1, running: 0, queue: { url: `${redis.url}`, reachable: true } });

    await redis.stop();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'queue_unreachable', queue: { url: `${redis.url}`, reachable: false } });
    for (const [method, route] of [['GET', `/v1/jobs/${posted.json.id}`], ['POST', '/v1/generate'], ['GET', '/v1/stats']] as const) {
      const answer = await call(url, TOKEN, method, route, method === 'POST' ? { ...REQUEST, feature: 'during' } : undefined);
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({ error: 'queue_unavailable', message: expect.stringContaining(`the job queue at ${redis.url}`) });
    }

    await redis.start();
    await expect.poll(async () => (await fetch(`${url}/healthz`)).status, { timeout: 20_000 }).toBe(200);
    expect((await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'after' })).status).toBe(202);
  });

  it('a worker outlives Redis going away: it says so in its JSON log, reconnects, and runs the next job', { timeout: 400_000 }, async () => {
    const url = await startApi();
    const worker = await startWorker(redis.url, project.dir, env(), 1);
    workers.push(worker);
    await redis.stop();
    await worker.line((entry) => entry.msg === 'queue unreachable; reconnecting', 'the worker notices Redis is gone', 30_000);
    await redis.start();
    await worker.line((entry) => entry.msg === 'queue reachable again', 'the worker reconnects', 30_000);

    // Redis came back empty (no persistence here): a new job, taken by the same worker process. The API
    // node may need a moment to reconnect too (503 until then).
    fake.reply({ text: chatty(GOOD_SPEC) });
    let posted = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'after the outage' });
    for (let tries = 0; posted.status === 503 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      posted = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'after the outage' });
    }
    expect(posted.status).toBe(202);
    expect(await settled(url, TOKEN, posted.json.id)).toMatchObject({ status: 'done', exit_code: 0 });
    // The worker logs a job's end once the queue has it as finished, so the line may follow the API's answer.
    await worker.line((entry) => entry.msg === 'job' && entry.job === posted.json.id && entry.status === 'done', 'the worker logs the job done', 30_000);
    expect(worker.logs.filter((entry) => entry.msg === 'not json')).toEqual([]);
  });

  it('cancels a running job on whatever worker has it; its generation ends once', { timeout: 400_000 }, async () => {
    const url = await startApi();
    const worker = await startWorker(redis.url, project.dir, env(), 1);
    workers.push(worker);
    fake.reply({ hang: true });
    const cancelled = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'cancelled' });
    await expect.poll(() => fake.requests.length, { timeout: 300_000 }).toBe(1);

    expect((await call(url, TOKEN, 'DELETE', `/v1/jobs/${cancelled.json.id}`)).status).toBe(200);
    const stopped = await settled(url, TOKEN, cancelled.json.id);
    expect(stopped).toMatchObject({ status: 'failed', error: 'cancelled by DELETE /v1/jobs/:id' });
    expect(stopped.started_at).not.toBeNull();
    // One outcome: the pipeline's own give-up as it stopped (its reason: where it was when stopped).
    expect(await outcomes(cancelled.json.id)).toEqual([expect.stringMatching(/^give_up:/)]);
  });

  it('stops a job still running after jobs.timeout_ms and fails it saying so', { timeout: 400_000 }, async () => {
    const url = await startApi({ 'jobs.timeout_ms': 5000 });
    const worker = await startWorker(redis.url, project.dir, env(), 1);
    workers.push(worker);
    fake.reply({ hang: true });
    const posted = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'timed out' });
    const late = await settled(url, TOKEN, posted.json.id);
    expect(late).toMatchObject({ status: 'failed', error: 'the job did not finish within 5000 ms (agents/server.yaml jobs.timeout_ms)' });
    expect(await outcomes(posted.json.id)).toEqual([expect.stringMatching(/^give_up:/)]);
  });

  it('runs at most per_caller_concurrency jobs of one caller at once, however many workers are free', { timeout: 400_000 }, async () => {
    const url = await startApi({ 'queue.per_caller_concurrency': 1 });
    const worker = await startWorker(redis.url, project.dir, env(), 2);
    workers.push(worker);
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    const first = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'first' });
    const second = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'second' });
    await expect.poll(() => fake.requests.length, { timeout: 120_000 }).toBe(1);
    // The second job waits its turn though a slot of the worker is free.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(fake.requests).toHaveLength(1);
    expect((await call(url, TOKEN, 'GET', `/v1/jobs/${second.json.id}`)).json.status).toBe('queued');

    await call(url, TOKEN, 'DELETE', `/v1/jobs/${first.json.id}`);
    expect(await settled(url, TOKEN, second.json.id)).toMatchObject({ status: 'done' });
  });

  it('a worker told to stop hands its running job back; another worker finishes it, one outcome in all', { timeout: 400_000 }, async () => {
    const url = await startApi();
    const leaving = await startWorker(redis.url, project.dir, env(), 1);
    workers.push(leaving);
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    const posted = await call(url, TOKEN, 'POST', '/v1/generate', { ...REQUEST, feature: 'handed back' });
    await expect.poll(() => fake.requests.length, { timeout: 120_000 }).toBe(1);

    // grace_ms is 500: the hanging job cannot finish in time, so it goes back on the queue.
    expect(await leaving.stop('SIGTERM')).toBe(0);
    expect(leaving.logs.find((entry) => entry.msg === 'stopped')).toMatchObject({ handed_back: 1 });
    expect((await call(url, TOKEN, 'GET', `/v1/jobs/${posted.json.id}`)).json.status).toBe('queued');

    const staying = await startWorker(redis.url, project.dir, env(), 1);
    workers.push(staying);
    expect(await settled(url, TOKEN, posted.json.id)).toMatchObject({ status: 'done', exit_code: 0 });
    expect(await outcomes(posted.json.id)).toEqual(['success']);
  });
});
