/**
 * `scribe worker --queue redis://…`: takes jobs off the shared queue and runs each one's pipeline in a
 * worker thread (workflow/threads.ts), in this machine's checkout of the project. Stages go to the job's
 * log (any API node shows them), statistics to the shared stream (stats.ts). BullMQ's lock on each job
 * is what makes a dead worker's job come back: the lock lapses, another worker's stalled check puts
 * the job back on the queue, and the generation goes on under the same id.
 */
import path from 'node:path';
import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServerConfig } from '../config/server.ts';
import type { PipelineEvent } from '../contracts.ts';
import { callbackSecret, CallbackSender } from '../http/callback.ts';
import { logJob, type LogSink } from '../endpoint/log.ts';
import { checkedSpecTarget } from '../endpoint/paths.ts';
import { GenerationThreads } from '../workflow/threads.ts';
import type { ProjectContext } from '../project/context.ts';
import type { PipelineResult } from '../workflow/pipeline.ts';
import { keysOf, shownUrl, waitingConnection, waitingOptions, type QueueKeys, type QueueTarget } from './connection.ts';
import { readJob, type QueuedData, type QueuedJob } from './records.ts';
import { QueueStats } from './stats.ts';

export interface QueueWorkerOptions {
  url: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  project: ProjectContext;
  /** Jobs this process runs at once. */
  concurrency: number;
  log: LogSink;
}

export interface WorkerDrainSummary {
  /** Jobs that finished within the grace period. */
  finished: number;
  /** Jobs still running when it ran out: put back on the queue for another worker. */
  handedBack: number;
}

/**
 * KEYS: the caller's running set. ARGV: the job, the caller's limit. 1 when the job may run (it is
 * counted, or was already: a job taken up again after its worker died), 0 when the caller is at its limit.
 */
