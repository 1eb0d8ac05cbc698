/**
 * The workers behind agents/workflow.yaml's blocks. Each reads the payload gathered so far, does one
 * stage's work, and answers with a signal and the segments it adds. Only here do the stages meet.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Critic } from '../agents/critic.ts';
import type { Medic } from '../agents/medic.ts';
import { runSpec } from '../agents/runner.ts';
import type { SharedBrowser } from '../agents/runner/browser-server.ts';
import type { Candidate, Scribe, SpecRecord } from '../agents/scribe.ts';
import { SpecExistsError, specStem } from '../agents/scribe-files.ts';
import { renderTemplate } from '../config/scribe.ts';
import type { CriticVerdict, Issue } from '../contracts.ts';
import { runTarget, type ProjectContext } from '../project/context.ts';
import { statsHome } from '../stats/log.ts';
import type { GenerationReporter } from '../agents/reporter.ts';
import type { Worker, WorkerOutput } from './orchestrator.ts';
import { RunState } from './run-state.ts';
import type { PipelineSegment } from './segments.ts';
import { RUNNER_SIGNAL, type SignalOf, type WorkerName } from '../config/worker-contracts.ts';

export interface WorkerDeps {
  scribe: Scribe;
  critic: Critic;
  /** Made on first use: healing needs the model, which a run that passes never asks twice. */
  medic: () => Promise<Medic>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  project: ProjectContext;
  generation: string;
  /** Run the spec against the app (the request's `run`, default true). */
  run: boolean;
  /** The generation's reporter: the stats of a run are derived from what it is told. */
  reporter: GenerationReporter;
  /** The generation's browser: every run's test connects to it. */
  browser?: SharedBrowser;
  /** Each stage's time so far, for the provenance record. */
  timings?: () => Record<string, number>;
  signal?: AbortSignal;
  emit: (stage: string, status: 'started' | 'done' | 'failed' | 'info', message: string) => void;
}

/** What worker `W` answers: only the signals its contract lists. */
type Output<W extends WorkerName> = WorkerOutput<PipelineSegment, SignalOf<W>>;

/** One worker per name of the contract, each typed by its signals. */
export type PipelineWorkers = { [W in WorkerName]: Worker<PipelineSegment, SignalOf<W>> };

export function pipelineWorkers(deps: WorkerDeps): PipelineWorkers {
  const on = <Signal extends string>(work: (state: RunState) => WorkerOutput<PipelineSegment, Signal> | Promise<WorkerOutput<PipelineSegment, Signal>>): Worker<PipelineSegment, Signal> =>
    async (payload) => work(new RunState(payload));
  return {
    scribe: on((state) => scribeWorker(deps, state)),
    critic: on((state) => criticWorker(deps, state)),
    stage: on((state) => stageWorker(deps, state)),
    runner: on((state) => runnerWorker(deps, state)),
    medic: on((state) => medicWorker(deps, state)),
    accept: on((state) => acceptWorker(deps, state)),
    keep_unrun: on((state) => keepWorker(deps, state, 'not_run', notRunNote(state))),
    fallback: on((state) => keepWorker(deps, state, 'needs_review', fallbackNote(deps, state))),
    keep_app_bug: on((state) => keepWorker(deps, state, 'needs_review', regressionNote(state))),
  };
}

/** Generates a candidate; after a Critic rejection, from the rejected spec and the Critic's reasons. */
async function scribeWorker(deps: WorkerDeps, state: RunState): Promise<Output<'scribe'>> {
  const task = state.task();
  const rejections = state.rejections();
  const rejected = state.lastVerdict();
  const prior = rejected?.status === 'rejected' ? { code: state.candidate().candidate.code!, issues: criticFeedback(rejected, deps.scribe.config.prompts.critic_rejection) } : undefined;
  const maxRejections = deps.scribe.config.generation.max_critic_rejections;
  if (rejections > maxRejections) {
    const last = state.candidate().candidate;
    const error = `the Critic rejected ${rejections} candidates; last: ${rejected!.reason}`;
    return { signal: 'GAVE_UP', segments: [{ type: 'SCRIBE_FAILURE', candidate: { ...last, success: false, failure: 'max_retries', error } } as const] };
  }
  if (prior) deps.emit('scribe', 'info', `the Critic sent the spec back: ${rejected!.reason}`);
  const candidate = await deps.scribe.generate(task, prior, deps.generation);
  if (!candidate.success) return { signal: 'GAVE_UP', segments: [{ type: 'SCRIBE_FAILURE', candidate } as const] };
  return { signal: 'CANDIDATE', segments: [{ type: 'CANDIDATE', candidate, origin: 'scribe' } as const] };
}

