/**
 * Scribe: turns a request into a spec that passes every error-level rule of agents/critic.yaml, or
 * says why it could not. One attempt is: prompt → model → extract the code → validate → autofix →
 * validate again. Errors left send the attempt back with feedback, at most `max_attempts` attempts.
 *
 * Scribe writes nothing: its candidate goes on to the Critic, the Runner and the Medic, and the spec
 * store (src/store/) writes what they accept.
 */
import { randomUUID } from 'node:crypto';
import type { CriticConfig } from '../config/critic.ts';
import type { OfflineVocabulary } from '../config/offline.ts';
import { modelFor, type ScribeConfig } from '../config/scribe.ts';
import type { Issue, PageInventory, ProjectStyle } from '../contracts.ts';
import { extractSpec } from '../llm/extract.ts';
import { createProvider, type ProviderName } from '../llm/provider.ts';
import type { ChatMessage, Completion, ModelProvider } from '../llm/types.ts';
import type { StatsSink } from '../stats/log.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator, AppliedFix } from '../validate/validator.ts';
import { feedbackMessages, INITIAL_MESSAGES, initialMessages, promptHash } from './scribe-prompt.ts';
import { secretsOf, shownTexts } from '../llm/redact.ts';
import { completeRecorded } from './model-call.ts';
import type { ResolvedRequest } from './request.ts';
import { stageReporter, type GenerationReporter } from './reporter.ts';
import { checkSpec, errorRuleIds, noCodeIssue } from './spec-check.ts';

export { NO_CODE_RULE } from './spec-check.ts';

export interface ScribeOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** agents/scribe.yaml, loaded (a ProjectContext's `agents.scribe`). */
  config: ScribeConfig;
  /** agents/critic.yaml, loaded (a ProjectContext's `agents.critic`). */
  critic: CriticConfig;
  /** agents/offline.yaml, loaded, for the offline generator; default: the bundled one. */
  offline?: OfflineVocabulary;
  /** The model; default: chosen by createProvider from env and providerName. */
  provider?: ModelProvider;
  providerName?: ProviderName;
  /** Stream model answers; default: the config's provider.stream. */
  stream?: boolean;
  /** Type-check every answer (default on). */
  typeCheck?: boolean;
  /** Apply the safe autofixes before deciding whether an answer passes (default on). */
  autofix?: boolean;
  /**
   * A validator to share between Scribes and the other agents (it keeps one compiler project, which
   * makes type-checking after the first file fast); it must have been built from `critic`.
   */
  validator?: Validator;
  /** The explored page, carried into every prompt and the grounding rule. */
  inventory?: PageInventory;
  /** The project's fixtures, page objects and seed spec, named in the prompt (project/style.ts). */
  style?: ProjectStyle;
  /** Where events go; default: the log in $SCRIBE_HOME (else <cwd>/.scribe); false records nothing. */
  stats?: StatsSink | false;
  /**
   * Validate and retry before handing a spec on (default on). Off (`scribe eval --no-self-validation`),
   * the first answer holding code goes straight to the Critic and the Runner, so the gain is measured.
   */
  selfValidation?: boolean;
  /** Where what happens goes (the pipeline's reporter); the statistics log is one more, unless `stats` is false. */
  reporter?: GenerationReporter;
  /** Aborts a model call in flight: a cancelled or timed-out job must not wait for its answer. */
  signal?: AbortSignal;
}

export type GenerationFailure = 'max_retries' | 'model_error' | 'model_config';

/** What generation hands on: a validated spec (success) or the last attempt and why it failed. */
export interface Candidate {
  success: boolean;
  generation: string;
  /** The accepted spec; on failure, the last attempt's code (null when it held none). */
  code: string | null;
  /** Where the spec was validated as living (relative imports resolve from there). */
  file: string;
  attempts: number;
  /** On success its warnings; on failure the errors of the last attempt. */
  issues: Issue[];
  autofixed: AppliedFix[];
  provider: string;
  model: string;
  promptHash: string;
  failure?: GenerationFailure;
  /** Why the spec does not test the request (a stand-in such as the offline smoke test); never accepted as the requested test. */
  substitute?: string;
  error?: string;
}

/** A spec sent back by a later stage (the Critic): generation starts from it and its problems. */
export interface PriorAttempt {
  code: string;
  issues: Issue[];
}

export class Scribe {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly config: ScribeConfig;
  readonly critic: CriticConfig;
  private readonly options: ScribeOptions;
  private readonly reporter: GenerationReporter;
  private provider: Promise<ModelProvider> | undefined;
  private sharedValidator: Validator | undefined;

  constructor(options: ScribeOptions) {
    this.options = options;
    this.cwd = options.cwd ?? process.cwd();
    this.env = options.env ?? process.env;
    this.config = options.config;
    this.critic = options.critic;
    this.reporter = stageReporter(options, this.env, this.cwd);
  }