const CLAIM = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
`;

/** How long a job whose caller is at its limit waits before it is looked at again. */
const FAIRNESS_DELAY_MS = 500;

/** Why a running job stops early. */
type Stop = { kind: 'cancel' | 'timeout' | 'hand_back'; reason: string };

interface Running {
  controller: AbortController;
  stop?: Stop;
}

export class QueueWorker {
  private readonly options: QueueWorkerOptions;
  private readonly target: QueueTarget;
  private readonly keys: QueueKeys;
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly queue: Queue<QueuedData, PipelineResult>;
  private readonly worker: Worker<QueuedData, PipelineResult>;
  private readonly threads: GenerationThreads;
  private readonly stats: QueueStats;
  private readonly callbacks: CallbackSender;
  private readonly running = new Map<string, Running>();
  /** Finished jobs being read and called back: drain waits for them. */
  private readonly reports = new Set<Promise<void>>();
  private finished = 0;

  constructor(options: QueueWorkerOptions) {
    const { config, log } = options;
    this.options = options;
    this.target = { url: options.url, settings: config.queue };
    this.keys = keysOf(config.queue);
    // Waits and reconnects rather than fail: a Redis restart must not cost a job its statistics.
    this.redis = waitingConnection(this.target);
    this.subscriber = waitingConnection(this.target);
    let connected = true;
    this.redis.on('error', (error) => {
      if (connected) log({ level: 'warn', msg: 'queue unreachable; reconnecting', queue: shownUrl(options.url), error: error.message });
      connected = false;
    });
    this.redis.on('ready', () => {
      if (!connected) log({ level: 'info', msg: 'queue reachable again', queue: shownUrl(options.url) });
      connected = true;
    });
    this.subscriber.on('error', () => {});
    this.queue = new Queue(config.queue.name, { connection: this.redis });
    this.queue.on('error', () => {});
    this.threads = new GenerationThreads(options.env);
    this.stats = new QueueStats(this.redis, this.keys, (error) => log({ level: 'error', msg: 'statistics event lost', error: error.message }));
    this.callbacks = new CallbackSender(config.callbacks, callbackSecret(options.env), log);
    this.worker = new Worker(config.queue.name, (job, token) => this.process(job, token), {
      connection: waitingOptions(this.target),
      concurrency: options.concurrency,
      lockDuration: config.queue.lock_ms,
      stalledInterval: config.queue.stalled_interval_ms,
      maxStalledCount: config.queue.max_stalled,
      autorun: false,
    });
    this.worker.on('error', (error) => log({ level: 'warn', msg: 'queue error', error: error.message }));
    // BullMQ says a job finished only to the worker that moved it on, holding its lock: a run whose lock
    // lapsed (its job taken up again elsewhere) is never the one that reports the job.
    this.worker.on('completed', (job) => this.reportEnd(job.id!, job.data.callback));
    this.worker.on('failed', (job) => job && this.reportEnd(job.id!, job.data.callback));
    this.worker.on('stalled', (id) => void this.stalled(id).catch((error: Error) => log({ level: 'warn', msg: 'stalled job not followed up', job: id, error: error.message })));
    // Refused only once the connection is closed (a worker stopped as it starts): ioredis subscribes again on each reconnect.
    this.subscriber.subscribe(this.keys.cancelChannel).catch(() => undefined);
    this.subscriber.on('message', (_channel: string, id: string) => this.stop(id, { kind: 'cancel', reason: 'cancelled by DELETE /v1/jobs/:id' }));
  }

  /** Starts taking jobs; resolves once the worker has stopped (after `drain`). */
  run(): Promise<void> {
    this.options.log({ level: 'info', msg: 'worker started', queue: shownUrl(this.options.url), name: this.options.config.queue.name, concurrency: this.options.concurrency, cwd: this.options.cwd });
    return this.worker.run();
  }

  /**
   * Takes no new jobs, gives the running ones `graceMs` to finish, then stops the rest and puts them
   * back on the queue for another worker (their generations go on there, with no outcome from here).
   */
  async drain(graceMs: number): Promise<WorkerDrainSummary> {
    const closed = this.worker.close();
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
    clearTimeout(timer);
    const handedBack = inTime ? 0 : this.running.size;
    if (!inTime) for (const id of [...this.running.keys()]) this.stop(id, { kind: 'hand_back', reason: 'the worker shut down; another worker takes the job up' });
    // A pipeline that does not stop within abort_ms has its thread terminated: its job is handed back all the same.
    await Promise.all([closed, this.threads.close(this.options.config.shutdown.abort_ms)]);
    await this.stats.flush();
    await Promise.allSettled([...this.reports]);
    await this.callbacks.close(this.options.config.shutdown.abort_ms);
    await Promise.allSettled([this.queue.close()]);
    this.subscriber.disconnect();
    this.redis.disconnect();
    return { finished: this.finished, handedBack };
  }

  private stop(id: string, stop: Stop): void {
    const running = this.running.get(id);
    if (!running || running.stop) return;
    running.stop = stop;
    running.controller.abort(new Error(stop.reason));
  }

  private async process(job: QueuedJob, token: string | undefined): Promise<PipelineResult> {
    const { config, log } = this.options;
    const id = job.id!;
    const cancelled = await this.redis.get(this.keys.cancelled(id));
    if (cancelled !== null) throw new UnrecoverableError(cancelled);
    if ((await this.redis.eval(CLAIM, 1, this.keys.running(job.data.owner), id, config.queue.per_caller_concurrency)) !== 1) {
      await job.moveToDelayed(Date.now() + FAIRNESS_DELAY_MS, token);
      throw new DelayedError();
    }
    const running: Running = { controller: new AbortController() };
    this.running.set(id, running);
    const timer = setTimeout(() => this.stop(id, { kind: 'timeout', reason: `the job did not finish within ${config.jobs.timeout_ms} ms (agents/server.yaml jobs.timeout_ms)` }), config.jobs.timeout_ms);
    // Stages reach the job's log in order, each followed by a progress note that API nodes watch for.
    let stages = Promise.resolve();
    let count = 0;
    const onEvent = (event: PipelineEvent) => {
      const n = ++count;
      stages = stages.then(async () => {
        await job.log(JSON.stringify(event));
        await job.updateProgress(n);
      }).catch((error: Error) => log({ level: 'warn', msg: 'stage not recorded', job: id, error: error.message }));
    };
    const reports = {
      onEvent,
      stats: {
        // A job handed back has its generation go on elsewhere: the outcome of this stopped run is not its outcome.
        record: (event: Parameters<QueueStats['record']>[0]) => {
          if (running.stop?.kind === 'hand_back' && (event.type === 'success' || event.type === 'give_up')) return;
          this.stats.record(event);
        },
      },
    };
    log({ level: 'info', msg: 'job', job: id, status: 'running', attempt: job.attemptsStarted });
    try {
      const request = { ...job.data.request, outputPath: this.specPath(job.data.request) };
      let result: PipelineResult | undefined;
      let failure: string | undefined;
      try {
        result = await this.threads.run({ request, cwd: this.options.cwd, generation: id }, reports, running.controller.signal);
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      await stages;
      await this.stats.flush();
      if (running.stop?.kind === 'hand_back') {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (running.stop) throw new UnrecoverableError(running.stop.reason);
      if (result === undefined) throw new UnrecoverableError(failure ?? 'the job ended without an outcome');
      return result;
    } finally {
      clearTimeout(timer);
      this.running.delete(id);
      if (running.stop?.kind !== 'hand_back') await this.ended(job, running.stop);
    }
  }

  /** The spec's path in this checkout, checked as the API checked it in its own. */
  private specPath(request: QueuedData['request']): string {
    const { project } = this.options;
    const file = path.resolve(project.cwd, request.outputPath);
    return checkedSpecTarget(project, { ...request, outputPath: path.relative(project.outputDir, file) });
  }

  /** After a job's last try here: its generation's outcome if it has none, and its caller's slot. */
  private async ended(job: QueuedJob, stop: Stop | undefined): Promise<void> {
    const id = job.id!;
    this.finished += 1;
    try {
      await this.redis.srem(this.keys.running(job.data.owner), id);
      // The pipeline records its own outcome; this one only counts when it could not (the guard keeps the first).
      this.stats.giveUp(id, stop ? 'interrupted' : 'error', stop?.reason ?? 'the job ended without an outcome');
      await this.stats.flush();
    } catch (error) {
      this.options.log({ level: 'warn', msg: 'job end not recorded', job: id, error: (error as Error).message });
    }
  }

  /** A dead worker's job: back on the queue (nothing to do), or failed for dying too often (its generation ends here). */
  private async stalled(id: string): Promise<void> {
    const { log } = this.options;
    log({ level: 'warn', msg: 'job stalled: its worker stopped answering', job: id });
    const job = await this.queue.getJob(id);
    if (!job || (await job.getState()) !== 'failed') return;
    await this.redis.srem(this.keys.running(job.data.owner), id);
    this.stats.giveUp(id, 'interrupted', job.failedReason ?? 'the job stalled too often');
    await this.stats.flush();
    await this.report(id, job.data.callback);
  }

  private reportEnd(id: string, callback: string | undefined): void {
    const report = this.report(id, callback).catch((error: Error) => this.options.log({ level: 'warn', msg: 'job end not reported', job: id, error: error.message }));
    this.reports.add(report);
    void report.finally(() => this.reports.delete(report));
  }

  /** A finished job's log line and signed callback, from its record as any API node shows it. */
  private async report(id: string, callback: string | undefined): Promise<void> {
    const view = await readJob(this.queue, this.redis, id);
    if (view?.status !== 'done' && view?.status !== 'failed') return;
    logJob(view, this.options.log);
    if (callback) await this.callbacks.finished(view, new URL(callback));
  }
}
