/**
 * `scribe generate --plan` (and the MCP tool generate_batch): every scenario of a plan, or every request of
 * a list, through the whole pipeline, N generations at once.
 * Each worker is a worker thread (threads.ts) with one validator (its compiler stays warm) across its
 * scenarios, so the type checks, rules and model parsing of N generations run on N cores; each run
 * launches its own browser inside its boundary. A model provider made by the caller (an MCP host's, through
 * sampling) lives in the caller's thread: then the generations share it, as N tasks of that thread.
 * Resumable: a scenario accepted before (its hash in the batch ledger, its spec still on disk) is
 * skipped. Every batch is recorded (batches.jsonl beside the statistics log) for `scribe report`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { PipelineEvent } from '../contracts.ts';
import type { ModelProvider } from '../llm/types.ts';
import type { ProjectContext } from '../project/context.ts';
import { playwrightRead } from '../project/playwright.ts';
import type { NewStatsEvent } from '../stats/events.ts';
import { statsHome, StatsLog, type StatsSink } from '../stats/log.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { ExploredPages } from './explored-pages.ts';
import { generateSpec, type GenerateRequest, type PipelineResult } from './pipeline.ts';
import { scenarioHash, type TestPlan } from './plan-file.ts';
import { progressReporter } from './progress-reporter.ts';
import { GenerationThreads } from './threads.ts';
import type { GenerateRequestFields } from './request-contract.ts';

export const BATCHES_FILE = 'batches.jsonl';

export const ScenarioOutcome = z.object({
  index: z.number().int().positive(),
  hash: z.string(),
  request: z.string(),
  page: z.string(),
  /** accepted now, skipped (accepted by an earlier batch), or failed (not accepted: kept for review, gave up, or refused). */
  status: z.enum(['accepted', 'skipped', 'failed']),
  testPath: z.string().nullable(),
  generation: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  duration_ms: z.number().nonnegative(),
  error: z.string().nullable(),
});
export type ScenarioOutcome = z.infer<typeof ScenarioOutcome>;

export const BatchResult = z.object({
  batch: z.string(),
  plan: z.string(),
  started: z.string(),
  workers: z.number().int().positive(),
  success: z.boolean(),
  scenarios: z.array(ScenarioOutcome),
  summary: z.object({
    scenarios: z.number().int(),
    accepted: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    /** Of the scenarios generated in this batch, the share accepted on the model's first answer. */
    first_attempt_rate: z.number().nullable(),
    tokens: z.number().int(),
    tokens_per_accepted: z.number().nullable(),
    duration_ms: z.number().nonnegative(),
  }),
});
export type BatchResult = z.infer<typeof BatchResult>;

/** One generation of a batch: the request as the pipeline takes it, and its identity across batches. */
export interface BatchItem {
  /** Equal for the same scenario in every batch: one accepted before is skipped. */
  hash: string;
  /** The page it starts on, as the plan or the request names it. */
  page: string;
  request: GenerateRequest;
}

/**
 * A plan's scenarios as batch items, each page resolved against the plan's app. A scenario without a feature
 * goes into its page's (`/cart` → cart/, `/` → home/), so a plan's specs are grouped by page, not a folder each.
 */
export function planItems(plan: TestPlan): BatchItem[] {
  return plan.scenarios.map((scenario) => ({
    hash: scenarioHash(scenario),
    page: scenario.page,
    request: { description: scenario.request, feature: scenario.feature ?? pageFeature(scenario.page), url: new URL(scenario.page, plan.app).href },
  }));
}

/** The feature a page names: its path's first segment, `home` for the root. */
export function pageFeature(page: string): string {
  const first = new URL(page, 'http://app.invalid').pathname.split('/').find((segment) => segment !== '');
  return first ? decodeURIComponent(first).replace(/\.[a-z]+$/i, '') || 'home' : 'home';
}

/** Requests of the request contract (POST /v1/batch, generate_batch) as batch items. */
export function requestItems(requests: readonly GenerateRequestFields[]): BatchItem[] {
  return requests.map((request) => ({ hash: requestHash(request), page: request.url ?? '', request }));
}

