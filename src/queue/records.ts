/**
 * A job on the shared queue as the API shows it: BullMQ's job (its state, times, return value and
 * failure) with the stages its worker logged, read into the same JobView the in-process queue gives.
 */
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobView, PipelineEvent } from '../contracts.ts';
import type { PipelineResult } from '../workflow/pipeline.ts';
import type { GenerateRequest } from '../workflow/pipeline.ts';

/** What a job carries through the queue. */
export interface QueuedData {
  /** outputPath: the spec's path relative to the project folder (each worker has its own checkout). */
  request: GenerateRequest & { outputPath: string };
  /** A digest of the caller's token: whose concurrency the job counts against. */
  owner: string;
  callback?: string;
}

export type QueuedJob = Job<QueuedData, PipelineResult>;

/**
 * KEYS: the queue's wait list, its delayed and prioritized sets. ARGV: a job id. Returns the jobs ahead
 * of the job in the wait list (workers take from its right end; -1 when it is not in it) and the jobs
 * held back (a caller at its concurrency limit, a priority), read in one step.
 */
const PLACE = `
local index = redis.call('LPOS', KEYS[1], ARGV[1])
local ahead = -1
if index then ahead = redis.call('LLEN', KEYS[1]) - 1 - index end
return {ahead, redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3]), redis.call('LLEN', KEYS[1])}
`;

/** Where a job is on the queue: jobs ahead of it in the wait list (undefined when it is not there), held back, and waiting in all. */
export interface Place {
  ahead: number | undefined;
  held: number;
  waiting: number;
}

/** `redis`: the connection the queue was made with. */
export async function placeOf(queue: Queue<QueuedData, PipelineResult>, redis: Redis, id: string): Promise<Place> {
  const [ahead, held, waiting] = (await redis.eval(PLACE, 3, queue.keys.wait!, queue.keys.delayed!, queue.keys.prioritized!, id)) as [number, number, number];
  return { ahead: ahead < 0 ? undefined : ahead, held, waiting };
}

/** What BullMQ says when a job's workers died more often than max_stalled allows. */
const STALLED = /stalled more than allowable limit/;

/**
 * The state is read first: a job only moves on (waiting, active, then finished in one step with its
 * result), so the job read after it is at least as far along. Read the other way round, a job that
 * finished between the reads looked finished with no result, that is failed.
 */
export async function readJob(queue: Queue<QueuedData, PipelineResult>, redis: Redis, id: string): Promise<JobView | undefined> {
  const state = await queue.getJobState(id);
  if (state === 'unknown') return undefined;
  const [job, logs, position] = await Promise.all([queue.getJob(id), queue.getJobLogs(id, 0, -1, true), positionOf(queue, redis, id, state)]);
  if (!job) return undefined;
  return viewOf(job, state, logs.logs, position);
}

/**
 * Jobs ahead of a queued job (0: next to start), as the in-process queue counts them: a waiting job's
 * place in the wait list; a job held back for its caller's limit goes back behind every waiting job.
 */
async function positionOf(queue: Queue<QueuedData, PipelineResult>, redis: Redis, id: string, state: string): Promise<number | undefined> {
  if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return undefined;
  const place = await placeOf(queue, redis, id);
  return state === 'waiting' ? place.ahead : place.waiting;
}

export function viewOf(job: QueuedJob, state: string, logs: string[], position?: number): JobView {
  const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);
  const result = state === 'completed' ? job.returnvalue : undefined;
  const status = state === 'completed' ? (result?.document.success ? 'done' : 'failed') : state === 'failed' ? 'failed' : state === 'active' ? 'running' : 'queued';
  const error = state === 'failed' ? job.failedReason : result && !result.document.success ? (result.document.error ?? 'the generation failed') : undefined;
  return JobView.parse({
    id: job.id,
    status,
    created_at: iso(job.timestamp),
    started_at: iso(job.processedOn),
    finished_at: status === 'done' || status === 'failed' ? iso(job.finishedOn ?? Date.now()) : null,
    ...(status === 'queued' && position !== undefined ? { queue_position: position } : {}),
    stages: logs.flatMap((line) => {
      try {
        const parsed = PipelineEvent.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    }),
    ...(result ? { result: result.document, exit_code: result.exitCode } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(state === 'failed' && STALLED.test(job.failedReason ?? '') ? { interrupted: true } : {}),
  });
}
