/**
 * `scribe generate --plan`: every scenario of a plan through the whole pipeline, N generations at once.
 * Each worker keeps one validator (its compiler stays warm) across its scenarios; each run launches its own
 * browser inside its boundary.
 * Resumable: a scenario accepted before (its hash in the batch ledger, its spec still on disk) is
 * skipped. Every batch is recorded (batches.jsonl beside the statistics log) for `scribe report`.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { GenerationReporter } from '../agents/reporter.ts';
import type { ModelProvider } from '../llm/types.ts';
import type { ProjectContext } from '../project/context.ts';
import { statsHome, type StatsSink } from '../stats/log.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { generateSpec } from './pipeline.ts';
import { scenarioHash, type Scenario, type TestPlan } from './plan-file.ts';

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

export interface BatchOptions {
  project: ProjectContext;
  plan: TestPlan;
  /** The plan's file, as the user named it (recorded with the batch). */
  planFile: string;
  /** Generations at once; default: the machine's cores. */
  workers?: number;
  /** Where each generation's statistics go (default: the project's log). */
  stats?: StatsSink | false;
  provider?: ModelProvider;
  /** Run each spec against the app (default true). */
  run?: boolean;
  onProgress?: (event: BatchProgress) => void;
  signal?: AbortSignal;
}

export type BatchProgress = { type: 'started'; index: number; total: number; request: string; worker: number } | { type: 'finished'; outcome: ScenarioOutcome; done: number; total: number };

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export async function generateBatch(options: BatchOptions): Promise<BatchResult> {
  const { project, plan } = options;
  const started = new Date();
  const clock = performance.now();
  const home = statsHome(project.env, project.cwd);
  const accepted = acceptedBefore(home, project.cwd);
  const batch = randomUUID();
  const workers = Math.max(1, Math.min(options.workers ?? defaultWorkers(), plan.scenarios.length));
  const outcomes = new Array<ScenarioOutcome>(plan.scenarios.length);
  let next = 0;
  let done = 0;
  const finish = (outcome: ScenarioOutcome) => {
    outcomes[outcome.index - 1] = outcome;
    options.onProgress?.({ type: 'finished', outcome, done: ++done, total: plan.scenarios.length });
  };

  const worker = async (id: number) => {
    // One compiler for all of this worker's scenarios.
    const validator = untrustedValidator(project.agents.critic, { projectRoot: project.cwd, typeCheck: true, tsconfig: project.tsconfig });
    for (let index = next++; index < plan.scenarios.length; index = next++) {
      options.signal?.throwIfAborted();
      const scenario = plan.scenarios[index]!;
      const hash = scenarioHash(scenario);
      const base = { index: index + 1, hash, request: scenario.request, page: scenario.page };
      const before = accepted.get(hash);
      if (before) {
        finish({ ...base, status: 'skipped', testPath: before, generation: null, attempts: 0, tokens: 0, duration_ms: 0, error: null });
        continue;
      }
      options.onProgress?.({ type: 'started', index: index + 1, total: plan.scenarios.length, request: scenario.request, worker: id });
      finish(await generateOne(options, scenario, base, validator));
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, id) => worker(id + 1)));

  const result = summarize({ batch, plan: options.planFile, started: started.toISOString(), workers, scenarios: outcomes, durationMs: Math.round(performance.now() - clock) });
  mkdirSync(home, { recursive: true });
  appendFileSync(path.join(home, BATCHES_FILE), `${JSON.stringify(result)}\n`);
  return result;
}

async function generateOne(
  options: BatchOptions,
  scenario: Scenario,
  base: Pick<ScenarioOutcome, 'index' | 'hash' | 'request' | 'page'>,
  validator: Validator,
): Promise<ScenarioOutcome> {
  const { project } = options;
  const started = performance.now();
  const generation = randomUUID();
  let tokens = 0;
  const counting: GenerationReporter = { report: (event) => void (event.type === 'model_call' && (tokens += event.tokens.total)) };
  const url = new URL(scenario.page, options.plan.app).href;
  const result = await generateSpec(
    { description: scenario.request, feature: scenario.feature, url, run: options.run !== false },
    { cwd: project.cwd, env: project.env, project, stats: options.stats, generation, provider: options.provider, validator, signal: options.signal, reporter: counting },
  );
  const { document } = result;
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

function summarize(input: { batch: string; plan: string; started: string; workers: number; scenarios: ScenarioOutcome[]; durationMs: number }): BatchResult {
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
function acceptedBefore(home: string, cwd: string): Map<string, string> {
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
