/**
 * The API's side of the shared queue: `scribe serve --queue redis://…` puts each job on a BullMQ
 * queue and answers for any job from Redis — its record, its stages (the job's log), its live events
 * (BullMQ's event stream, read by every API node) — so any node answers for any job, and a restarted
 * node has lost nothing. The work itself is done by `scribe worker` processes (worker.ts).
 */
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServerConfig } from '../config/server.ts';
import type { JobView } from '../contracts.ts';
import type { BackendHealth, BatchRecord, CancelOutcome, DrainSummary, JobBackend, JobListener, NewJob, SubmitOutcome } from '../http/backend.ts';
import { callbackSecret, CallbackSender } from '../http/callback.ts';
import { logJob, type LogSink } from '../endpoint/log.ts';
import { commandConnection, keysOf, reach, shownUrl, waitingOptions, type QueueKeys, type QueueTarget } from './connection.ts';
import { placeOf, readJob, type QueuedData } from './records.ts';
import { BatchResult } from '../workflow/batch.ts';
import type { PipelineResult } from '../workflow/pipeline.ts';
import { QueueStats } from './stats.ts';

export interface QueueJobsOptions {
  url: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  log: LogSink;
}

/** BullMQ job options of every job: one try (a failed generation is an answer), kept as long as agents/server.yaml says. */
export function jobOptions(config: ServerConfig) {
  const keep = { age: Math.ceil(config.jobs.retention_ms / 1000), count: config.jobs.max_retained };
  return { attempts: 1, removeOnComplete: keep, removeOnFail: keep };
}

export class QueueJobs implements JobBackend {
  private readonly target: QueueTarget;
  private readonly config: ServerConfig;
  private readonly log: LogSink;
  private readonly redis: Redis;
  private readonly queue: Queue<QueuedData, PipelineResult>;
  private readonly events: QueueEvents;
  private readonly keys: QueueKeys;
  private readonly statistics: QueueStats;
  private readonly callbacks: CallbackSender;
  private readonly watchers = new Map<string, Set<JobListener>>();
  private closing = false;

  constructor(options: QueueJobsOptions) {
    const { config, log } = options;
    this.target = { url: options.url, settings: config.queue };
    this.config = config;
    this.log = log;
    this.keys = keysOf(config.queue);
    this.redis = commandConnection(this.target);
    // Errors are answered per request (503); the connection's own reports would only repeat them.
    this.redis.on('error', () => {});
    this.queue = new Queue(config.queue.name, { connection: this.redis });
    this.queue.on('error', () => {});
    this.events = new QueueEvents(config.queue.name, { connection: waitingOptions(this.target) });
    this.events.on('error', () => {});
    for (const name of ['active', 'progress', 'completed', 'failed', 'removed'] as const) {
      this.events.on(name, ({ jobId }: { jobId: string }) => void this.changed(jobId));
    }
    this.statistics = new QueueStats(this.redis, this.keys);
    this.callbacks = new CallbackSender(config.callbacks, callbackSecret(options.env), log);
  }

  async submit({ request, callback, owner }: NewJob): Promise<SubmitOutcome> {
    if (this.closing) return { accepted: false, reason: 'closed' };
    return reach(this.target, this.redis, async () => {
      const data: QueuedData = { request, owner, ...(callback ? { callback: callback.href } : {}) };
      const id = randomUUID();
      await this.queue.add('generate', data, { jobId: id, ...jobOptions(this.config) });
      if (!(await this.admitted(id))) return { accepted: false, reason: 'full' } as const;
      const job = (await readJob(this.queue, this.redis, id)) ?? queuedView(id);
      logJob(job, this.log);
      return { accepted: true, job } as const;
    });
  }

  get(id: string): Promise<JobView | undefined> {
    return reach(this.target, this.redis, async () => (await readJob(this.queue, this.redis, id)) ?? (await this.tombstone(id)));
  }