/**
 * The Critic's findings as the issues Scribe's feedback shows; a rejection without findings gives its reason
 * in agents/scribe.yaml's `prompts.critic_rejection`.
 */
function criticFeedback(verdict: CriticVerdict, rejection: string): Issue[] {
  const errors = verdict.issues_found.filter((i) => i.severity === 'error');
  if (errors.length > 0) return errors;
  return [{ rule: 'critic-review', severity: 'error', message: renderTemplate(rejection, { reason: verdict.reason }), line: 0, column: 0, fixable: false }];
}

async function criticWorker(deps: WorkerDeps, state: RunState): Promise<Output<'critic'>> {
  const task = state.task();
  const { candidate } = state.candidate();
  deps.emit('critic', 'started', 'the Critic reviews the spec');
  const verdict = await deps.critic.review({ file: candidate.file, code: candidate.code!, request: task, generation: deps.generation });
  const approved = verdict.status === 'approved';
  deps.emit('critic', approved ? 'done' : 'failed', approved ? `approved (about ${(verdict.estimated_duration_ms / 1000).toFixed(1)} s a run)` : `rejected: ${verdict.reason}`);
  return { signal: approved ? 'APPROVED' : 'REJECTED', segments: [{ type: 'VERDICT', verdict } as const] };
}

function stageWorker(deps: WorkerDeps, state: RunState): Output<'stage'> {
  const task = state.task();
  if (deps.run && task.url) return { signal: 'STAGED' };
  if (deps.run) deps.emit('run', 'info', 'not run: no app URL (pass --url or set BASE_URL)');
  return { signal: 'NO_RUN' };
}

async function runnerWorker(deps: WorkerDeps, state: RunState): Promise<Output<'runner'>> {
  const task = state.task();
  const { candidate } = state.candidate();
  deps.emit('run', 'started', `running the spec against ${task.url}`);
  const report = await runSpec({
    specText: candidate.code!,
    fileName: path.basename(candidate.file),
    sourceDir: path.dirname(candidate.file),
    baseURL: task.url!,
    cwd: deps.cwd,
    env: deps.env,
    ...runTarget(deps.project),
    // Every candidate is model-written.
    untrusted: true,
    signal: deps.signal,
    ...(deps.browser ? { browser: deps.browser } : {}),
  });
  deps.reporter.report({ type: 'runner_outcome', generation: deps.generation, status: report.status, classification: report.classification });
  const passed = report.classification === 'pass';
  deps.emit('run', passed ? 'done' : 'failed', passed ? `passed in ${(report.duration_ms / 1000).toFixed(1)} s` : `${report.classification}: ${report.error_message ?? report.status}`);
  const segment = report.segment ?? { type: 'TEST_RESULT' as const, content: report.error_message ?? '', outcome: passed ? ('PASS' as const) : ('FAIL' as const) };
  return { signal: RUNNER_SIGNAL[report.classification], segments: [{ ...segment, report }] };
}

async function medicWorker(deps: WorkerDeps, state: RunState): Promise<Output<'medic'>> {
  const task = state.task();
  const current = state.candidate();
  const result = state.lastRun();
  const healsUsed = state.healsUsed();
  const maxAttempts = deps.scribe.config.medic.max_debug_attempts;
  if (!result || healsUsed >= maxAttempts) return { signal: 'EXHAUSTED' };
  const provider = await deps.scribe.modelProvider();
  if (provider.name === 'offline') {
    const reasons = ['the offline generator writes the same spec again; healing needs a model (set OPENAI_API_KEY or OPENAI_BASE_URL)'];
    deps.emit('medic', 'failed', reasons[0]!);
    return { signal: 'EXHAUSTED', segments: [{ type: 'HEAL', outcome: 'failed', reasons } as const] };
  }
  const attempt = healsUsed + 1;
  deps.emit('medic', 'started', `heal ${attempt}/${maxAttempts}: ${result.report.classification} — ${result.report.error_message ?? ''}`);
  const medic = await deps.medic();
  const healed = await medic.heal({
    file: current.candidate.file,
    code: current.candidate.code!,
    report: result.report,
    request: task,
    attempt,
    maxAttempts,
    generation: deps.generation,
    previousRefusal: state.lastRefusal()?.join('\n'),
  });
  if (healed.status === 'healed') {
    deps.emit('medic', 'done', `heal ${attempt}: a new spec keeps every assertion`);
    const candidate: Candidate = { ...current.candidate, code: healed.code };
    return { signal: 'HEALED', segments: [{ type: 'HEAL', outcome: 'healed', reasons: [] as string[] } as const, { type: 'CANDIDATE', candidate, origin: 'medic' } as const] };
  }
  const reasons = healed.status === 'refused' ? healed.reasons : [healed.error];
  deps.emit('medic', 'failed', `heal ${attempt} ${healed.status}: ${reasons.join('; ')}`);
  const signal = healed.status === 'refused' && attempt < maxAttempts ? 'REFUSED' : 'EXHAUSTED';
  return { signal, segments: [{ type: 'HEAL', outcome: healed.status, reasons } as const] };
}

