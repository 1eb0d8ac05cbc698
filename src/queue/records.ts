/**
 * A job on the shared queue as the API shows it: BullMQ's job (its state, times, return value and
 * failure) with the stages its worker logged, read into the same JobView the in-process queue gives.
 */
import type { Job, Queue } from 'bullmq';
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

/** What BullMQ says when a job's workers died more often than max_stalled allows. */
const STALLED = /stalled more than allowable limit/;

/**
 * The state is read first: a job only moves on (waiting, active, then finished in one step with its
 * result), so the job read after it is at least as far along. Read the other way round, a job that
 * finished between the reads looked finished with no result, that is failed.
 */
export async function readJob(queue: Queue<QueuedData, PipelineResult>, id: string): Promise<JobView | undefined> {
  const state = await queue.getJobState(id);
  if (state === 'unknown') return undefined;
  const [job, logs] = await Promise.all([queue.getJob(id), queue.getJobLogs(id, 0, -1, true)]);
  if (!job) return undefined;
  return viewOf(job, state, logs.logs);
}

export function viewOf(job: QueuedJob, state: string, logs: string[]): JobView {
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
