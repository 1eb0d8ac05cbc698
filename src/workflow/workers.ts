/**
 * The workers behind agents/workflow.yaml's blocks. Each reads the payload gathered so far, does one
 * stage's work, and answers with a signal and the segments it adds. Only here do the stages meet.
 */
import path from 'node:path';
import { runGated, type ContainedRunOptions, type StartedRunChecks } from '../agents/contained-run.ts';
import type { Candidate } from '../agents/scribe.ts';
import { renderTemplate } from '../config/scribe.ts';
import type { CriticVerdict, Issue, ProofResult } from '../contracts.ts';
import { namedActions, namedActionWords } from '../agents/request-actions.ts';
import { runTarget } from '../project/context.ts';
import { SpecExistsError } from '../store/spec-files.ts';
import type { ReviewStatus, SpecEvidence } from '../store/spec-store.ts';
import { reportStage, type GenerationContext, type Stages } from './generation-context.ts';
import type { Worker, WorkerOutput } from './orchestrator.ts';
import { RunState } from './run-state.ts';
import { withoutRunError } from './progress-reporter.ts';
import type { PipelineSegment } from './segments.ts';
import { RUNNER_SIGNAL, type SignalOf, type WorkerName } from '../config/worker-contracts.ts';

/** What worker `W` answers: only the signals its contract lists. */
type Output<W extends WorkerName> = WorkerOutput<PipelineSegment, SignalOf<W>>;

/** One worker per name of the contract, each typed by its signals. */
export type PipelineWorkers = { [W in WorkerName]: Worker<PipelineSegment, SignalOf<W>> };

export function pipelineWorkers(context: GenerationContext, stages: Stages): PipelineWorkers {
  const on = <Signal extends string>(work: (state: RunState) => WorkerOutput<PipelineSegment, Signal> | Promise<WorkerOutput<PipelineSegment, Signal>>): Worker<PipelineSegment, Signal> =>
    async (payload) => work(new RunState(payload));
  return {
    scribe: on((state) => scribeWorker(context, stages, state)),
    critic: on((state) => criticWorker(context, stages, state)),
    stage: on((state) => stageWorker(context, state)),
    runner: on((state) => runnerWorker(context, stages, state)),
    medic: on((state) => medicWorker(context, stages, state)),
    accept: on((state) => acceptWorker(context, stages, state)),
    keep_unrun: on((state) => keepWorker(context, stages, state, 'not_run', notRunNote(state))),
    fallback: on((state) => keepWorker(context, stages, state, 'needs_review', fallbackNote(stages, state))),
    unproved: on((state) => unprovedWorker(context, stages, state)),
    keep_app_bug: on((state) => keepWorker(context, stages, state, 'needs_review', regressionNote(state))),
  };
}

