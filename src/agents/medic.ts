/**
 * The Medic: one heal of a spec that failed because the test is wrong. The model is shown the spec, the
 * runner's error, the failing line and the page as it was at the failure (agents/scribe.yaml `medic`
 * prompts); its answer is validated and autofixed as Scribe's are, then compared with the failing spec:
 * a heal that weakens what the test checks is refused, with reasons the next attempt is shown.
 * Only the failures agents/workflow.yaml routes from the Runner to the Medic are healed (test bugs and
 * timeouts in the bundled file): app bugs and environment failures are reported, a test must not be bent
 * to a broken app.
 * The caller loops up to `medic.max_debug_attempts` and runs each healed spec (after the Critic).
 */
import { randomUUID } from 'node:crypto';
import { findWeakening } from '../analysis/assertions.ts';
import type { CriticConfig } from '../config/critic.ts';
import { modelFor, renderTemplate, type ScribeConfig } from '../config/scribe.ts';
import { healableClassifications, loadWorkflow, type WorkflowManifest } from '../config/workflow.ts';
import type { Issue, PageInventory, RunnerReport } from '../contracts.ts';
import { appContent, text } from '../explore/render.ts';
import { extractCode } from '../llm/extract.ts';
import { secretsOf } from '../llm/redact.ts';
import type { ChatMessage, ModelProvider } from '../llm/types.ts';
import type { StatsSink } from '../stats/log.ts';
import { editDistance } from '../util/edit-distance.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { stageReporter, type GenerationReporter } from './reporter.ts';
import { completeRecorded, isFailedCall } from './model-call.ts';
import { describeErrors, renderCredentials, renderCriteria } from './scribe-prompt.ts';
import { checkSpec, errorsOf, noCodeIssue } from './spec-check.ts';
import type { ResolvedRequest } from './request.ts';

export interface MedicOptions {
  /** agents/scribe.yaml, loaded: the model settings and the `medic` section. */
  scribeConfig: ScribeConfig;
  /** agents/critic.yaml, loaded: the criteria a healed spec must still meet. */
  critic: CriticConfig;
  provider: ModelProvider;
  /** agents/workflow.yaml, loaded: its routing says which failures are healed. Default: the bundled one. */
  workflow?: WorkflowManifest;
  /** Default: the model Scribe uses for the configured default complexity (SCRIBE_MODEL wins). */
  model?: string;
  /** A validator to share; it must have been built from `critic`. An inventory given here is applied to it. */
  validator?: Validator;
  /** The explored page: a heal may not invent test ids. */
  inventory?: PageInventory;
  /** Where statistics go; default: the log in $SCRIBE_HOME (else <cwd>/.scribe); false records nothing. */
  stats?: StatsSink | false;
  /** Where what happens goes besides (the pipeline's reporter). */
  reporter?: GenerationReporter;
  /** Aborts a model call in flight: a cancelled or timed-out job must not wait for its answer. */
  signal?: AbortSignal;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface HealRequest {
  /** Where the spec lives (relative imports resolve from there). */
  file: string;
  /** The spec that failed. */
  code: string;
  report: RunnerReport;
  /** The request the spec was written for (what the stage reads of it). */
  request: Pick<ResolvedRequest, 'description' | 'feature'>;
  attempt: number;
  maxAttempts: number;
  generation?: string;
  /** Why the previous heal was refused, shown to the model so it does not repeat it. */
  previousRefusal?: string;
  /**
   * Errors the spec had before it failed (a user's spec, written to other conventions than critic.yaml's):
   * a heal that keeps them is not refused for them. Matched by rule and message, each as often as listed.
   */
  tolerated?: readonly Issue[];
}

export type HealResult =
  | { status: 'healed'; code: string }
  /** The answer cannot be used (weakens the test, breaks a rule, holds no new code); `reasons` are feedback for the next attempt. */
  | { status: 'refused'; reasons: string[]; code: string | null }
  /** Healing is not possible: the failure is not the test's, or the model could not be reached. */
  | { status: 'failed'; error: string };

export class Medic {
  private readonly options: MedicOptions;
  private readonly config: ScribeConfig;
  private readonly critic: CriticConfig;
  private readonly env: NodeJS.ProcessEnv;
  private readonly reporter: GenerationReporter;
  private readonly validator: Validator;
  private readonly healable: ReadonlySet<RunnerReport['classification']>;

  constructor(options: MedicOptions) {
    this.options = options;
    this.config = options.scribeConfig;
    this.critic = options.critic;
    this.env = options.env ?? process.env;
    this.reporter = stageReporter(options, this.env, options.cwd ?? process.cwd());
    // A heal is model-written code: the allow-list gate applies.
    this.validator = (options.validator?.forUntrustedCode(options.cwd ?? process.cwd()) ?? untrustedValidator(this.critic, { projectRoot: options.cwd ?? process.cwd(), typeCheck: true })).withInventory(options.inventory);
    this.healable = new Set(healableClassifications(options.workflow ?? loadWorkflow()));
  }

