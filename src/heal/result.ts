/** The `heal --json` document and the MCP `heal_spec` tool's answer: one zod schema, one place. */
import { z } from 'zod';
import { RunClassification } from '../contracts.ts';

/**
 * What became of one spec:
 * - passed: green as it was; never touched, no model call.
 * - healed: a heal kept every assertion and its rerun was green; written in place (or, under --dry-run, shown).
 * - regression: an assertion on an element that exists failed: a possible app bug, reported, never healed.
 * - environment: the run could not test the app (unreachable app, a failing setup project, a missing variable).
 * - not_healed: a test bug no heal fixed (refused for weakening, still failing, no model).
 */
export const SpecHealStatus = z.enum(['passed', 'healed', 'regression', 'environment', 'not_healed']);
export type SpecHealStatus = z.infer<typeof SpecHealStatus>;

export const SpecHealOutcome = z.object({
  /** The spec, relative to the project. */
  file: z.string(),
  status: SpecHealStatus,
  /** How the Runner classified the spec's own run. */
  classification: RunClassification,
  /** The run's error, or why no heal was kept. */
  message: z.string().nullable(),
  error_line: z.number().int().nullable(),
  heal_attempts: z.number().int().nonnegative(),
  model_calls: z.number().int().nonnegative(),
  /** The heal as a unified diff (healed specs only). */
  diff: z.string().nullable(),
  /** Whether the heal was written over the spec (false under --dry-run). */
  written: z.boolean(),
  /** Why heals were refused or failed, in order. */
  reasons: z.array(z.string()),
  duration_ms: z.number().nonnegative(),
});
export type SpecHealOutcome = z.infer<typeof SpecHealOutcome>;

export const HealSuiteResult = z.object({
  /** Every spec passes, or was healed. */
  success: z.boolean(),
  dry_run: z.boolean(),
  specs: z.array(SpecHealOutcome),
  summary: z.object({
    specs: z.number().int(),
    passed: z.number().int(),
    healed: z.number().int(),
    regression: z.number().int(),
    environment: z.number().int(),
    not_healed: z.number().int(),
    model_calls: z.number().int(),
  }),
  duration_ms: z.number().nonnegative(),
});
export type HealSuiteResult = z.infer<typeof HealSuiteResult>;

export function summarize(specs: readonly SpecHealOutcome[], dryRun: boolean, durationMs: number): HealSuiteResult {
  const count = (status: SpecHealStatus) => specs.filter((spec) => spec.status === status).length;
  return HealSuiteResult.parse({
    success: specs.every((spec) => spec.status === 'passed' || spec.status === 'healed'),
    dry_run: dryRun,
    specs,
    summary: {
      specs: specs.length,
      passed: count('passed'),
      healed: count('healed'),
      regression: count('regression'),
      environment: count('environment'),
      not_healed: count('not_healed'),
      model_calls: specs.reduce((sum, spec) => sum + spec.model_calls, 0),
    },
    duration_ms: durationMs,
  });
}

/** A suite's heal as `heals.jsonl` keeps it. */
export const HealRecord = HealSuiteResult.extend({ time: z.string() });
export type HealRecord = z.infer<typeof HealRecord>;
