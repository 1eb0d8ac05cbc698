/**
 * A job's record read from the shared queue while its worker finishes it: the read takes more than one
 * Redis round trip, and the job may complete between them. The record must then show the job as it was
 * before (running) or after (done), never a mix: a finished state with no result read as a failure
 * once reached a signed callback and an SSE stream as "failed" for a job that was done.
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readJob, type QueuedData } from '../../src/queue/records.ts';
import type { PipelineResult } from '../../src/workflow/pipeline.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';

let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.close();
});

const RESULT = { exitCode: 0, document: { success: true, testPath: 'generated-tests/a.spec.ts', attempts: 1, issues: [], critic: null, runner: null, error: null } } as unknown as PipelineResult;

/**
 * The queue as readJob sees it, except that the job completes right after readJob's first read of
 * Redis answers (whichever read that is), before its next one is sent.
 */
function completingAfterFirstRead(queue: Queue<QueuedData, PipelineResult>, complete: () => Promise<void>): Queue<QueuedData, PipelineResult> {
  let first = true;
  return new Proxy(queue, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
        if (first) {
          first = false;
          await complete();
        }
        return answer;
      };
    },
  });
}

it('shows a job that completes during the read as running or done, never failed', { timeout: 60_000 }, async () => {
  const name = 'records-race';
  const connection = new Redis(redis.url);
  const queue = new Queue<QueuedData, PipelineResult>(name, { connection });
  let finish!: () => void;
  let started!: (id: string) => void;
  const taken = new Promise<string>((resolve) => (started = resolve));
  const worker = new Worker<QueuedData, PipelineResult>(
    name,
    async (job: Job<QueuedData, PipelineResult>) => {
      started(job.id!);
      await new Promise<void>((release) => (finish = release));
      return RESULT;
    },
    { connection: { url: redis.url, maxRetriesPerRequest: null } },
  );
  const completed = new Promise<void>((done) => worker.once('completed', () => done()));
  await queue.add('generate', { request: { description: 'd', outputPath: 'a.spec.ts' } as QueuedData['request'], owner: 'o' }, { jobId: randomUUID() });
  const id = await taken;

  const seen = await readJob(
    completingAfterFirstRead(queue, async () => {
      finish();
      await completed;
    }),
    connection,
    id,
  );
  expect(['running', 'done']).toContain(seen!.status);
  // Once completed, the record is done with its result.
  expect(await readJob(queue, connection, id)).toMatchObject({ status: 'done', exit_code: 0, result: { success: true } });
  await worker.close();
  await queue.close();
  connection.disconnect();
});

it('gives a queued job its queue_position: the jobs a worker takes before it', { timeout: 60_000 }, async () => {
  const name = 'records-position';
  const connection = new Redis(redis.url);
  const queue = new Queue<QueuedData, PipelineResult>(name, { connection });
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  for (const id of ids) await queue.add('generate', { request: { description: 'd', outputPath: `${id}.spec.ts` } as QueuedData['request'], owner: 'o' }, { jobId: id });
  const positions = async () => Promise.all(ids.map(async (id) => (await readJob(queue, connection, id))!.queue_position));
  expect(await positions()).toEqual([0, 1, 2]);

  // A worker takes the first; the others move up, and the running one has no position.
  let release!: () => void;
  let taken!: (id: string) => void;
  const first = new Promise<string>((resolve) => (taken = resolve));
  const worker = new Worker<QueuedData, PipelineResult>(
    name,
    async (job: Job<QueuedData, PipelineResult>) => {
      taken(job.id!);
      await new Promise<void>((resolve) => (release = resolve));
      return RESULT;
    },
    { connection: { url: redis.url, maxRetriesPerRequest: null }, concurrency: 1 },
  );
  expect(await first).toBe(ids[0]);
  expect(await positions()).toEqual([undefined, 0, 1]);
  expect((await readJob(queue, connection, ids[0]!))!.status).toBe('running');
  release();
  await worker.close();
  await queue.close();
  connection.disconnect();
});
