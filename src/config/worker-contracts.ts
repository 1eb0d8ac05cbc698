/**
 * The workers the pipeline offers agents/workflow.yaml, and what each one may do there: the signals it
 * emits and its part in the Critic's gate. The workflow file is checked against this list when it is
 * loaded, and each worker's answer is typed by it (src/workflow/workers.ts).
 */
import type { RunClassification } from '../contracts.ts';

export interface WorkerContract {
  /** Every signal the worker emits. */
  readonly signals: readonly string[];
  /** The signals that hand on a spec the Critic has not seen yet (a new candidate, a heal). */
  readonly newSpec?: readonly string[];
  /** The signal with which the worker approves the current spec: the Critic's gate. */
  readonly approves?: string;
  /**
   * What the worker runs or writes: the current spec (which must have been approved since it was made),
   * or the last spec the Critic approved (so one must have been).
   */
  readonly actsOn?: 'current_spec' | 'last_approved_spec';
}

export const PIPELINE_WORKERS = {
  scribe: { signals: ['CANDIDATE', 'GAVE_UP'], newSpec: ['CANDIDATE'] },
  critic: { signals: ['APPROVED', 'REJECTED'], approves: 'APPROVED' },
  stage: { signals: ['STAGED', 'NO_RUN'] },
  // UNPROVED: green, but its proof run (the spec without its actions) passed too.
  runner: { signals: ['PASS', 'TEST_BUG', 'APP_BUG', 'ENVIRONMENT', 'TIMEOUT', 'UNPROVED'], actsOn: 'current_spec' },
  // After an unproved run: another candidate with the proof's feedback (RETRY), or the spec kept for review.
  unproved: { signals: ['RETRY', 'KEPT'], actsOn: 'last_approved_spec' },
  medic: { signals: ['HEALED', 'REFUSED', 'EXHAUSTED'], newSpec: ['HEALED'] },
  accept: { signals: ['ACCEPTED', 'FAILED'], actsOn: 'current_spec' },
  keep_unrun: { signals: ['KEPT'], actsOn: 'last_approved_spec' },
  fallback: { signals: ['KEPT'], actsOn: 'last_approved_spec' },
  keep_app_bug: { signals: ['KEPT'], actsOn: 'last_approved_spec' },
} as const satisfies Record<string, WorkerContract>;

export type WorkerName = keyof typeof PIPELINE_WORKERS;
export type SignalOf<W extends WorkerName> = (typeof PIPELINE_WORKERS)[W]['signals'][number];

export const WORKER_NAMES = Object.keys(PIPELINE_WORKERS) as WorkerName[];

/** Workers' old names, still read in agents/workflow.yaml (and reported as deprecated). */
export const RENAMED_WORKERS: Readonly<Record<string, WorkerName>> = { report: 'keep_app_bug' };

export function isWorkerName(name: string): name is WorkerName {
  return Object.hasOwn(PIPELINE_WORKERS, name);
}

/** The Runner's signal for each classification of a run. */
export const RUNNER_SIGNAL: Readonly<Record<RunClassification, SignalOf<'runner'>>> = {
  pass: 'PASS',
  test_bug: 'TEST_BUG',
  app_bug: 'APP_BUG',
  environment: 'ENVIRONMENT',
  timeout: 'TIMEOUT',
};
