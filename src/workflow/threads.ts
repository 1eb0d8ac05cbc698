/**
 * Worker threads that run the pipeline, one generation each at a time: the HTTP server's jobs, a shared
 * queue's worker's, a batch's scenarios. The caller decides how many run at once; a worker is started on
 * first need and kept (with its warm validator) for the next. An aborted generation is asked to stop (its
 * pipeline's AbortSignal fires); at close, a worker still busy after the wait it is given is stopped. A worker
 * is never terminated before it has stopped its child processes (or STOP_WAIT_MS has passed).
 * A batch's generations share their explorations through this thread (JobReports.explored): a worker asks
 * for its start page and is handed the inventory, or told to explore and send what it found.
 */
import { Worker } from 'node:worker_threads';
import type { NewStatsEvent } from '../stats/events.ts';
import type { StatsSink } from '../stats/log.ts';
import type { GenerateRequest, PipelineResult } from './pipeline.ts';
import type { PipelineEvent } from '../contracts.ts';
import type { PlaywrightRead } from '../project/playwright.ts';
import type { SignedInExploration } from './explore-signed-in.ts';
import type { Explorations, SiteBudget } from './explored-pages.ts';
import { settleWithin } from '../util/deadline.ts';

export interface PipelineJob {
  request: GenerateRequest;
  cwd: string;
  /** The generation's id in the statistics: the job's. */
  generation: string;
  /** The batch it is a scenario of: its exploration is asked of the batch's (JobReports.explored). */
  batch?: string;
  /**
   * The project's Playwright config as the caller read it (null: the project has none): a thread that reads
   * the project takes it instead of starting a config reader of its own. Absent: the thread reads it.
   */
  playwright?: PlaywrightRead | null;
}

export type ToWorker =
  | { type: 'run'; job: PipelineJob }
  | { type: 'abort'; reason: string }
  /** The answer to an `explore`: the exploration to reuse, or (none) explore here and send it. */
  | { type: 'exploration'; id: number; exploration?: SignedInExploration }
  /** End the job in hand, stop the processes the thread started, and answer `stopped`, before it is terminated. */
  | { type: 'stop' };
export type FromWorker =
  | { type: 'event'; event: PipelineEvent }
  /** A generation of a batch asks for the exploration of its start page. */
  | { type: 'explore'; id: number; url: string; budget: SiteBudget }
  /** What it explored when told to (or why it could not). */
  | { type: 'explored'; id: number; exploration?: SignedInExploration; error?: string }
  | { type: 'stats'; event: NewStatsEvent }
  | { type: 'result'; result: PipelineResult }
  | { type: 'error'; message: string }
  | { type: 'stopped' };

/** Where a job's stages and statistics go, on the server's thread. */
export interface JobReports {
  onEvent: (event: PipelineEvent) => void;
  /** Every statistics event of the job, recorded by the server: one writer, and it knows which generations have ended. */
  stats: StatsSink;
  /** The explorations the job's batch shares; without, a worker that asks is told to explore for itself. */
  explored?: Explorations;
}

// From the sources a worker needs tsx to load TypeScript (generation-worker.mjs); the build runs generation-worker.js as is.
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './generation-worker.mjs' : './generation-worker.js', import.meta.url);

/**
 * How long a thread asked to stop has to stop its processes: its child processes (the type checker, a browser)
 * are reaped by its own event loop, so a thread terminated before they exit leaves them as zombies.
 */
const STOP_WAIT_MS = 5_000;

export class GenerationThreads {
  private readonly env: NodeJS.ProcessEnv;
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Promise<unknown>>();
  private readonly stopping = new Map<Worker, Promise<void>>();
  private closed = false;

  /** `env` becomes process.env inside every worker: the server's environment, not the test runner's. */
  constructor(env: NodeJS.ProcessEnv) {
    this.env = env;
  }

  run(job: PipelineJob, reports: JobReports, signal: AbortSignal): Promise<PipelineResult> {
    if (this.closed) return Promise.reject(new Error('the server is shutting down'));
    const worker = this.idle.pop() ?? new Worker(ENTRY, { env: { ...this.env } });
    const settled = new Promise<PipelineResult>((resolve, reject) => {
      // The explorations this worker was told to make, until it sends them.
      const exploring = new Map<number, { resolve: (exploration: SignedInExploration) => void; reject: (error: Error) => void }>();
      const finish = (reusable: boolean, settle: () => void) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
        this.busy.delete(worker);
        // A generation that ended without sending its exploration leaves the others of its batch to explore.
        for (const pending of exploring.values()) pending.reject(new Error('the generation ended before its exploration'));
        if (reusable && !this.closed) this.idle.push(worker);
        else void this.stop(worker);
        settle();
      };
      const send = (message: ToWorker) => worker.postMessage(message);
      const onExplore = ({ id, url, budget }: { id: number; url: string; budget: SiteBudget }) => {
        const here = () => new Promise<SignedInExploration>((resolveHere, rejectHere) => {
          exploring.set(id, { resolve: resolveHere, reject: rejectHere });
          send({ type: 'exploration', id });
        });
        if (!reports.explored) return void here().catch(() => undefined);
        reports.explored.exploration(url, budget, here, signal).then(
          ({ exploration, reused }) => reused && send({ type: 'exploration', id, exploration }),
          // Its own exploration failed (it knows), or the job was aborted while it waited (it stops).
          () => undefined,
        );
      };
      const onExplored = ({ id, exploration, error }: { id: number; exploration?: SignedInExploration; error?: string }) => {
        const pending = exploring.get(id);
        exploring.delete(id);
        if (exploration) pending?.resolve(exploration);
        else pending?.reject(new Error(error ?? 'no exploration'));
      };
      const onMessage = (message: FromWorker) => {
        if (message.type === 'event') reports.onEvent(message.event);
        else if (message.type === 'stats') reports.stats.record(message.event);
        else if (message.type === 'explore') onExplore(message);
        else if (message.type === 'explored') onExplored(message);
        else if (message.type === 'result') finish(!signal.aborted, () => resolve(message.result));
        else if (message.type === 'error') finish(!signal.aborted, () => reject(new Error(message.message)));
      };
      const onError = (error: Error) => finish(false, () => reject(error));
      const onExit = (code: number) => finish(false, () => reject(new Error(`the generation's worker thread stopped (exit code ${code})`)));
      const onAbort = () => send({ type: 'abort', reason: signal.reason instanceof Error ? signal.reason.message : String(signal.reason) });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      send({ type: 'run', job });
    });
    this.busy.set(worker, settled.catch(() => undefined));
    return settled;
  }

  /** Stops the idle workers now, and the busy ones once they finish or `waitMs` has passed. */
  async close(waitMs: number): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => this.stop(worker)));
    await settleWithin([...this.busy.values()], waitMs);
    await Promise.all([...this.busy.keys(), ...this.stopping.keys()].map((worker) => this.stop(worker)));
  }

  /** Asks the worker to stop (its job aborted, its processes ended), waits for it within STOP_WAIT_MS, then terminates it. */
  private stop(worker: Worker): Promise<void> {
    const known = this.stopping.get(worker);
    if (known) return known;
    const stopped = new Promise<void>((resolve) => {
      const onMessage = (message: FromWorker) => message.type === 'stopped' && resolve();
      worker.on('message', onMessage).once('exit', () => resolve());
      worker.postMessage({ type: 'stop' } satisfies ToWorker);
    });
    const stopping = settleWithin([stopped], STOP_WAIT_MS).then(async () => {
      await worker.terminate();
    });
    this.stopping.set(worker, stopping);
    return stopping;
  }
}
