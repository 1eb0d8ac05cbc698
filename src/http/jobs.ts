/**
 * The job queue behind POST /v1/generate: at most `concurrency` jobs run at once, at most `maxQueued`
 * wait; each job records the pipeline's stages as they happen. Finished jobs stay readable for
 * `retentionMs` (and at most `maxRetained` of them), then they are forgotten. With a store, every
 * change of a job is on disk too, and a restarted queue answers for the jobs of the one before.
 */
import { randomUUID } from 'node:crypto';
import type { JobStatus, JobView, PipelineEvent } from '../contracts.ts';
import type { PipelineResult } from '../workflow/pipeline.ts';
import type { CancelOutcome, DrainSummary, SubmitOutcome } from './backend.ts';
import type { JobStore } from './job-store.ts';
import { settleWithin } from '../util/deadline.ts';

export type { DrainSummary, SubmitOutcome } from './backend.ts';


/** What a job's work is handed: its id, where to report its stages, and when to stop. */
export interface JobContext {
  id: string;
  onEvent: (event: PipelineEvent) => void;
  signal: AbortSignal;
}

/** What a job does once it has a slot: the pipeline. */
export type JobWork = (context: JobContext) => Promise<PipelineResult>;

/** GET /v1/jobs/:id. */
/** A job that will not change any more. */
export function isFinished(status: JobStatus): boolean {
  return status === 'done' || status === 'failed';
}

export interface QueueLimits {
  concurrency: number;
  maxQueued: number;
  retentionMs: number;
  maxRetained: number;
  /** A running job still at work after this long is aborted and failed. */
  timeoutMs: number;
}

interface Job {
  id: string;
  interrupted?: true;
  /** Order of submission: a waiting job's place in the queue is its distance from the first one waiting. */
  sequence: number;
  status: JobStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  stages: PipelineEvent[];
  result?: PipelineResult;
  error?: string;
  /** None for a job restored from the store: it is finished. */
  work?: JobWork;
  controller: AbortController;
}

export class JobQueue {
  private readonly limits: QueueLimits;
  private readonly onChange: (job: JobView) => void;
  private readonly jobs = new Map<string, Job>();
  private readonly waiting: Job[] = [];
  /** Finished jobs, oldest first: retention forgets from the front. */
  private readonly finished: Job[] = [];
  private readonly running = new Map<Job, Promise<void>>();
  /** Every job's work until it settles, abandoned work included. */
  private readonly working = new Set<Promise<void>>();
  private accepting = true;
  private submitted = 0;

  private readonly store: JobStore | undefined;

  constructor(limits: QueueLimits, onChange: (job: JobView) => void = () => {}, store?: JobStore) {
    this.limits = limits;
    this.onChange = (view) => {
      store?.save(view);
      onChange(view);
    };
    this.store = store;
  }

  /**
   * Takes up the stored jobs of a server that stopped: finished ones as they were, the others as
   * failed and interrupted. Returns those it found unfinished (their generations may need an outcome).
   */
  recover(): JobView[] {
    const interrupted: JobView[] = [];
    for (const stored of this.store?.load() ?? []) {
      const unfinished = !isFinished(stored.status);
      const job: Job = {
        id: stored.id,
        sequence: this.submitted++,
        status: unfinished ? 'failed' : stored.status,
        createdAt: Date.parse(stored.created_at),
        startedAt: stored.started_at === null ? null : Date.parse(stored.started_at),
        finishedAt: unfinished || stored.finished_at === null ? Date.now() : Date.parse(stored.finished_at),
        stages: stored.stages,
        result: stored.result && stored.exit_code !== undefined ? { document: stored.result, exitCode: stored.exit_code as PipelineResult['exitCode'] } : undefined,
        error: unfinished ? `the server stopped before the job finished (it was ${stored.status})` : stored.error,
        ...(unfinished || stored.interrupted ? { interrupted: true as const } : {}),
        controller: new AbortController(),
      };
      this.jobs.set(job.id, job);
      this.finished.push(job);
      if (unfinished) {
        const view = this.view(job);
        this.store?.save(view);
        interrupted.push(view);
      }
    }
    this.finished.sort((a, b) => a.finishedAt! - b.finishedAt!);
    this.forgetOld();
    return interrupted;
  }

  submit(work: JobWork): SubmitOutcome {
    if (!this.accepting) return { accepted: false, reason: 'closed' };
    this.forgetOld();
    const startsNow = this.running.size < this.limits.concurrency;
    if (!startsNow && this.waiting.length >= this.limits.maxQueued) return { accepted: false, reason: 'full' };
    const job: Job = { id: randomUUID(), sequence: this.submitted++, status: 'queued', createdAt: Date.now(), startedAt: null, finishedAt: null, stages: [], work, controller: new AbortController() };
    this.jobs.set(job.id, job);
    this.waiting.push(job);
    const view = this.view(job);
    this.onChange(view);
    this.startWaiting();
    return { accepted: true, job: view };
  }

