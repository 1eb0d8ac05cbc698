/**
 * The `scribe stats` document (README's Statistics and CI), computed from the event log with these formulas:
 *
 * - validation_attempts: model answers validated (validation events; an autofix pass is not an attempt)
 * - validation_failures: validated answers with errors left after autofix
 * - success_rate = (validation_attempts − validation_failures) / validation_attempts (of validated answers)
 * - generation_success_rate = generations that succeeded / generations finished (succeeded or gave up):
 *   the rate a user means by "success", gave-ups included (an extension of DESIGN.md's document)
 * - total_retries_used = attempts beyond the first of each generation (retry events)
 * - avg_retries_per_success = retries of generations that succeeded / generations that succeeded
 * - first_attempt_pass_rate = generations whose first answer passed / generations with a first answer validated
 * - max_retries_hit_rate = generations that gave up with every attempt spent / generations finished
 *   (succeeded or gave up)
 * - critic_rejection_rate = rejected verdicts / verdicts
 * - runner_pass_rate = runs classified `pass` / runs
 * - runner_runs_without_os_sandbox: contained runs that had no OS sandbox (off, not installed, or its probe failed)
 * - issues_by_rule: errors left after autofix, per rule id (each issue counted); autofixes_by_rule:
 *   problems the autofix repaired, per rule id
 *
 * A rate whose denominator is zero is 0 (nothing happened yet, so nothing to boast or worry about);
 * rates are rounded to 4 decimals.
 */
import { z } from 'zod';
import type { StatsEvent } from './events.ts';

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);
const Counts = z.record(z.string(), count);

export const StatsDocument = z.strictObject({
  agent: z.literal('scribe'),
  generations: count,
  generations_succeeded: count,
  generations_gave_up: count,
  validation_attempts: count,
  validation_failures: count,
  success_rate: rate,
  generation_success_rate: rate,
  total_retries_used: count,
  avg_retries_per_success: z.number().nonnegative(),
  first_attempt_pass_rate: rate,
  max_retries_hit_rate: rate,
  critic_verdicts: count,
  critic_rejections: count,
  critic_rejection_rate: rate,
  runner_runs: count,
  runner_pass_rate: rate,
  runner_failures_by_classification: z.strictObject({ test_bug: count, app_bug: count, environment: count, timeout: count }),
  runner_runs_without_os_sandbox: count,
  heal_attempts: count,
  heal_successes: count,
  weakening_heals_refused: count,
  issues_by_rule: Counts,
  autofixes_by_rule: Counts,
  llm_calls: count,
  llm_call_failures: count,
  llm_http_attempts: count,
  tokens: z.strictObject({ prompt: count, completion: count, total: count }),
});
export type StatsDocument = z.infer<typeof StatsDocument>;

/** The numeric fields a `--fail-under` gate may name. */
export const GATE_KEYS = Object.entries(StatsDocument.shape)
  .filter(([, schema]) => schema instanceof z.ZodNumber)
  .map(([key]) => key);

export function computeStats(events: readonly StatsEvent[]): StatsDocument {
  const of = <T extends StatsEvent['type']>(type: T) => events.filter((e): e is Extract<StatsEvent, { type: T }> => e.type === type);
  const validations = of('validation');
  const retries = of('retry');
  const successes = of('success');
  const giveUps = of('give_up');
  const verdicts = of('critic_verdict');
  const runs = of('runner_outcome');
  const heals = of('heal');
  const calls = of('model_call');

  const succeeded = new Set(successes.map((e) => e.generation));
  const firstAnswers = validations.filter((e) => e.attempt === 1);
  const failures = validations.filter((e) => !e.passed).length;
  const finished = new Set([...succeeded, ...giveUps.map((e) => e.generation)]);
  const failuresByClass = { test_bug: 0, app_bug: 0, environment: 0, timeout: 0 };
  for (const run of runs) if (run.classification !== 'pass') failuresByClass[run.classification]++;

  return StatsDocument.parse({
    agent: 'scribe',
    generations: new Set(events.map((e) => e.generation)).size,
    generations_succeeded: succeeded.size,
    generations_gave_up: new Set(giveUps.map((e) => e.generation)).size,
    validation_attempts: validations.length,
    validation_failures: failures,
    success_rate: ratio(validations.length - failures, validations.length),
    generation_success_rate: ratio(succeeded.size, finished.size),
    total_retries_used: retries.length,
    avg_retries_per_success: ratio(retries.filter((e) => succeeded.has(e.generation)).length, succeeded.size),
    first_attempt_pass_rate: ratio(firstAnswers.filter((e) => e.passed).length, firstAnswers.length),
    max_retries_hit_rate: ratio(new Set(giveUps.filter((e) => e.reason === 'max_retries').map((e) => e.generation)).size, finished.size),
    critic_verdicts: verdicts.length,
    critic_rejections: verdicts.filter((e) => e.status === 'rejected').length,
    critic_rejection_rate: ratio(verdicts.filter((e) => e.status === 'rejected').length, verdicts.length),
    runner_runs: runs.length,
    runner_pass_rate: ratio(runs.filter((e) => e.classification === 'pass').length, runs.length),
    runner_failures_by_classification: failuresByClass,
    runner_runs_without_os_sandbox: runs.filter((e) => e.os_sandbox === false).length,
    heal_attempts: heals.length,
    heal_successes: heals.filter((e) => e.outcome === 'healed').length,
    weakening_heals_refused: heals.filter((e) => e.outcome === 'refused').length,
    issues_by_rule: tally(validations.flatMap((e) => e.errors)),
    autofixes_by_rule: tally(validations.flatMap((e) => e.autofixed)),
    llm_calls: calls.length,
    llm_call_failures: calls.filter((e) => e.error !== null).length,
    // The offline generator makes no HTTP request: its calls are calls, not attempts.
    llm_http_attempts: calls.filter((e) => e.provider !== 'offline').reduce((sum, e) => sum + e.attempts, 0),
    tokens: {
      prompt: calls.reduce((sum, e) => sum + e.tokens.prompt, 0),
      completion: calls.reduce((sum, e) => sum + e.tokens.completion, 0),
      total: calls.reduce((sum, e) => sum + e.tokens.total, 0),
    },
  });
}

/** numerator / denominator, 0 when the denominator is 0, rounded to 4 decimals. */
export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : Math.round((numerator / denominator) * 10_000) / 10_000;
}

/** Counts per key, keys sorted by count (then name) so the biggest problems come first. */
function tally(keys: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
