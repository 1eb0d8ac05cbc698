/**
 * The contained run of code a model may have written (the pipeline's candidates and the Medic's heals,
 * MCP run_spec, `scribe run --untrusted`): it takes only a spec the gate passed (validate/gate.ts), and
 * runs exactly the text the gate checked, whatever the file holds by then.
 */
import path from 'node:path';
import type { Issue, RunnerReport } from '../contracts.ts';
import { isGatedSpec, passGate, type GatedSpec } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { runSpec, startRun, type RunSpecOptions, type SpecToRun, type StartedRun } from './runner.ts';

/** The Runner's options but the spec's source: that is the gated spec. */
export type ContainedRunOptions = Omit<RunSpecOptions, 'specPath' | 'specText' | 'fileName' | 'sourceDir' | 'untrusted'>;

/** What is checked of a spec run in a started run (its other options were given when it started). */
export type StartedRunChecks = Omit<SpecToRun, 'text'>;

/**
 * A contained run started before the spec it will run exists (startRun: the sandbox, Playwright and its
 * browser start while the generation explores and asks the model). It runs one spec, which must have passed the
 * gate and be meant for its file; `claim` hands it out once.
 */
export class StartedContainedRun {
  readonly #run: StartedRun;
  #claimed = false;

  constructor(file: string, options: ContainedRunOptions) {
    this.#run = startRun({ ...options, fileName: path.basename(file), sourceDir: path.dirname(file), untrusted: true });
  }

  /** This run, the first time; undefined after (a later run starts its own). */
  claim(): StartedContainedRun | undefined {
    if (this.#claimed) return undefined;
    this.#claimed = true;
    return this;
  }

  async run(spec: GatedSpec, checks: StartedRunChecks): Promise<RunnerReport> {
    if (!isGatedSpec(spec)) throw new TypeError('a contained run takes only a spec the gate passed (passGate in validate/gate.ts)');
    if (path.resolve(spec.file) !== path.resolve(this.#run.file)) throw new Error(`this run was started for ${this.#run.file}, not ${spec.file}`);
    return this.#run.run({ ...checks, text: spec.text });
  }

  /** Stops it if it never ran (every generation ends with this). */
  discard(): Promise<void> {
    return this.#run.discard();
  }
}

export async function runContained(spec: GatedSpec, options: ContainedRunOptions | { started: StartedContainedRun; checks: StartedRunChecks }): Promise<RunnerReport> {
  if ('started' in options) return options.started.run(spec, options.checks);
  // The type says so already; a caller in plain JavaScript is told too.
  if (!isGatedSpec(spec)) throw new TypeError('a contained run takes only a spec the gate passed (passGate in validate/gate.ts)');
  return runSpec({ ...options, specText: spec.text, fileName: path.basename(spec.file), sourceDir: path.dirname(spec.file), untrusted: true });
}

/** A gated run: the contained run's report, or the gate's refusal (never run) with the issues that refused it. */
export type GatedRun = { ran: true; report: RunnerReport } | { ran: false; issues: Issue[]; report: RunnerReport };

/**
 * The one way model code runs: the text through the gate (a validator for untrusted code), then, only if it
 * passed, the contained run of exactly that text; a refusal is reported as a test fault that never ran.
 */
export async function runGated(gate: Validator, file: string, text: string, options: Parameters<typeof runContained>[1]): Promise<GatedRun> {
  const verdict = passGate(gate, file, text);
  if (!verdict.passed) return { ran: false, issues: verdict.issues, report: gateRefusal(verdict.issues) };
  return { ran: true, report: await runContained(verdict.spec, options) };
}

/** The report of a candidate the gate refused: never run, the test's own fault (the Medic is shown why). */
function gateRefusal(issues: Issue[]): RunnerReport {
  const first = issues[0]!;
  return {
    status: 'error',
    classification: 'test_bug',
    duration_ms: 0,
    error_message: `refused by the allow-list gate, not run: [${first.rule}] line ${first.line}: ${first.message}`,
    error_line: first.line,
    screenshots: [],
    console_errors: [],
  };
}
