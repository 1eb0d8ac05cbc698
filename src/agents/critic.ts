/**
 * The Critic: an independent gate between Scribe and the Runner. It re-validates a candidate against the
 * same agents/critic.yaml (type-check on, and the grounding rule when the page was explored), checks that
 * the spec covers the request (request-coverage.ts: each expected outcome asserted, each action done), estimates
 * how long one run takes and what it costs in CI, and — when critic.yaml switches it on — asks a model
 * whether the spec tests what was requested. Approved only when no error-level issue is left and the
 * review, if on, passed; a rejection's issues and reason are what Scribe is sent back with.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { estimateDuration, MaxDurationOptions } from '../analysis/duration.ts';
import { SpecModel } from '../analysis/model.ts';
import type { CriticConfig } from '../config/critic.ts';
import { modelFor, renderTemplate, type ScribeConfig } from '../config/scribe.ts';
import type { CriticVerdict, Issue, PageInventory } from '../contracts.ts';
import { fencedBlocks } from '../llm/extract.ts';
import { createProvider, type ProviderName } from '../llm/provider.ts';
import { secretsOf } from '../llm/redact.ts';
import type { ModelProvider } from '../llm/types.ts';
import type { StatsSink } from '../stats/log.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { stageReporter, type GenerationReporter } from './reporter.ts';
import { completeRecorded, isFailedCall } from './model-call.ts';
import { COVERAGE_RULE, uncoveredParts } from './request-coverage.ts';
import { describeErrors } from './scribe-prompt.ts';
import { errorRuleIds, errorsOf } from './spec-check.ts';
import type { ResolvedRequest } from './request.ts';

/** The issue a failed (or unusable) model review adds to the verdict: not a critic.yaml rule, a rejection all the same. */
export const REVIEW_RULE = 'model-review';

const MAX_DURATION_RULE = 'max-duration';

/** What the review model must answer. */
export const ReviewAnswer = z.object({
  verdict: z.enum(['pass', 'fail']),
  reason: z.string().min(1),
  missing: z.array(z.string()).default([]),
});
export type ReviewAnswer = z.infer<typeof ReviewAnswer>;

export interface CriticOptions {
  /** agents/critic.yaml, loaded: the same criteria Scribe validated against. */
  critic: CriticConfig;
  /**
   * A validator to share (one compiler project makes type-checking fast); it must have been built from
   * `critic` with type-checking on. An inventory given here is applied to it.
   */
  validator?: Validator;
  /** The explored page: test ids not on it are rejected (no-unknown-testid). */
  inventory?: PageInventory;
  /** The review's model; default: the one Scribe would choose from env, providerName and scribeConfig. */
  provider?: ModelProvider;
  model?: string;
  providerName?: ProviderName;
  /** agents/scribe.yaml, loaded: the review model's settings (a ProjectContext's `agents.scribe`). */
  scribeConfig: ScribeConfig;
  /** Where statistics go; default: the log in $SCRIBE_HOME (else <cwd>/.scribe); false records nothing. */
  stats?: StatsSink | false;
  /** Where what happens goes besides (the pipeline's reporter). */
  reporter?: GenerationReporter;
  /** Aborts a model call in flight: a cancelled or timed-out job must not wait for its answer. */
  signal?: AbortSignal;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ReviewInput {
  /** Where the spec will live (relative imports resolve from there). */
  file: string;
  code: string;
  /** The request the spec was written for (what the stage reads of it). */
  request: Pick<ResolvedRequest, 'description' | 'feature'>;
  /** The generation the verdict belongs to, for stats. */
  generation?: string;
  /**
   * A stand-in kept for review as what it is (the offline generator's smoke test when it could not map the
   * request): it is not held to cover the request.
   */
  standIn?: boolean;
}

type ReviewOutcome = { passed: true; reason: string } | { passed: false; issue: Issue };

export class Critic {
  readonly critic: CriticConfig;
  private readonly options: CriticOptions;
  private readonly cwd: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly reporter: GenerationReporter;
  private readonly validator: Validator;
  private reviewModel: Promise<{ provider: ModelProvider; model: string; scribe: ScribeConfig }> | undefined;

  constructor(options: CriticOptions) {
    this.options = options;
    this.critic = options.critic;
    this.cwd = options.cwd ?? process.cwd();
    this.env = options.env ?? process.env;
    this.reporter = stageReporter(options, this.env, this.cwd);
    // The Critic judges model-written candidates: the allow-list gate applies.
    this.validator = (options.validator?.forUntrustedCode(this.cwd) ?? untrustedValidator(this.critic, { projectRoot: this.cwd, typeCheck: true })).withInventory(options.inventory);
  }

  async review(input: ReviewInput): Promise<CriticVerdict> {
    const generation = input.generation ?? randomUUID();
    const ruleIssues = this.validator.validateText(input.file, input.code).issues;
    const issues = input.standIn ? ruleIssues : [...ruleIssues, ...coverageIssues(input.request.description, input.code, input.file)];
    const durationMs = this.estimatedDurationMs(input.file, input.code);
    const estimate = { estimated_duration_ms: durationMs, estimated_cost: this.estimatedCost(durationMs) };

    // The model is asked only about a spec that passes the rules: a rejected one needs no second opinion.
    const review = this.critic.review.enabled && errorsOf(issues).length === 0 ? await this.modelReview(input, generation) : undefined;
    const found = review && !review.passed ? [...issues, review.issue] : issues;
    const errors = errorsOf(found);
    const verdict: CriticVerdict =
      errors.length === 0
        ? { status: 'approved', reason: approvalReason(found, review, estimate), issues_found: found, ...estimate }
        : { status: 'rejected', reason: rejectionReason(errors, input.code), issues_found: found, ...estimate };
    this.reporter.report({ type: 'critic_verdict', generation, status: verdict.status, rules: errorRuleIds(found) });
    return verdict;
  }

