/**
 * The embedded backend of `scribe serve`: jobs queue in this process (jobs.ts), run in its worker
 * threads (workflow/threads.ts), and are recorded under Scribe's home (job-store.ts); the statistics are the
 * project's event log. A restarted server answers for the jobs of the one before.
 */
import path from 'node:path';
import type { ServerConfig } from '../config/server.ts';
import type { JobView } from '../contracts.ts';
import { readStats } from '../stats/index.ts';
import type { BatchResult } from '../workflow/batch.ts';
import { statsHome, StatsLog } from '../stats/log.ts';
import { OneOutcomeSink } from '../stats/outcome.ts';
import type { BackendHealth, BatchRecord, CancelOutcome, DrainSummary, JobBackend, NewJob, SubmitOutcome } from './backend.ts';
import { callbackSecret, CallbackSender } from './callback.ts';
import { JobEvents } from './job-events.ts';
import { JobStore } from './job-store.ts';
import { isFinished, JobQueue } from './jobs.ts';
import { logJob, type LogSink } from '../endpoint/log.ts';
import { GenerationThreads } from '../workflow/threads.ts';

export interface InProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  log: LogSink;
}

export class InProcessJobs implements JobBackend {
  readonly queue: JobQueue;
  /** Live stage streams (GET /v1/jobs/:id/events). */
  readonly events = new JobEvents();
  private readonly options: InProcessOptions;
  private readonly threads: GenerationThreads;
  private readonly outcomes: OneOutcomeSink;
  private readonly callbacks: CallbackSender;
  /** POST /v1/batch's records, the newest jobs.max_retained kept. */
  private readonly batches = new Map<string, BatchRecord>();
  private closing = false;

  constructor(options: InProcessOptions) {
    const { config, log } = options;
    this.options = options;
    this.outcomes = OneOutcomeSink.resuming(StatsLog.at(options.env, options.cwd));
    this.callbacks = new CallbackSender(config.callbacks, callbackSecret(options.env), log);
    this.threads = new GenerationThreads(options.env);
    this.queue = new JobQueue(
      { concurrency: config.jobs.concurrency, maxQueued: config.jobs.max_queued, retentionMs: config.jobs.retention_ms, maxRetained: config.jobs.max_retained, timeoutMs: config.jobs.timeout_ms },
      (job) => {
        logJob(job, log);
        if (!isFinished(job.status)) return;
        // A started job whose pipeline gave no result (aborted at shutdown, its worker died) ends its generation here.
        if (job.started_at !== null && job.result === undefined) this.outcomes.giveUp(job.id, this.closing ? 'interrupted' : 'error', job.error ?? 'the job ended without an outcome');
        this.events.end(job);
        // Tracked by the delivery list, which close() waits for.
        void this.callbacks.finished(job);
      },
      new JobStore(path.join(statsHome(options.env, options.cwd), 'jobs')),
    );
    // Jobs a stopped server was running end their generations now, if nothing recorded an outcome for them.
    for (const job of this.queue.recover()) if (job.started_at !== null) this.outcomes.giveUp(job.id, 'interrupted', job.error ?? 'the server stopped');
  }

  async submit({ request, callback }: NewJob): Promise<SubmitOutcome> {
    if (this.closing) return { accepted: false, reason: 'closed' };
    // The job's id is known once submit returns; its first stage comes later, from its worker thread.
    let id = '';
    const outputPath = path.resolve(this.options.cwd, request.outputPath);
    const outcome = this.queue.submit((job) =>
      this.threads.run(
        { request: { ...request, outputPath }, cwd: this.options.cwd, generation: job.id },
        {
          onEvent: (event) => {
            job.onEvent(event);
            this.events.stage(id, event);
          },
          stats: this.outcomes,
        },
        job.signal,
      ),
    );
    if (outcome.accepted) {
      id = outcome.job.id;
      if (callback) this.callbacks.expect(id, callback);
    }
    return outcome;
  }

  async get(id: string): Promise<JobView | undefined> {
    return this.queue.get(id);
  }

  async watch(id: string, listener: (job: JobView) => void): Promise<() => void> {
    return this.events.subscribe(id, () => {
      const job = this.queue.get(id);
      if (job) listener(job);
    });
  }

  async cancel(id: string): Promise<CancelOutcome> {
    return this.queue.cancel(id, 'cancelled by DELETE /v1/jobs/:id');
  }

  async health(): Promise<BackendHealth> {
    return { ok: !this.closing, ...this.queue.counts() };
  }

  async saveBatch(record: BatchRecord): Promise<void> {
    this.batches.set(record.id, record);
    for (const old of [...this.batches.keys()].slice(0, Math.max(0, this.batches.size - this.options.config.jobs.max_retained))) this.batches.delete(old);
  }

  async batch(id: string): Promise<BatchRecord | undefined> {
    return this.batches.get(id);
  }

  async settleBatch(id: string, result: BatchResult): Promise<boolean> {
    const record = this.batches.get(id);
    if (!record || record.result) return false;
    record.result = result;
    return true;
  }

  async stats() {
    return readStats(this.options.env, this.options.cwd);
  }

  async shutdown(graceMs: number): Promise<DrainSummary> {
    this.closing = true;
    const { config } = this.options;
    const summary = await this.queue.drain(graceMs);
    await this.threads.close(config.shutdown.abort_ms);
    // Callbacks of the last jobs get the abort wait too, then stop trying.
    await this.callbacks.close(config.shutdown.abort_ms);
    return summary;
  }
}
