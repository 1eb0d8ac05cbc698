/**
 * The acceptance run of the shared queue, all real: a redis-server, `scribe serve --queue` API nodes
 * and `scribe worker` processes (the offline generator, the bundled demo app). Six jobs; one worker
 * killed with SIGKILL in the middle of a job; the first API node restarted meanwhile; a second node
 * answering for the first one's jobs, its event stream and the signed callbacks included.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { StatsEvent } from '../../src/stats/events.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { call, settled, startApi, startWorker, writeServerSettings, type ScribeProcess } from './processes.ts';

const TOKEN = 'queue-test-token';
const SECRET = 'queue-test-callback-secret';

let redis: RedisServer;
let demo: DemoApp;
let project: ScribeProject;
let receiver: Server;
const received: Array<{ body: string; signature: string | undefined }> = [];
const processes: ScribeProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  demo = await startDemoApp();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-scribe-signature'] as string | undefined });
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  project = makeScribeProject();
  // Short locks: a dead worker's job is taken up within seconds, not the production half minute.
  writeServerSettings(project.dir, {
    'queue.lock_ms': 4000,
    'queue.stalled_interval_ms': 1000,
    'queue.max_stalled': 3,
    'shutdown.grace_ms': 2000,
    'callbacks.allowed_hosts': ['127.0.0.1'],
    'callbacks.backoff_base_ms': 100,
  });
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await redis?.close();
  await demo?.close();
  receiver?.close();
  project?.remove();
});

it('six jobs through two API nodes and two workers: one worker killed mid-job, an API node restarted, nothing lost or done twice', { timeout: 900_000 }, async () => {
  // No model configured: the offline generator writes the specs.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home, SCRIBE_API_TOKEN: TOKEN, SCRIBE_CALLBACK_SECRET: SECRET };
  const first = await startApi(redis.url, project.dir, env);
  const second = await startApi(redis.url, project.dir, env);
  processes.push(first, second);
  const doomed = await startWorker(redis.url, project.dir, env, 1);
  const survivor = await startWorker(redis.url, project.dir, env, 2);
  processes.push(doomed, survivor);

  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;
  const requests = [
    ...[1, 2, 3].map((n) => ({ description: 'search for playwright and see results', feature: `queue search ${n}`, url: `${demo.url}/search` })),
    ...[1, 2, 3].map((n) => ({ description: 'add "Water the plants" and see it in the list', feature: `queue todos ${n}`, url: `${demo.url}/todos` })),
  ];
  const ids: string[] = [];
  for (const request of requests) {
    const posted = await call(first.url, TOKEN, 'POST', '/v1/generate', { ...request, run: false, callback_url: callbackUrl });
    expect(posted.status).toBe(202);
    ids.push(posted.json.id);
  }

  // The doomed worker dies with SIGKILL in the middle of its first job.
  const taken = await doomed.line((entry) => entry.msg === 'job' && entry.status === 'running', 'the doomed worker starts a job');
  const killedJob = taken.job as string;
  await doomed.stop('SIGKILL');

  // The first API node restarts; meanwhile the second one answers for its jobs.
  expect(await first.stop()).toBe(0);
  for (const id of ids) expect((await call(second.url, TOKEN, 'GET', `/v1/jobs/${id}`)).status).toBe(200);
  const restarted = await startApi(redis.url, project.dir, env);
  processes.push(restarted);

  // The killed worker's job is taken up by the other worker (BullMQ's stalled-job check).
  await survivor.line((entry) => entry.msg === 'job stalled: its worker stopped answering' && entry.job === killedJob, 'the survivor notices the stalled job');
  await survivor.line((entry) => entry.msg === 'job' && entry.status === 'running' && entry.job === killedJob, 'the survivor takes the job up');

  const jobs = [];
  for (const id of ids) jobs.push(await settled(restarted.url, TOKEN, id));
  for (const job of jobs) {
    expect(job, JSON.stringify({ error: job.error, result: job.result?.error })).toMatchObject({ status: 'done', exit_code: 0 });
    // Written once, where asked: the accepted spec exists and nothing was kept for review.
    expect(existsSync(path.join(project.dir, job.result!.testPath!))).toBe(true);
  }
  const written = readdirSync(path.join(project.dir, 'generated-tests'), { recursive: true }).map(String);
  expect(written.filter((file) => file.endsWith('.spec.ts'))).toHaveLength(6);
  expect(written.filter((file) => file.includes('needs-review'))).toEqual([]);

  // Every generation has exactly one outcome in the shared stream, and both API nodes say so.
  const reader = new Redis(redis.url);
  const stream = await reader.xrange('scribe:scribe:stats', '-', '+');
  reader.disconnect();
  const events = stream.map(([, fields]) => StatsEvent.parse(JSON.parse(fields[1]!)));
  for (const id of ids) expect(events.filter((e) => e.generation === id && (e.type === 'success' || e.type === 'give_up')).map((e) => e.type)).toEqual(['success']);
  for (const node of [second, restarted]) {
    const stats = await call(node.url, TOKEN, 'GET', '/v1/stats');
    expect(stats.json).toMatchObject({ generations: 6, generations_succeeded: 6, generations_gave_up: 0 });
  }

  // The second node streams a job of the first one, resuming after its first stage.
  const killed = jobs.find((job) => job.id === killedJob)!;
  const stream2 = await fetch(`${second.url}/v1/jobs/${killedJob}/events`, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': '1' } });
  const text = await stream2.text();
  expect(text.match(/^id: (\d+)$/gm)?.[0]).toBe('id: 2');
  expect(text.match(/^event: stage$/gm)).toHaveLength(killed.stages.length - 1);
  expect(text).toMatch(/event: result\ndata: \{"id":"[0-9a-f-]{36}","status":"done"/);

  // Each job called back once, signed with the shared secret.
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(6);
  const calledBack = received.map(({ body, signature }) => {
    expect(signature).toBe(`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`);
    return JSON.parse(body) as { id: string; status: string };
  });
  expect(calledBack.map((job) => job.id).sort()).toEqual([...ids].sort());
  expect(calledBack.every((job) => job.status === 'done')).toBe(true);
});
