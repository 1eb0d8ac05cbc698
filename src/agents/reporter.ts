/**
 * What happens during a generation, reported through one interface (as Playwright's runner reports
 * through one reporter interface and a multiplexer). Every stage reports to a GenerationReporter; the
 * terminal's and an HTTP job's stage lines, the stage clock and the statistics log are implementations
 * of it, joined by `multiplex`. Statistics are derived from these events, never recorded beside them.
 * A reporter that throws is recorded (a `reporter_failed` event to the others), never fatal to the generation.
 */
import type { Issue } from '../contracts.ts';
import type { RetryNotice } from '../llm/client.ts';
import type { NewStatsEvent } from '../stats/events.ts';
import { StatsLog, type StatsSink } from '../stats/log.ts';
import type { AppliedFix } from '../validate/validator.ts';
import { errorRuleIds } from './spec-check.ts';

export type StageStatus = 'started' | 'done' | 'failed' | 'info';

/** Facts the statistics keep as they are: a model call with its tokens, a verdict, a run, a heal, the outcome. */
type RecordedFact = Exclude<NewStatsEvent, { type: 'validation' } | { type: 'retry' }>;

export type GenerationEvent =
  /** A stage began, ended, or has something to say (explore, scribe, critic, run, medic, write, project). */
  | { type: 'stage'; stage: string; status: StageStatus; message: string }
  | { type: 'attempt'; attempt: number; maxAttempts: number; provider: string; model: string }
  | { type: 'model_retry'; notice: RetryNotice }
  | { type: 'validating'; attempt: number; /** Which code block of the answer is validated, and why. */ chosen: string }
  | { type: 'autofixed'; attempt: number; fixes: AppliedFix[] }
  /** An attempt's findings after autofix; `accepted` when it goes on, `retrying` when another attempt follows. */
  | { type: 'validated'; generation: string; attempt: number; maxAttempts: number; issues: Issue[]; autofixed: AppliedFix[]; accepted: boolean; retrying: boolean }
  /** Scribe's attempt loop ended with no validated spec (the generation's outcome, `give_up`, is recorded later). */
  | { type: 'attempts_failed'; attempts: number; error: string }
  /** A reporter threw: it is told the events that follow still, and this is reported once per reporter. */
  | { type: 'reporter_failed'; reporter: string; error: string }
  | { type: 'written'; testPath: string }
  | RecordedFact;

export interface GenerationReporter {
  /** What a failure of this reporter is called in the line that reports it (default: "a reporter"). */
  readonly name?: string;
  report(event: GenerationEvent): void;
}

/**
 * One reporter that hands every event to each of these, in order. One that throws does not stop the others
 * or the generation: its first failure goes to the others as a `reporter_failed` event.
 */
export function multiplex(...reporters: ReadonlyArray<GenerationReporter | undefined>): GenerationReporter {
  const present = reporters.filter((r): r is GenerationReporter => r !== undefined);
  const failed = new Set<GenerationReporter>();
  const tell = (reporter: GenerationReporter, event: GenerationEvent): void => {
    try {
      reporter.report(event);
    } catch (error) {
      if (failed.has(reporter)) return;
      failed.add(reporter);
      const failure: GenerationEvent = { type: 'reporter_failed', reporter: reporter.name ?? 'a reporter', error: error instanceof Error ? error.message : String(error) };
      for (const other of present) if (other !== reporter) tell(other, failure);
    }
  };
  return { report: (event) => present.forEach((reporter) => tell(reporter, event)) };
}

/** The statistics events an event means: the recorded facts as they are, an attempt's validation (and retry). */
export function statsEventsOf(event: GenerationEvent): NewStatsEvent[] {
  switch (event.type) {
    case 'validated': {
      const errors = event.issues.filter((i) => i.severity === 'error');
      const validation: NewStatsEvent = { type: 'validation', generation: event.generation, attempt: event.attempt, passed: errors.length === 0, errors: errors.map((i) => i.rule), autofixed: event.autofixed.map((f) => f.rule) };
      return event.retrying ? [validation, { type: 'retry', generation: event.generation, attempt: event.attempt + 1, rules: errorRuleIds(event.issues) }] : [validation];
    }
    case 'model_call':
    case 'critic_verdict':
    case 'runner_outcome':
    case 'heal':
    case 'success':
    case 'give_up':
      return [event];
    default:
      return [];
  }
}

/** The statistics log as a reporter. */
export function statsReporter(sink: StatsSink): GenerationReporter {
  return { name: 'the statistics log', report: (event) => statsEventsOf(event).forEach((e) => sink.record(e)) };
}

/**
 * The reporter of a stage used on its own (the library): `reporter` if given, and the statistics log
 * unless `stats` is false (by default the log in $SCRIBE_HOME, else <cwd>/.scribe).
 */
export function stageReporter(options: { reporter?: GenerationReporter; stats?: StatsSink | false }, env: NodeJS.ProcessEnv, cwd: string): GenerationReporter {
  return multiplex(options.stats === false ? undefined : statsReporter(options.stats ?? StatsLog.at(env, cwd)), options.reporter);
}