  /** The whole file's estimate with max-duration's costs from critic.yaml (0 when the file has no such entry). */
  private estimatedDurationMs(file: string, code: string): number {
    const entry = this.critic.criteria.find((c) => c.id === MAX_DURATION_RULE);
    const options = entry ? MaxDurationOptions.safeParse(entry.options) : undefined;
    if (!options?.success) return 0;
    return estimateDuration(SpecModel.fromText(file, code), options.data).total_ms;
  }

  /** One CI run at critic.yaml's rate per minute, to a millionth (below any bill). */
  private estimatedCost(durationMs: number): number {
    const perMinute = this.critic.estimate?.ci_cost_per_minute ?? 0;
    return Math.round(((durationMs / 60_000) * perMinute) * 1e6) / 1e6;
  }

  private async modelReview(input: ReviewInput, generation: string): Promise<ReviewOutcome> {
    let reviewer: { provider: ModelProvider; model: string; scribe: ScribeConfig };
    try {
      reviewer = await this.reviewer();
    } catch (error) {
      return rejected(`the model review could not start: ${(error as Error).message}`);
    }
    if (reviewer.provider.name === 'offline') {
      return rejected('the model review is enabled in critic.yaml but no language model is configured (the offline generator cannot judge a spec); set OPENAI_API_KEY or OPENAI_BASE_URL, or set review.enabled to false');
    }
    const prompt = renderTemplate(this.critic.review.prompt!, { request: input.request.description, feature: input.request.feature, spec: input.code.trimEnd() });
    const answer = await completeRecorded(
      reviewer.provider,
      { messages: [{ role: 'user', content: prompt.trim() }], model: reviewer.model, temperature: this.critic.review.temperature!, stream: reviewer.scribe.provider.stream, signal: this.options.signal },
      generation,
      this.reporter,
      { secrets: secretsOf(this.critic.credentials, this.env), keep: [input.request.description] },
    );
    if (isFailedCall(answer)) return rejected(`the model review could not run: ${answer.error}`);
    const parsed = parseReviewAnswer(answer.text);
    if (!parsed.success) {
      const quoted = answer.text.trim().slice(0, reviewer.scribe.generation.quoted_answer_chars) || '(an empty answer)';
      return rejected(`the model review gave no usable judgement (${parsed.problem}), so the spec cannot be approved; its answer was: ${quoted}`);
    }
    const { verdict, reason, missing } = parsed.answer;
    if (verdict === 'pass') return { passed: true, reason };
    return rejected(`the model review found that the spec does not test what was requested: ${reason}${missing.length > 0 ? ` Missing: ${missing.join('; ')}.` : ''}`);
  }

  private reviewer(): Promise<{ provider: ModelProvider; model: string; scribe: ScribeConfig }> {
    this.reviewModel ??= (async () => {
      const scribe = this.options.scribeConfig;
      const provider = this.options.provider ?? (await createProvider({ env: this.env, settings: scribe.provider, explicit: this.options.providerName }));
      return { provider, model: this.options.model ?? modelFor(scribe, scribe.provider.default_complexity, this.env), scribe };
    })();
    return this.reviewModel;
  }

}

/**
 * The review model's judgement: the whole answer as JSON, or the JSON in a fenced block of it (models
 * wrap JSON in ```json fences even when told not to). Anything else is a problem, never a throw.
 */
export function parseReviewAnswer(text: string): { success: true; answer: ReviewAnswer } | { success: false; problem: string } {
  const candidates = [text.trim(), ...fencedBlocks(text).map((b) => b.code.trim())].filter(Boolean);
  let shapeProblem: string | undefined;
  for (const candidate of candidates) {
    let json: unknown;
    try {
      json = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = ReviewAnswer.safeParse(json);
    if (parsed.success) return { success: true, answer: parsed.data };
    shapeProblem ??= parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ');
  }
  if (shapeProblem) return { success: false, problem: `the JSON does not have the expected shape {verdict, reason, missing}: ${shapeProblem}` };
  return { success: false, problem: 'the answer is not JSON' };
}

/** What the spec leaves out of the request, as error-level issues (a spec that parses not at all has its rule errors already). */
function coverageIssues(description: string, code: string, file: string): Issue[] {
  return uncoveredParts(description, code, file).map((message) => ({ rule: COVERAGE_RULE, severity: 'error', message, line: 0, column: 0, fixable: false }));
}

function rejected(message: string): ReviewOutcome {
  return { passed: false, issue: { rule: REVIEW_RULE, severity: 'error', message, line: 0, column: 0, fixable: false } };
}

function approvalReason(issues: readonly Issue[], review: ReviewOutcome | undefined, estimate: Pick<CriticVerdict, 'estimated_duration_ms' | 'estimated_cost'>): string {
  const warnings = [...new Set(issues.filter((i) => i.severity === 'warning').map((i) => i.rule))];
  const parts = [`no error-level problem${warnings.length > 0 ? ` (warnings: ${warnings.join(', ')})` : ''}`];
  if (review?.passed) parts.push(`the model review passed: ${review.reason}`);
  parts.push(`estimated ${(estimate.estimated_duration_ms / 1000).toFixed(1)} s and ${estimate.estimated_cost} per CI run`);
  return `approved: ${parts.join('; ')}`;
}

/** The problems, one per line with the offending line quoted: what Scribe is sent back with. */
function rejectionReason(errors: readonly Issue[], code: string): string {
  const count = `${errors.length} error-level problem${errors.length === 1 ? '' : 's'}`;
  return [`rejected: ${count}`, ...describeErrors(errors, code).map((text) => `- ${text}`)].join('\n');
}