function acceptWorker(deps: WorkerDeps, state: RunState): Output<'accept'> {
  const task = state.task();
  const { candidate } = state.candidate();
  const ran = state.lastRun();
  // A stand-in that does not test the request is never reported as the requested test, even when green.
  if (candidate.substitute) return { ...keepWorker(deps, state, 'needs_review', `kept for review: ${candidate.substitute}`), signal: 'FAILED' };
  const record: SpecRecord = { ...evidence(state), status: ran ? 'accepted' : 'not_run', ...(ran ? {} : { note: 'not run: no app URL or --no-run' }), ...timingsOf(deps) };
  try {
    const testPath = deps.scribe.write(candidate, task, record);
    return { signal: 'ACCEPTED', segments: [{ type: 'OUTCOME', status: 'accepted', testPath, message: ran ? 'passed the rules, the Critic and a green run' : 'passed the rules and the Critic (not run)' } as const] };
  } catch (error) {
    if (!(error instanceof SpecExistsError)) throw error;
    return { signal: 'FAILED', segments: [{ type: 'OUTCOME', status: 'accepted', testPath: null, message: error.message } as const] };
  }
}

/**
 * Keeps a validated spec that is not accepted (not run, or failing) beside where it was meant to go, as
 * `<name>.<status>.ts` (under .scribe/review/ when the user's testMatch would pick that up): outside
 * Playwright's testMatch, and never over an existing file.
 */
function keepWorker(deps: WorkerDeps, state: RunState, status: 'not_run' | 'needs_review', note: string): WorkerOutput<PipelineSegment, 'KEPT'> {
  const task = state.task();
  const best = state.bestCandidate();
  const file = freeReviewPath(task.file, status, deps.project);
  const testPath = deps.scribe.write({ ...best, file }, task, { ...evidence(state), status, note, force: false, ...timingsOf(deps) });
  deps.emit('keep', 'info', `kept for review: ${path.relative(deps.cwd, testPath) || testPath} (${note})`);
  return { signal: 'KEPT', segments: [{ type: 'OUTCOME', status, testPath, message: note } as const] };
}

function freeReviewPath(file: string, status: 'not_run' | 'needs_review', project: ProjectContext): string {
  const suffix = status === 'not_run' ? 'not-run' : 'needs-review';
  const beside = specStem(file);
  const matched = project.playwright?.matches(`${beside}.${suffix}.ts`) === true;
  const base = matched ? path.join(statsHome(project.env, project.cwd), 'review', path.relative(project.cwd, beside).replace(/^(\.\.[\\/])+/, '')) : beside;
  for (let n = 1; ; n++) {
    const candidate = `${base}.${suffix}${n === 1 ? '' : `-${n}`}.ts`;
    if (!existsSync(candidate)) return candidate;
  }
}

function timingsOf(deps: WorkerDeps): Pick<SpecRecord, 'timings_ms'> {
  return deps.timings ? { timings_ms: deps.timings() } : {};
}

/** The Critic's verdict and the last run, for the provenance record. */
function evidence(state: RunState): SpecRecord {
  const verdict = state.lastVerdict();
  const report = state.lastRun()?.report;
  return {
    ...(verdict ? { critic: { status: verdict.status, estimated_duration_ms: verdict.estimated_duration_ms, estimated_cost: verdict.estimated_cost } } : {}),
    ...(report
      ? { runner: { status: report.status, classification: report.classification, duration_ms: report.duration_ms, error_message: report.error_message, screenshots: report.screenshots } }
      : {}),
  };
}

function notRunNote(state: RunState): string {
  const report = state.lastRun()?.report;
  return `not run: the environment failed (${report?.error_message ?? 'unknown reason'}); fix it and run \`scribe run\` on this spec`;
}

function regressionNote(state: RunState): string {
  const report = state.lastRun()?.report;
  const line = report?.error_line ? ` at line ${report.error_line}` : '';
  return `possible regression: an assertion on an element that exists failed${line}: ${report?.error_message ?? report?.status ?? 'unknown'}`;
}

function fallbackNote(deps: WorkerDeps, state: RunState): string {
  const report = state.lastRun()?.report;
  const heals = state.healsUsed();
  return `needs human review: still failing after ${heals} heal attempt${heals === 1 ? '' : 's'} (max ${deps.scribe.config.medic.max_debug_attempts}): ${report?.classification ?? ''} ${report?.error_message ?? ''}`.trim();
}
