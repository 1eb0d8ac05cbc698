/**
 * The events of the statistics log, one JSON object a line. Every event names the generation it
 * belongs to, so aggregates can follow one request through its attempts and stages.
 */
import { z } from 'zod';
import { RunClassification, ProofVerdict } from '../contracts.ts';

const Common = {
  v: z.literal(1),
  time: z.string(),
  generation: z.string().min(1),
};

const Tokens = z.object({ prompt: z.number().int().nonnegative(), completion: z.number().int().nonnegative(), total: z.number().int().nonnegative() });

/** One call to a model provider, successful or not (a failed call uses no tokens). */
export const ModelCallEvent = z.object({
  ...Common,
  type: z.literal('model_call'),
  provider: z.string(),
  model: z.string(),
  /** HTTP attempts, retries on 429/5xx/timeouts included. */
  attempts: z.number().int().nonnegative(),
  tokens: Tokens,
  error: z.string().nullable(),
});

/** One model answer validated (after the safe autofixes; an autofix pass is not a new attempt). */
export const ValidationEvent = z.object({
  ...Common,
  type: z.literal('validation'),
  attempt: z.number().int().positive(),
  passed: z.boolean(),
  /** Rule id of each error left after autofix, once per issue (what sent the attempt back). */
  errors: z.array(z.string()),
  /** Rule id of each problem the autofix repaired. */
  autofixed: z.array(z.string()),
});

/** Another attempt is starting because the previous one left errors (or a later stage rejected it). */
export const RetryEvent = z.object({
  ...Common,
  type: z.literal('retry'),
  attempt: z.number().int().min(2),
  rules: z.array(z.string()),
});

/**
 * Why a generation ended without a spec: its attempts (or the Critic's rejections) ran out, the model
 * could not be reached or set up, the spec was kept for review instead of accepted, its file appeared
 * meanwhile, it was stopped (a signal, a server shutting down) or Scribe itself failed.
 */
export const GiveUpReason = z.enum(['max_retries', 'model_error', 'model_config', 'not_accepted', 'exists', 'interrupted', 'error']);

export const GiveUpEvent = z.object({
  ...Common,
  type: z.literal('give_up'),
  attempts: z.number().int().nonnegative(),
  reason: GiveUpReason,
  error: z.string(),
});

/** The generation's spec was written as accepted (or, under --no-run, accepted without a run). */
export const SuccessEvent = z.object({
  ...Common,
  type: z.literal('success'),
  attempts: z.number().int().positive(),
});

export const CriticVerdictEvent = z.object({
  ...Common,
  type: z.literal('critic_verdict'),
  status: z.enum(['approved', 'rejected']),
  rules: z.array(z.string()),
});

export const RunnerOutcomeEvent = z.object({
  ...Common,
  type: z.literal('runner_outcome'),
  status: z.enum(['pass', 'fail', 'timeout', 'error']),
  classification: RunClassification,
  /** A green run's proof run: proved, unproved, no_actions or inconclusive. */
  proof: ProofVerdict.optional(),
  /** A contained run: whether it had the OS sandbox (under `auto`, a machine without one runs without it). */
  os_sandbox: z.boolean().optional(),
});

/** One Medic attempt: healed (the heal passed), failed, or refused because it weakened the test. */
export const HealEvent = z.object({
  ...Common,
  type: z.literal('heal'),
  outcome: z.enum(['healed', 'failed', 'refused']),
});

export const StatsEvent = z.discriminatedUnion('type', [
  ModelCallEvent,
  ValidationEvent,
  RetryEvent,
  GiveUpEvent,
  SuccessEvent,
  CriticVerdictEvent,
  RunnerOutcomeEvent,
  HealEvent,
]);
export type StatsEvent = z.infer<typeof StatsEvent>;

/** An event as a caller records it: the log adds the version and the time. */
export type NewStatsEvent = StatsEvent extends infer E ? (E extends StatsEvent ? Omit<E, 'v' | 'time'> : never) : never;