/** A request's identity across batches: what it asks, where, and into which feature. */
export function requestHash(request: Pick<GenerateRequestFields, 'description' | 'url' | 'feature'>): string {
  return createHash('sha256').update(JSON.stringify(['request', request.description.trim(), request.url?.trim() ?? '', request.feature ?? ''])).digest('hex').slice(0, 16);
}

export interface BatchOptions {
  project: ProjectContext;
  items: BatchItem[];
  /** Where the items came from (the plan's file as the user named it, or the surface): recorded with the batch. */
  source: string;
  /** Generations at once; default: the machine's cores. */
  workers?: number;
  /** Where each generation's statistics go (default: the project's log). */
  stats?: StatsSink | false;
  /** A provider made by the caller: the generations then run in the caller's thread, where it lives. */
  provider?: ModelProvider;
  /** Run each spec against the app (default true; an item's own `run` wins). */
  run?: boolean;
  onProgress?: (event: BatchProgress) => void;
  signal?: AbortSignal;
}

export type BatchProgress =
  | { type: 'started'; index: number; total: number; request: string; worker: number }
  /** A stage line of a scenario's generation, as it happens (its `at` stamps when): where a batch's time goes. */
  | { type: 'stage'; index: number; worker: number; event: PipelineEvent }
  | { type: 'finished'; outcome: ScenarioOutcome; done: number; total: number };

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export async function generateBatch(options: BatchOptions): Promise<BatchResult> {
  const { project, items } = options;
  const started = new Date();
  const clock = performance.now();
  const home = statsHome(project.env, project.cwd);
  const accepted = acceptedBefore(home, project.cwd);
  const batch = randomUUID();
  const workers = Math.max(1, Math.min(options.workers ?? defaultWorkers(), items.length));
  const outcomes = new Array<ScenarioOutcome>(items.length);
  let next = 0;
  let done = 0;
  const finish = (outcome: ScenarioOutcome) => {
    outcomes[outcome.index - 1] = outcome;
    options.onProgress?.({ type: 'finished', outcome, done: ++done, total: items.length });
  };

  const threads = options.provider ? undefined : new GenerationThreads(project.env);
  // The batch's generations share the pages they explored, in this thread or in the worker threads.
  const explored = new ExploredPages();
  const worker = async (id: number) => {
    const generate = threads ? inThread(options, threads, batch, explored) : inCallerThread(options, explored);
    for (let index = next++; index < items.length; index = next++) {
      options.signal?.throwIfAborted();
      const item = items[index]!;
      const base = { index: index + 1, hash: item.hash, request: item.request.description, page: item.page };
      const before = accepted.get(item.hash);
      if (before) {
        finish({ ...base, status: 'skipped', testPath: before, generation: null, attempts: 0, tokens: 0, duration_ms: 0, error: null });
        continue;
      }
      options.onProgress?.({ type: 'started', index: index + 1, total: items.length, request: item.request.description, worker: id });
      const onEvent = (event: PipelineEvent) => options.onProgress?.({ type: 'stage', index: index + 1, worker: id, event });
      finish(await generateOne(options, item, base, generate, onEvent));
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, (_, id) => worker(id + 1)));
  } finally {
    // Every worker is idle once the batch is over; after a failure, a generation still running gets the kill grace.
    await threads?.close(project.agents.runner.timeouts.kill_grace_ms);
  }

  const result = summarize({ batch, plan: options.source, started: started.toISOString(), workers, scenarios: outcomes, durationMs: Math.round(performance.now() - clock) });
  recordBatch(home, result);
  return result;
}

/** Adds a finished batch to the ledger `scribe report` reads and later batches resume from. */
export function recordBatch(home: string, result: BatchResult): void {
  mkdirSync(home, { recursive: true });
  appendFileSync(path.join(home, BATCHES_FILE), `${JSON.stringify(result)}\n`);
}

/** One generation of a worker: the request (its run settled), its id, where its statistics and its stage lines go. */
type Generate = (request: GenerateRequest, generation: string, stats: StatsSink, onEvent: (event: PipelineEvent) => void) => Promise<PipelineResult>;

/**
 * In a worker thread, which reads the project from its folder (its Playwright config as read here: no
 * second config reader per thread) and keeps its own validator.
 */