  async watch(id: string, listener: JobListener): Promise<() => void> {
    const set = this.watchers.get(id) ?? new Set<JobListener>();
    set.add(listener);
    this.watchers.set(id, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(id) === set) this.watchers.delete(id);
    };
  }

  /**
   * A queued job is taken off the queue and recorded as cancelled; a running one is marked, and the
   * mark announced: the worker that has it aborts its pipeline and fails it (worker.ts).
   */
  async cancel(id: string): Promise<CancelOutcome> {
    const reason = 'cancelled by DELETE /v1/jobs/:id';
    const outcome = await reach(this.target, this.redis, async (): Promise<CancelOutcome | 'announced'> => {
      const before = await this.get(id);
      if (!before) return { cancelled: false, reason: 'unknown' };
      if (before.status === 'done' || before.status === 'failed') return { cancelled: false, reason: 'finished', job: before };
      await this.redis.set(this.keys.cancelled(id), reason, 'PX', this.config.jobs.retention_ms);
      const callback = (await this.queue.getJob(id))?.data.callback;
      if (before.status === 'queued' && (await this.removeQueued(id))) {
        const job: JobView = { ...before, status: 'failed', finished_at: new Date().toISOString(), error: reason };
        delete job.queue_position;
        await this.redis.set(this.keys.tombstone(id), JSON.stringify(job), 'PX', this.config.jobs.retention_ms);
        logJob(job, this.log);
        this.notify(id, job);
        if (callback) void this.callbacks.finished(job, new URL(callback));
        return { cancelled: true, job };
      }
      await this.redis.publish(this.keys.cancelChannel, id);
      return 'announced';
    });
    // The worker that has the job gets the abort wait of agents/server.yaml to stop it.
    return outcome === 'announced' ? { cancelled: true, job: await this.settledWithin(id, this.config.shutdown.abort_ms) } : outcome;
  }

  async health(): Promise<BackendHealth> {
    const queue = { url: shownUrl(this.target.url) };
    try {
      const counts = await reach(this.target, this.redis, () => this.queue.getJobCounts('wait', 'prioritized', 'delayed', 'active'));
      return { ok: !this.closing, queued: counts.wait! + counts.prioritized! + counts.delayed!, running: counts.active!, queue: { ...queue, reachable: true } };
    } catch (error) {
      return { ok: false, queued: 0, running: 0, queue: { ...queue, reachable: false, error: (error as Error).message } };
    }
  }

  /** In Redis beside the jobs, for as long as finished jobs are kept: any API node answers GET /v1/batches/:id. */
  saveBatch(record: BatchRecord): Promise<void> {
    return reach(this.target, this.redis, async () => void (await this.redis.set(this.keys.batch(record.id), JSON.stringify(record), 'PX', this.config.jobs.retention_ms)));
  }

  batch(id: string): Promise<BatchRecord | undefined> {
    return reach(this.target, this.redis, async () => {
      const [record, result] = await this.redis.mget(this.keys.batch(id), this.keys.batchResult(id));
      if (!record) return undefined;
      return { ...(JSON.parse(record) as BatchRecord), ...(result ? { result: BatchResult.parse(JSON.parse(result)) } : {}) };
    });
  }

  settleBatch(id: string, result: BatchResult): Promise<boolean> {
    return reach(this.target, this.redis, async () => (await this.redis.set(this.keys.batchResult(id), JSON.stringify(result), 'PX', this.config.jobs.retention_ms, 'NX')) === 'OK');
  }

  stats() {
    return reach(this.target, this.redis, () => this.statistics.document());
  }

  /** An API node holds no jobs: stopping it leaves every job to the queue and its workers. */
  async shutdown(): Promise<DrainSummary> {
    this.closing = true;
    await this.callbacks.close(this.config.shutdown.abort_ms);
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    this.redis.disconnect();
    return { finished: 0, abandoned: 0, cancelled: 0 };
  }

  /**
   * max_queued across every API node: the job is put on the queue first and then kept only if fewer
   * than max_queued jobs wait ahead of it (read in one step, placeOf), so of two nodes racing for the
   * last place exactly the one whose job came first keeps it. One a worker has taken meanwhile stays.
   */
  private async admitted(id: string): Promise<boolean> {
    const { ahead, held } = await placeOf(this.queue, this.redis, id);
    if (ahead === undefined || ahead + held < this.config.jobs.max_queued) return true;
    return !(await this.removeQueued(id));
  }

  private async tombstone(id: string): Promise<JobView | undefined> {
    const text = await this.redis.get(this.keys.tombstone(id));
    return text === null ? undefined : (JSON.parse(text) as JobView);
  }

  /** Removes a job no worker holds; false when one took it meanwhile (its lock refuses the removal). */
  private async removeQueued(id: string): Promise<boolean> {
    return (await this.queue.remove(id)) === 1;
  }

  /** The job once its worker has stopped it, or as it is after `ms`. */
  private async settledWithin(id: string, ms: number): Promise<JobView> {
    const deadline = Date.now() + ms;
    for (;;) {
      const job = (await this.get(id))!;
      if (job.status === 'done' || job.status === 'failed' || Date.now() >= deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async changed(id: string): Promise<void> {
    if (!this.watchers.has(id)) return;
    try {
      const job = await this.get(id);
      if (job) this.notify(id, job);
    } catch (error) {
      this.log({ level: 'warn', msg: 'job event not followed', job: id, error: (error as Error).message });
    }
  }

  private notify(id: string, job: JobView): void {
    for (const listener of [...(this.watchers.get(id) ?? [])]) listener(job);
  }
}

function queuedView(id: string): JobView {
  return { id, status: 'queued', created_at: new Date().toISOString(), started_at: null, finished_at: null, stages: [] };
}