  get(id: string): JobView | undefined {
    this.forgetOld();
    const job = this.jobs.get(id);
    return job && this.view(job);
  }

  /**
   * Stops a job: a queued one never starts, a running one is aborted (its pipeline sees the signal).
   * Either way it is failed now, with `reason`.
   */
  cancel(id: string, reason: string): CancelOutcome {
    const job = this.jobs.get(id);
    if (!job) return { cancelled: false, reason: 'unknown' };
    if (isFinished(job.status)) return { cancelled: false, reason: 'finished', job: this.view(job) };
    const waiting = this.waiting.indexOf(job);
    if (waiting >= 0) this.waiting.splice(waiting, 1);
    job.controller.abort(new Error(reason));
    this.finish(job, { error: reason });
    return { cancelled: true, job: this.view(job) };
  }

  /** Resolves once no job's work is in flight, abandoned work included (it may outlive `drain`). */
  async idle(): Promise<void> {
    while (this.working.size > 0) await Promise.allSettled([...this.working]);
  }

  counts(): { queued: number; running: number } {
    return { queued: this.waiting.length, running: this.running.size };
  }

  /**
   * Stops taking jobs, fails the queued ones, gives the running ones `graceMs` to finish, then aborts
   * and fails what is left. Resolves once every job has a final status.
   */
  async drain(graceMs: number): Promise<DrainSummary> {
    this.accepting = false;
    const queued = this.waiting.splice(0);
    for (const job of queued) this.finish(job, { error: 'the server shut down before the job started', interrupted: true });
    const inFlight = [...this.running.values()];
    await settleWithin(inFlight, graceMs);
    const left = [...this.running.keys()];
    for (const job of left) {
      const reason = `the server shut down: the job did not finish within the ${graceMs} ms grace period`;
      job.controller.abort(new Error(reason));
      this.finish(job, { error: reason, interrupted: true });
    }
    return { finished: inFlight.length - left.length, abandoned: left.length, cancelled: queued.length };
  }

  private startWaiting(): void {
    while (this.accepting && this.running.size < this.limits.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      job.status = 'running';
      job.startedAt = Date.now();
      this.onChange(this.view(job));
      const work = this.execute(job);
      this.running.set(job, work);
      this.working.add(work);
      void work.finally(() => this.working.delete(work));
    }
  }

  private async execute(job: Job): Promise<void> {
    const timer = setTimeout(() => {
      const reason = `the job did not finish within ${this.limits.timeoutMs} ms (agents/server.yaml jobs.timeout_ms)`;
      job.controller.abort(new Error(reason));
      this.finish(job, { error: reason });
    }, this.limits.timeoutMs);
    try {
      const onEvent = (event: PipelineEvent) => {
        if (job.status !== 'running') return;
        job.stages.push(event);
        this.store?.save(this.view(job));
      };
      const result = await job.work!({ id: job.id, onEvent, signal: job.controller.signal });
      this.finish(job, { result, error: result.document.success ? undefined : (result.document.error ?? 'the generation failed') });
    } catch (error) {
      this.finish(job, { error: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** A job's one transition to a final status; a job aborted at shutdown that settles later changes nothing. */
  private finish(job: Job, outcome: { result?: PipelineResult; error?: string; interrupted?: true }): void {
    if (isFinished(job.status)) return;
    job.status = outcome.error === undefined ? 'done' : 'failed';
    job.result = outcome.result;
    job.error = outcome.error;
    if (outcome.interrupted) job.interrupted = true;
    job.finishedAt = Date.now();
    this.finished.push(job);
    this.running.delete(job);
    this.onChange(this.view(job));
    this.startWaiting();
  }

  private forgetOld(): void {
    const now = Date.now();
    while (this.finished.length > 0 && (this.finished.length > this.limits.maxRetained || now - this.finished[0]!.finishedAt! > this.limits.retentionMs)) {
      const forgotten = this.finished.shift()!;
      this.jobs.delete(forgotten.id);
      this.store?.remove(forgotten.id);
    }
  }

  private view(job: Job): JobView {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const position = job.status === 'queued' && this.waiting.length > 0 ? job.sequence - this.waiting[0]!.sequence : -1;
    return {
      id: job.id,
      status: job.status,
      created_at: iso(job.createdAt)!,
      started_at: iso(job.startedAt),
      finished_at: iso(job.finishedAt),
      ...(position >= 0 ? { queue_position: position } : {}),
      stages: [...job.stages],
      ...(job.result ? { result: job.result.document, exit_code: job.result.exitCode } : {}),
      ...(job.error !== undefined ? { error: job.error } : {}),
      ...(job.interrupted ? { interrupted: true as const } : {}),
    };
  }
}