/** Generates a candidate; after a Critic rejection, from the rejected spec and the Critic's reasons. */
async function scribeWorker(context: GenerationContext, stages: Stages, state: RunState): Promise<Output<'scribe'>> {
  const task = state.task();
  const rejections = state.rejections();
  const sentBack = state.sentBack();
  const reason = sentBack?.type === 'VERDICT' ? sentBack.verdict.reason : sentBack?.issue.message;
  const issues = sentBack?.type === 'VERDICT' ? criticFeedback(sentBack.verdict, stages.scribe.config.prompts.critic_rejection) : sentBack ? [sentBack.issue] : [];
  const prior = sentBack ? { code: state.candidate().candidate.code!, issues } : undefined;
  const maxRejections = stages.scribe.config.generation.max_critic_rejections;
  if (rejections > maxRejections) {
    const last = state.candidate().candidate;
    const error = `the Critic rejected ${rejections} candidates; last: ${reason ?? ''}`;
    return { signal: 'GAVE_UP', segments: [{ type: 'SCRIBE_FAILURE', candidate: { ...last, success: false, failure: 'max_retries', error } } as const] };
  }
  // Why was shown on the Critic's or the proof run's own line.
  // Each send-back starts Scribe's attempts anew (generation.max_attempts), so the round is said.
  if (sentBack) reportStage(context, 'scribe', 'info', `${sentBack.type === 'VERDICT' ? 'the Critic sent the spec back with its findings' : 'the proof run sent the spec back with what it showed'} (send-back ${rejections} of at most ${maxRejections}; Scribe's attempts start again)`);
  const candidate = await stages.scribe.generate(task, prior, context.generation);
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

async function criticWorker(context: GenerationContext, stages: Stages, state: RunState): Promise<Output<'critic'>> {
  const task = state.task();
  const { candidate } = state.candidate();
  reportStage(context, 'critic', 'started', 'the Critic reviews the spec');
  const verdict = await stages.critic.review({ file: candidate.file, code: candidate.code!, request: task, generation: context.generation, standIn: candidate.substitute !== undefined });
  const approved = verdict.status === 'approved';
  reportStage(context, 'critic', approved ? 'done' : 'failed', approved ? `approved (about ${(verdict.estimated_duration_ms / 1000).toFixed(1)} s a run)` : verdict.reason);
  return { signal: approved ? 'APPROVED' : 'REJECTED', segments: [{ type: 'VERDICT', verdict } as const] };
}

function stageWorker(context: GenerationContext, state: RunState): Output<'stage'> {
  const task = state.task();
  if (context.run && task.url) return { signal: 'STAGED' };
  if (context.run) reportStage(context, 'run', 'info', 'not run: no app URL (pass --url or set BASE_URL)');
  return { signal: 'NO_RUN' };
}

async function runnerWorker(context: GenerationContext, stages: Stages, state: RunState): Promise<Output<'runner'>> {
  const task = state.task();
  const { candidate } = state.candidate();
  reportStage(context, 'run', 'started', `running the spec against ${task.url}`);
  // Every candidate is model-written: it passed this validator already (the answer is remembered), and runs contained,
  // the first in the run the generation started while it explored, when that was started for this spec's file.
  const checks: StartedRunChecks = { proof: { signInUnderTest: namedActions(task.description).includes('log in'), requestWords: namedActionWords(task.description) }, credentials: Object.values(context.project.agents.critic.credentials) };
  const started = context.startedRun?.claim();
  const { report } = await runGated(context.gate, candidate.file, candidate.code!, started ? { started, checks } : { ...containedRunOptions(context, task.url!), ...checks });
  context.reporter.report({
    type: 'runner_outcome',
    generation: context.generation,
    status: report.status,
    classification: report.classification,
    ...(report.proof ? { proof: report.proof.verdict } : {}),
    ...(report.containment ? { os_sandbox: report.containment.os_sandbox } : {}),
  });
  if (report.containment?.os_sandbox_unavailable) reportStage(context, 'run', 'info', `ran without the OS sandbox: ${report.containment.os_sandbox_unavailable}`);
  const passed = report.classification === 'pass';
  // A stand-in (the offline generator's smoke test) is kept for review as what it is, proved or not.
  const unproved = passed && !candidate.substitute && !provesRequest(report.proof, task.description);
  reportStage(context, 'run', passed ? 'done' : 'failed', passed ? `passed in ${(report.duration_ms / 1000).toFixed(1)} s` : `${report.classification}: ${report.error_message ?? report.status}`);
  if (report.proof) {
    const shown = proofLine(report.proof, task.description);
    reportStage(context, 'proof', shown.proved ? 'done' : 'failed', shown.line);
  }
  const segment = report.segment ?? { type: 'TEST_RESULT' as const, content: report.error_message ?? '', outcome: passed ? ('PASS' as const) : ('FAIL' as const) };
  return { signal: unproved ? 'UNPROVED' : RUNNER_SIGNAL[report.classification], segments: [{ ...segment, report }] };
}

/** How a generation's specs run contained: against its app, under the project's Playwright config. */
export function containedRunOptions(context: Pick<GenerationContext, 'project' | 'signal'>, url: string): ContainedRunOptions {
  return { baseURL: url, cwd: context.project.cwd, env: context.project.env, ...runTarget(context.project), signal: context.signal };
}

/**
 * Whether a green run's proof is enough: its assertions failed without its actions, or it does nothing
 * after its last navigation and the request names nothing to do.
 */
function provesRequest(proof: ProofResult | undefined, description: string): boolean {
  if (!proof) return true;
  return proof.verdict === 'proved' || (proof.verdict === 'no_actions' && namedActions(description).length === 0);
}

/**
 * The proof's line: proved; nothing to prove (the spec does nothing and the request names nothing to do);
 * else not proved, whether the spec goes back for it or, a stand-in kept for review, does not.
 */
function proofLine(proof: ProofResult, description: string): { proved: boolean; line: string } {
  if (provesRequest(proof, description)) return { proved: true, line: proof.verdict === 'proved' ? `proved: ${proof.message}` : 'nothing to prove: the request names no action and the spec does none' };
  if (proof.verdict !== 'no_actions') return { proved: false, line: `not proved: ${proof.message}` };
  const asked = namedActionWords(description);
  return { proved: false, line: `not proved: the spec does nothing the request asks${asked.length > 0 ? ` (${asked.join(', ')})` : ''}` };
}

/**
 * After an unproved green run: another candidate, told what the proof run showed, while the rejection
 * limit allows and a model can write a different one; else the spec is kept for review, never accepted.
 */
async function unprovedWorker(context: GenerationContext, stages: Stages, state: RunState): Promise<Output<'unproved'>> {
  const proof = state.lastRun()?.report.proof;
  const message = proof?.message ?? 'the proof run did not show that the assertions depend on the actions';
  const issue: Issue = { rule: 'proof-run', severity: 'error', message, line: proof?.line ?? 0, column: 0, fixable: false };
  const limit = stages.scribe.config.generation.max_critic_rejections;
  const offline = (await stages.scribe.modelProvider()).name === 'offline';
  if (!offline && state.rejections() < limit) return { signal: 'RETRY', segments: [{ type: 'UNPROVED', issue } as const] };
  return keepWorker(context, stages, state, 'needs_review', `not proved: ${message}`);
}

async function medicWorker(context: GenerationContext, stages: Stages, state: RunState): Promise<Output<'medic'>> {
  const task = state.task();
  const current = state.candidate();
  const result = state.lastRun();
  const healsUsed = state.healsUsed();
  const maxAttempts = stages.scribe.config.medic.max_debug_attempts;
  if (!result || healsUsed >= maxAttempts) return { signal: 'EXHAUSTED' };
  const provider = await stages.scribe.modelProvider();
  if (provider.name === 'offline') {
    const reasons = ['the offline generator writes the same spec again; healing needs a model (set OPENAI_API_KEY or OPENAI_BASE_URL)'];
    reportStage(context, 'medic', 'failed', reasons[0]!);
    return { signal: 'EXHAUSTED', segments: [{ type: 'HEAL', outcome: 'failed', reasons } as const] };
  }
  const attempt = healsUsed + 1;
  // The run's line has just shown its error: this one names it only.
  reportStage(context, 'medic', 'started', `heal ${attempt}/${maxAttempts} of the ${result.report.classification} run`);
  const medic = await stages.medic();
  const healed = await medic.heal({
    file: current.candidate.file,
    code: current.candidate.code!,
    report: result.report,
    request: task,
    attempt,
    maxAttempts,
    generation: context.generation,
    previousRefusal: state.lastRefusal()?.join('\n'),
  });
  if (healed.status === 'healed') {
    reportStage(context, 'medic', 'done', `heal ${attempt}: a new spec keeps every assertion`);
    const candidate: Candidate = { ...current.candidate, code: healed.code };
    return { signal: 'HEALED', segments: [{ type: 'HEAL', outcome: 'healed', reasons: [] as string[] } as const, { type: 'CANDIDATE', candidate, origin: 'medic' } as const] };
  }
  const reasons = healed.status === 'refused' ? healed.reasons : [healed.error];
  reportStage(context, 'medic', 'failed', `heal ${attempt} ${healed.status}: ${reasons.join('; ')}`);
  const signal = healed.status === 'refused' && attempt < maxAttempts ? 'REFUSED' : 'EXHAUSTED';
  return { signal, segments: [{ type: 'HEAL', outcome: healed.status, reasons } as const] };
}

function acceptWorker(context: GenerationContext, stages: Stages, state: RunState): Output<'accept'> {
  const { candidate } = state.candidate();
  const ran = state.lastRun() !== undefined;
  // A stand-in that does not test the request is never reported as the requested test, even when green.
  if (candidate.substitute) return { ...keepWorker(context, stages, state, 'needs_review', `kept for review: ${candidate.substitute}`), signal: 'FAILED' };
  try {
    const testPath = stages.store.accept(candidate, state.task(), evidenceOf(context, state));
    return { signal: 'ACCEPTED', segments: [{ type: 'OUTCOME', status: 'accepted', testPath, message: ran ? 'passed the rules, the Critic and a green run' : 'passed the rules and the Critic (not run)' } as const] };
  } catch (error) {
    if (!(error instanceof SpecExistsError)) throw error;
    return { signal: 'FAILED', segments: [{ type: 'OUTCOME', status: 'exists', testPath: null, message: error.message } as const] };
  }
}

/** Keeps the best validated spec, not accepted (not run, or failing), for review; the store says where. */
function keepWorker(context: GenerationContext, stages: Stages, state: RunState, status: ReviewStatus, note: string): WorkerOutput<PipelineSegment, 'KEPT'> {
  const testPath = stages.store.keep(state.bestCandidate(), state.task(), status, note, evidenceOf(context, state));
  reportStage(context, 'keep', 'info', `kept for review: ${path.relative(context.project.cwd, testPath) || testPath} (${withoutRunError(note, state.lastRun()?.report.error_message)})`);
  return { signal: 'KEPT', segments: [{ type: 'OUTCOME', status, testPath, message: note } as const] };
}

/** The Critic's verdict, the last run and the stage timings so far, for the provenance record. */
function evidenceOf(context: GenerationContext, state: RunState): SpecEvidence {
  return { verdict: state.lastVerdict(), report: state.lastRun()?.report, timings: context.clock.snapshot() };
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

function fallbackNote(stages: Stages, state: RunState): string {
  const report = state.lastRun()?.report;
  const heals = state.healsUsed();
  return `needs human review: still failing after ${heals} heal attempt${heals === 1 ? '' : 's'} (max ${stages.scribe.config.medic.max_debug_attempts}): ${report?.classification ?? ''} ${report?.error_message ?? ''}`.trim();
}