  /**
   * The attempts loop: a validated candidate, or the reason there is none. Writes nothing, and records
   * no outcome: the generation ends when its caller has written the spec (or has not).
   */
  async generate(request: ResolvedRequest, prior?: PriorAttempt, generation: string = randomUUID()): Promise<Candidate> {
    const maxAttempts = this.config.generation.max_attempts;
    const provider = await this.modelProvider();
    const model = modelFor(this.config, request.complexity, this.env);
    const validator = this.validator();
    const initial = initialMessages(this.config, this.critic, request, this.options.inventory, this.options.style);
    const base = { generation, file: request.file, provider: provider.name, model, promptHash: promptHash(initial) };
    let messages = prior
      ? feedbackMessages(this.config, initial, { previous: prior.code, code: prior.code, issues: prior.issues, autofixedRules: [], nextAttempt: 1, maxAttempts })
      : initial;
    let last: Candidate = { ...base, success: false, code: null, attempts: 0, issues: [], autofixed: [] };

    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      this.reporter.report({ type: 'attempt', attempt, maxAttempts, provider: provider.name, model });
      const answer = await this.callModel(provider, messages, model, request, generation);
      if ('failure' in answer) {
        this.reporter.report({ type: 'attempts_failed', attempts: attempt, error: answer.error });
        return { ...last, attempts: attempt, failure: answer.failure, error: answer.error };
      }
      const assessed = this.assess(answer.text, request.file, validator, attempt);
      const errors = assessed.issues.filter((i) => i.severity === 'error');
      last = { ...last, model: answer.model, substitute: answer.substitute, code: assessed.code, attempts: attempt, issues: assessed.issues, autofixed: assessed.autofixed };
      const accepted = errors.length === 0 || (this.options.selfValidation === false && assessed.code !== null);
      const retrying = !accepted && attempt < maxAttempts;
      this.reporter.report({ type: 'validated', generation, attempt, maxAttempts, issues: assessed.issues, autofixed: assessed.autofixed, accepted, retrying });
      if (accepted) return { ...last, success: true };
      if (retrying) {
        messages = feedbackMessages(this.config, initial, {
          previous: assessed.previous,
          code: assessed.code ?? undefined,
          issues: assessed.issues,
          autofixedRules: assessed.autofixed.map((f) => f.rule),
          nextAttempt: attempt + 1,
          maxAttempts,
        });
      }
    }

    const error = `gave up after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: errors remain (${errorRuleIds(last.issues).join(', ')})`;
    this.reporter.report({ type: 'attempts_failed', attempts: maxAttempts, error });
    return { ...last, failure: 'max_retries', error };
  }

  private async callModel(
    provider: ModelProvider,
    messages: ChatMessage[],
    model: string,
    request: ResolvedRequest,
    generation: string,
  ): Promise<Completion | { failure: GenerationFailure; error: string }> {
    const completion = {
      messages,
      model,
      temperature: this.config.provider.temperature,
      stream: this.options.stream ?? this.config.provider.stream,
      task: { description: request.description, feature: request.feature, url: request.url, inventory: this.options.inventory, credentials: this.critic.credentials },
      signal: this.options.signal,
    };
    return completeRecorded(provider, completion, generation, this.reporter, { secrets: secretsOf(this.critic.credentials, this.env), keep: [request.description], shown: { texts: shownTexts(this.options.inventory), messages: INITIAL_MESSAGES } });
  }

  /** What an answer holds: its code after autofix and the issues left, or the no-code issue. */
  private assess(text: string, file: string, validator: Validator, attempt: number): Assessment {
    const extracted = extractSpec(text);
    if (extracted === null) {
      const quoted = text.trim().slice(0, this.config.generation.quoted_answer_chars) || this.config.prompts.empty_answer;
      return { code: null, previous: quoted, issues: [noCodeIssue(this.config.prompts.no_code)], autofixed: [] };
    }
    this.reporter.report({ type: 'validating', attempt, chosen: extracted.chosen });
    const checked = checkSpec(validator, file, extracted.code, this.options.autofix !== false);
    if (checked.autofixed.length > 0) this.reporter.report({ type: 'autofixed', attempt, fixes: checked.autofixed });
    return { ...checked, previous: checked.code };
  }

  private validator(): Validator {
    // A model's answer is untrusted code: the allow-list gate applies to every attempt.
    this.sharedValidator ??= (this.options.validator?.forUntrustedCode(this.cwd) ?? untrustedValidator(this.critic, { projectRoot: this.cwd, typeCheck: this.options.typeCheck !== false })).withInventory(this.options.inventory);
    return this.sharedValidator;
  }

  /** The model this Scribe asks (the Medic asks the same one). */
  modelProvider(): Promise<ModelProvider> {
    this.provider ??= this.options.provider
      ? Promise.resolve(this.options.provider)
      : createProvider({
          env: this.env,
          settings: this.config.provider,
          explicit: this.options.providerName,
          offline: this.options.offline,
          onRetry: (notice) => this.reporter.report({ type: 'model_retry', notice }),
        });
    return this.provider;
  }
}

interface Assessment {
  code: string | null;
  /** What the model is shown as its previous attempt. */
  previous: string;
  issues: Issue[];
  autofixed: AppliedFix[];
}