  async heal(input: HealRequest): Promise<HealResult> {
    const { report } = input;
    if (!this.healable.has(report.classification)) return { status: 'failed', error: notHealable(report) };

    const generation = input.generation ?? randomUUID();
    const answer = await completeRecorded(
      this.options.provider,
      {
        messages: this.messages(input),
        model: this.options.model ?? modelFor(this.config, this.config.provider.default_complexity, this.env),
        temperature: this.config.provider.temperature,
        stream: this.config.provider.stream,
        task: { description: input.request.description, feature: input.request.feature, inventory: this.options.inventory },
        signal: this.options.signal,
      },
      generation,
      this.reporter,
      { secrets: secretsOf(this.critic.credentials, this.env), keep: [input.request.description] },
    );
    if (isFailedCall(answer)) return this.outcome(generation, 'failed', { status: 'failed', error: `the Medic could not reach the model: ${answer.error}` });

    const code = extractCode(answer.text);
    if (code === null) return this.outcome(generation, 'failed', { status: 'refused', reasons: [noCodeIssue(this.config.prompts.no_code).message], code: null });
    const checked = checkSpec(this.validator, input.file, code);
    // Weakening is named first: a dropped assertion also breaks expect-expect, but the weakening is the reason.
    const weakening = findWeakening(input.code, checked.code);
    const reasons = [...weakening, ...describeErrors(untolerated(errorsOf(checked.issues), input.tolerated ?? []), checked.code)];
    if (reasons.length > 0) return this.outcome(generation, weakening.length > 0 ? 'refused' : 'failed', { status: 'refused', reasons, code: checked.code });
    if (sameCode(checked.code, input.code)) {
      return this.outcome(generation, 'failed', { status: 'refused', reasons: [this.config.medic.prompts.unchanged], code: checked.code });
    }
    return this.outcome(generation, 'healed', { status: 'healed', code: checked.code });
  }

  /** The system prompt with the criteria, and the fix request with the run's evidence. */
  private messages(input: HealRequest): ChatMessage[] {
    const prompts = this.config.medic.prompts;
    const { report } = input;
    const failingText = report.error_line !== null ? input.code.split(/\r?\n/)[report.error_line - 1]?.trim() : undefined;
    const failingLine = failingText ? renderTemplate(prompts.failing_line, { line: String(report.error_line), text: failingText }) : '';
    const snapshot = report.error_context?.trim() ? renderTemplate(prompts.snapshot, { snapshot: appContent(report.error_context.trim()) }) : '';
    const pageElements = report.final_page && prompts.page_elements ? renderPageElements(prompts, prompts.page_elements, report.final_page, report.error_message ?? '') : '';
    const refusal = input.previousRefusal?.trim() ? renderTemplate(prompts.refusal, { reasons: input.previousRefusal.trim() }) : '';
    const system = renderTemplate(prompts.system, { criteria: renderCriteria(this.critic), test_id_attribute: this.critic.testIdAttribute, credentials: renderCredentials(this.critic, this.config.prompts.no_credentials) });
    const fix = renderTemplate(prompts.fix, {
      request: input.request.description,
      feature: input.request.feature,
      spec: input.code.trimEnd(),
      classification: report.classification,
      error: report.error_message?.trim() || renderTemplate(prompts.no_error_message, { status: report.status }),
      failing_line: failingLine,
      snapshot,
      page_elements: pageElements,
      refusal,
      attempt: String(input.attempt),
      max_attempts: String(input.maxAttempts),
    });
    return [
      { role: 'system', content: system.trim() },
      { role: 'user', content: fix.trim() },
    ];
  }

  /** Records the attempt's heal event and hands the result back. */
  private outcome(generation: string, outcome: 'healed' | 'failed' | 'refused', result: HealResult): HealResult {
    this.reporter.report({ type: 'heal', generation, outcome });
    return result;
  }

}

function notHealable(report: RunnerReport): string {
  const evidence = report.error_message ? `: ${report.error_message}` : '';
  if (report.classification === 'app_bug') return `not healed: an assertion on an element that exists failed, a possible regression in the app (app bugs are reported, not healed)${evidence}`;
  if (report.classification === 'environment') return `not healed: the run could not test the app (environment)${evidence}`;
  return `not healed: the run was classified ${report.classification}, not a test bug`;
}

/** The issues not among `tolerated` (the same rule and message, each tolerated issue used once). */
function untolerated(issues: readonly Issue[], tolerated: readonly Issue[]): Issue[] {
  const key = (issue: Issue) => `${issue.rule}\u0000${issue.message}`;
  const left = new Map<string, number>();
  for (const issue of tolerated) left.set(key(issue), (left.get(key(issue)) ?? 0) + 1);
  return issues.filter((issue) => {
    const count = left.get(key(issue)) ?? 0;
    if (count === 0) return true;
    left.set(key(issue), count - 1);
    return false;
  });
}

type MedicPrompts = ScribeConfig['medic']['prompts'];

/** The same spec up to trailing whitespace and line endings. */
function sameCode(a: string, b: string): boolean {
  const normalize = (text: string) => text.replace(/\r\n/g, '\n').replace(/[ \t]+$/gm, '').trimEnd();
  return normalize(a) === normalize(b);
}

/**
 * Run-time grounding in the fix request: the real test ids of the page the run ended on, and the ones
 * nearest to a test id the error names (`getByTestId('x')`, `[data-testid="x"]`), nearest first.
 */
function renderPageElements(prompts: MedicPrompts, template: string, page: NonNullable<RunnerReport['final_page']>, error: string): string {
  const named = /getByTestId\((['"`])(.+?)\1\)/.exec(error)?.[2] ?? /\[data-test(?:-?id)?=["']?([^"'\]]+)["']?\]/.exec(error)?.[1];
  const quoted = (ids: readonly string[]) => ids.map(text).join(', ');
  const nearest = named && page.testIds.length > 0
    ? renderTemplate(prompts.nearest, { test_id: named, test_ids: quoted([...page.testIds].sort((a, b) => editDistance(named, a) - editDistance(named, b)).slice(0, 3)) })
    : '';
  return renderTemplate(template, {
    url: page.url,
    test_ids: page.testIds.length > 0 ? quoted(page.testIds) : prompts.no_test_ids,
    nearest,
    roles: appContent(page.roles.join(', ')) || prompts.no_roles,
  });
}