function inThread(options: BatchOptions, threads: GenerationThreads, batch: string, explored: ExploredPages): Generate {
  const { project } = options;
  const playwright = project.playwright ? playwrightRead(project.playwright) : null;
  return (request, generation, stats, onEvent) =>
    threads.run(
      { request: { ...request, provider: request.provider ?? project.provider }, cwd: project.cwd, generation, batch, playwright },
      { onEvent, stats, explored },
      options.signal ?? new AbortController().signal,
    );
}

/** In this thread, beside the caller's provider, with one validator for all of this worker's scenarios. */
function inCallerThread(options: BatchOptions, explored: ExploredPages): Generate {
  const { project } = options;
  // Its next check comes after a contained run: the type checker stays up for as long as a run may take.
  const validator: Validator = untrustedValidator(project.agents.critic, { projectRoot: project.cwd, typeCheck: true, tsconfig: project.tsconfig, typeCheckerIdleMs: project.agents.runner.timeouts.run_ms });
  return (request, generation, stats, onEvent) =>
    generateSpec(request, {
      cwd: project.cwd,
      env: project.env,
      project,
      stats,
      generation,
      provider: options.provider,
      validator,
      explored,
      signal: options.signal,
      reporters: [progressReporter(project.cwd, onEvent)],
    });
}

async function generateOne(
  options: BatchOptions,
  item: BatchItem,
  base: Pick<ScenarioOutcome, 'index' | 'hash' | 'request' | 'page'>,
  generate: Generate,
  onEvent: (event: PipelineEvent) => void,
): Promise<ScenarioOutcome> {
  const started = performance.now();
  const generation = randomUUID();
  let tokens = 0;
  const sink = options.stats === false ? undefined : (options.stats ?? StatsLog.at(options.project.env, options.project.cwd));
  const counting: StatsSink = {
    record: (event: NewStatsEvent) => {
      if (event.type === 'model_call') tokens += event.tokens.total;
      sink?.record(event);
    },
  };
  const { document } = await generate({ ...item.request, run: item.request.run ?? options.run !== false }, generation, counting, onEvent);
  return {
    ...base,
    status: document.success ? 'accepted' : 'failed',
    testPath: document.testPath,
    generation,
    attempts: document.attempts,
    tokens,
    duration_ms: Math.round(performance.now() - started),
    error: document.error,
  };
}

export function summarize(input: { batch: string; plan: string; started: string; workers: number; scenarios: ScenarioOutcome[]; durationMs: number }): BatchResult {
  const count = (status: ScenarioOutcome['status']) => input.scenarios.filter((s) => s.status === status).length;
  const generated = input.scenarios.filter((s) => s.status !== 'skipped');
  const acceptedNow = generated.filter((s) => s.status === 'accepted');
  const tokens = generated.reduce((sum, s) => sum + s.tokens, 0);
  return BatchResult.parse({
    batch: input.batch,
    plan: input.plan,
    started: input.started,
    workers: input.workers,
    success: input.scenarios.every((s) => s.status !== 'failed'),
    scenarios: input.scenarios,
    summary: {
      scenarios: input.scenarios.length,
      accepted: count('accepted'),
      skipped: count('skipped'),
      failed: count('failed'),
      first_attempt_rate: generated.length > 0 ? acceptedNow.filter((s) => s.attempts === 1).length / generated.length : null,
      tokens,
      tokens_per_accepted: acceptedNow.length > 0 ? Math.round(tokens / acceptedNow.length) : null,
      duration_ms: input.durationMs,
    },
  });
}

/** The scenarios earlier batches accepted whose spec is still there: hash → spec path. */
export function acceptedBefore(home: string, cwd: string): Map<string, string> {
  const accepted = new Map<string, string>();
  for (const batch of readBatches(home)) {
    for (const scenario of batch.scenarios) {
      if ((scenario.status === 'accepted' || scenario.status === 'skipped') && scenario.testPath && existsSync(path.resolve(cwd, scenario.testPath))) accepted.set(scenario.hash, scenario.testPath);
    }
  }
  return accepted;
}

/** Every batch recorded in this Scribe home, oldest first; a line that does not parse is skipped. */
export function readBatches(home: string): BatchResult[] {
  let text: string;
  try {
    text = readFileSync(path.join(home, BATCHES_FILE), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    if (!line.trim()) return [];
    try {
      const parsed = BatchResult.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
