/**
 * Where the HTTP API's jobs live and run: the in-process queue (in-process.ts, the embedded default)
 * or a shared queue that workers on other machines take jobs from (src/queue/). The routes in app.ts
 * speak only this interface, so every answer — a job, its stages, the statistics — has the same shape
 * whichever backend holds it.
 */
import type { JobView } from '../contracts.ts';
import type { StatsDocument } from '../stats/index.ts';
import type { BatchItem, BatchResult } from '../workflow/batch.ts';
import type { GenerateRequest } from '../workflow/pipeline.ts';

/** A job as the API accepts it: the checked request, the spec it may write, and who asked. */
export interface NewJob {
  /** The request, its outputPath settled to the spec's path relative to the project folder. */
  request: GenerateRequest & { outputPath: string };
  /** Where the finished job is POSTed, signed (callback.ts). */
  callback?: URL;
  /** Who asked: a digest of the bearer token (never the token), for per-caller fairness. */
  owner: string;
}

export type SubmitOutcome = { accepted: true; job: JobView } | { accepted: false; reason: 'full' | 'closed' };

/** DELETE /v1/jobs/:id: the job as it now is, or why nothing changed. */
export type CancelOutcome = { cancelled: true; job: JobView } | { cancelled: false; reason: 'unknown' | 'finished'; job?: JobView };

export interface BackendHealth {
  /** Whether jobs can be taken and answered for now. */
  ok: boolean;
  queued: number;
  running: number;
  /** The shared queue's state, when there is one: reachable or why not. */
  queue?: { url: string; reachable: boolean; error?: string };
}

export interface DrainSummary {
  /** Running jobs that finished within the grace period. */
  finished: number;
  /** Running jobs still at work when it ran out: aborted and marked failed. */
  abandoned: number;
  /** Queued jobs that never started: marked failed. */
  cancelled: number;
}

/** POST /v1/batch's record: its items and, per item, its job or the spec an earlier batch accepted. */
export interface BatchRecord {
  id: string;
  /** ISO time the batch was taken. */
  started: string;
  items: BatchItem[];
  slots: Array<{ job: string } | { skipped: string }>;
  /** The summary, once every job has finished. */
  result?: BatchResult;
}

/** A change to a job a client is watching: the job as it now is. */
export type JobListener = (job: JobView) => void;

export interface JobBackend {
  submit(job: NewJob): Promise<SubmitOutcome>;
  get(id: string): Promise<JobView | undefined>;
  /** Calls `listener` with the job after each change (a new stage, the end) until unsubscribed. */
  watch(id: string, listener: JobListener): Promise<() => void>;
  cancel(id: string): Promise<CancelOutcome>;
  health(): Promise<BackendHealth>;
  /** Keeps a batch's record where its jobs are (kept as long as finished jobs), so every API node answers for it. */
  saveBatch(record: BatchRecord): Promise<void>;
  /** The batch's record, with its summary once one was kept. */
  batch(id: string): Promise<BatchRecord | undefined>;
  /** Keeps the batch's summary unless one is kept already: true for the one caller that kept it (and records it in the ledger). */
  settleBatch(id: string, result: BatchResult): Promise<boolean>;
  /** The `stats --json` document of every generation this backend's jobs ran. */
  stats(): Promise<StatsDocument>;
  /** Refuses new jobs from now on and settles (or hands back) those it holds. */
  shutdown(graceMs: number): Promise<DrainSummary>;
}

/** The shared queue cannot be reached: the API answers 503 saying so, rather than hang. */
export class BackendUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendUnavailable';
  }
}
