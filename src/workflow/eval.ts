/**
 * `scribe eval`: a list of requests through the whole pipeline with the configured model, measured one
 * by one (attempts, rules, Critic, run, heals, model calls, tokens, time) and in total (the rates a
 * model is chosen by). Each request's events go to their own stats log, so the figures are its own.
 * Its specs go under Scribe's home (<home>/eval/<stamp>/), never into the project's testDir, where the
 * user's own runs would pick them up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile } from '../config/load.ts';
import type { ProjectContext } from '../project/context.ts';
import { statsHome, StatsLog } from '../stats/log.ts';
import { slugify } from '../store/spec-files.ts';
import { generateSpec } from './pipeline.ts';
import { progressReporter } from './progress-reporter.ts';
import type { RequestLimits } from './request-contract.ts';
import type { PipelineEvent } from '../contracts.ts';

/** The requests file, with the request contract's limits (agents/server.yaml): one limit on every surface. */
function evalFile({ maxDescriptionChars, maxFieldChars }: RequestLimits) {
  const text = () => z.string().trim().min(1).max(maxFieldChars, `must be at most ${maxFieldChars} characters`);
  return z.strictObject({
    requests: z
      .array(
        z.strictObject({
          description: z.string().trim().min(1).max(maxDescriptionChars, `must be at most ${maxDescriptionChars} characters`),
          feature: text().optional(),
          url: text().url().optional(),
          complexity: z.enum(['easy', 'medium', 'hard']).optional(),
        }),
      )
      .min(1),
  });
}
export type EvalRequests = z.infer<ReturnType<typeof evalFile>>['requests'];

/** Reads a requests file; a bad one (a description over the limit too) is a configuration error naming the file, key and line. */
export function loadEvalRequests(file: string, limits: RequestLimits): EvalRequests {
  return checkWithSchema(readYamlFile(file), evalFile(limits)).requests;
}

export interface EvalRow {
  description: string;
  attempts: number;
  rules_passed: boolean;
  critic: 'approved' | 'rejected' | null;
  critic_rejections: number;
  run: string | null;
  heals: number;
  accepted: boolean;
  /** Where its spec was written (accepted or kept for review), or null. */
  spec: string | null;
  model_calls: number;
  tokens: number;
  duration_ms: number;
  max_retries_hit: boolean;
  error: string | null;
}

export interface EvalReport {
  self_validation: boolean;
  /** The folder under Scribe's home holding this eval's specs. */
  specs_dir: string;
  requests: EvalRow[];
  totals: {
    requests: number;
    attempts: number;
    model_calls: number;
    tokens: number;
    heals: number;
    critic_rejections: number;
    duration_ms: number;
    first_attempt_pass_rate: number;
    accepted_and_green_rate: number;
    model_calls_per_accepted_spec: number | null;
    max_retries_hit_rate: number;
  };
}

export interface EvalOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The project, read once by the caller (who starts its webServer); default: read from cwd and env. */
  project?: ProjectContext;
  url?: string;
  selfValidation: boolean;
  onEvent?: (index: number, event: PipelineEvent) => void;
  /** Aborting stops the request being generated (its run included) and leaves the rest unasked. */
  signal?: AbortSignal;
}

export async function runEval(requests: EvalRequests, options: EvalOptions): Promise<EvalReport> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  const specsDir = path.join(statsHome(options.env, options.cwd), 'eval', stamp);
  const rows: EvalRow[] = [];
  for (const [index, request] of requests.entries()) {
    options.signal?.throwIfAborted();
    const home = mkdtempSync(path.join(tmpdir(), 'scribe-eval-'));
    try {
      const stats = new StatsLog(home);
      const events: PipelineEvent[] = [];
      const started = performance.now();
      const { document } = await generateSpec(
        {
          description: request.description,
          feature: request.feature,
          // Numbered, so two requests alike do not share a file.
          outputPath: path.join(specsDir, `${String(index + 1).padStart(2, '0')}-${slugify(request.description)}.spec.ts`),
          url: request.url ?? options.url,
          complexity: request.complexity,
          selfValidation: options.selfValidation,
        },
        { cwd: options.cwd, env: options.env, project: options.project, stats, signal: options.signal, reporters: [progressReporter(options.cwd, (event) => { events.push(event); options.onEvent?.(index, event); }, 'the terminal')] },
      );
      const recorded = stats.read();
      const calls = recorded.filter((e) => e.type === 'model_call');
      const verdicts = recorded.filter((e) => e.type === 'critic_verdict');
      rows.push({
        description: request.description,
        attempts: document.attempts,
        rules_passed: recorded.some((e) => e.type === 'validation' && e.passed),
        critic: document.critic?.status ?? null,
        critic_rejections: verdicts.filter((e) => 'status' in e && e.status === 'rejected').length,
        run: document.runner?.classification ?? null,
        heals: events.filter((e) => e.stage === 'medic' && e.status === 'started').length,
        accepted: document.success,
        spec: document.testPath,
        model_calls: calls.length,
        tokens: calls.reduce((sum, e) => sum + ('tokens' in e ? e.tokens.total : 0), 0),
        duration_ms: Math.round(performance.now() - started),
        max_retries_hit: recorded.some((e) => e.type === 'give_up' && e.reason === 'max_retries'),
        error: document.error,
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  return { self_validation: options.selfValidation, specs_dir: specsDir, requests: rows, totals: totalsOf(rows) };
}

function totalsOf(rows: EvalRow[]): EvalReport['totals'] {
  const sum = (key: 'attempts' | 'model_calls' | 'tokens' | 'heals' | 'critic_rejections' | 'duration_ms') => rows.reduce((total, row) => total + row[key], 0);
  const rate = (count: number) => (rows.length === 0 ? 0 : count / rows.length);
  const accepted = rows.filter((row) => row.accepted && row.run === 'pass').length;
  return {
    requests: rows.length,
    attempts: sum('attempts'),
    model_calls: sum('model_calls'),
    tokens: sum('tokens'),
    heals: sum('heals'),
    critic_rejections: sum('critic_rejections'),
    duration_ms: sum('duration_ms'),
    first_attempt_pass_rate: rate(rows.filter((row) => row.rules_passed && row.attempts === 1).length),
    accepted_and_green_rate: rate(accepted),
    model_calls_per_accepted_spec: accepted === 0 ? null : sum('model_calls') / accepted,
    max_retries_hit_rate: rate(rows.filter((row) => row.max_retries_hit).length),
  };
}
