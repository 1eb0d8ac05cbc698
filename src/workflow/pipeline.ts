/**
 * The whole job behind `scribe generate`, `POST /v1/generate` and the demo: one request in, the
 * `generate --json` document out, with every stage reported as it happens.
 */
import { randomUUID } from 'node:crypto';
import { StartedContainedRun } from '../agents/contained-run.ts';
import { Critic } from '../agents/critic.ts';
import { Medic } from '../agents/medic.ts';
import { multiplex, stageReporter, type GenerationReporter } from '../agents/reporter.ts';
import { Scribe } from '../agents/scribe.ts';
import type { ResolvedRequest } from '../agents/request.ts';
import type { ScribeConfig } from '../config/scribe.ts';
import { GenerateResult, type ExploreSignIn, type PageInventory, type PipelineEvent } from '../contracts.ts';
import { launchingBrowser, preloadPlaywright, type ExploringBrowser } from '../explore/browser.ts';
import { ProviderSetupError, type ProviderName } from '../llm/provider.ts';
import type { ModelProvider } from '../llm/types.ts';
import { loadProject, type ProjectContext } from '../project/context.ts';
import { readProjectStyle } from '../project/style.ts';
import type { StatsSink } from '../stats/log.ts';
import type { OutcomeEvent } from '../stats/outcome.ts';
import { assertWritable, SpecExistsError } from '../store/spec-files.ts';
import { SpecStore } from '../store/spec-store.ts';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { runWorkflow } from './orchestrator.ts';
import { RunState } from './run-state.ts';
import { displayPath, progressReporter, reporterFailure } from './progress-reporter.ts';
import { StageClock, type StageTimings } from './stage-clock.ts';
import { resolveRequest, type RequestInput, type Settled } from './request.ts';
import type { PipelineSegment } from './segments.ts';
import { containedRunOptions, pipelineWorkers } from './workers.ts';
import type { GenerationContext } from './generation-context.ts';
import type { SignedInExploration } from './explore-signed-in.ts';
import type { Explorations } from './explored-pages.ts';
import type { Setup } from '../util/lifetimes.ts';

/** For a caller that reads the project itself (the CLI): Scribe's browser launches meanwhile. */
export { launchingBrowser, type ExploringBrowser };

/** What a caller asks for, and how the pipeline is to treat it. */
export interface GenerateRequest extends RequestInput {
  provider?: ProviderName;
  /** Run the spec against the app (default true; needs a URL or BASE_URL). */
  run?: boolean;
  force?: boolean;
  /** Scribe validates and retries before the Critic (default true); false measures what that buys (`scribe eval`). */
  selfValidation?: boolean;
}

export interface PipelineOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The project, read once by the caller; default: read from cwd and env (and `request.provider`). */
  project?: ProjectContext;
  signal?: AbortSignal;
  /** Where events go (default: the project's log); one that may also be ended by someone else should be a OneOutcomeSink. */
  stats?: StatsSink | false;
  /**
   * The caller's reporters of what happens, besides the statistics and the stage clock: the terminal's step list,
   * an HTTP job's stages and SSE, MCP progress notifications (each a progressReporter), or its own. Each is
   * isolated: one that throws is reported to the others and the generation goes on.
   */
  reporters?: ReadonlyArray<GenerationReporter | undefined>;
  /** The generation's id in the statistics (default: a new one); a caller that may have to end it names it. */
  generation?: string;
  /** A model provider made by the caller (the MCP host's model, through sampling); wins over `request.provider`. */
  provider?: ModelProvider;
  /**
   * A validator kept across generations (a server's job thread): its compiler project makes every
   * type-check after the first fast. It must have been built from the project's agents/critic.yaml.
   */
  validator?: Validator;
  /** The explorations a batch's generations share: a start page one of them reached is not explored again. */
  explored?: Explorations;
  /**
   * Scribe's exploring browser, its launch begun by the caller (launchingBrowser: `generate` starts it before it
   * reads the project): exploring uses it and closes it; the caller closes it too, for a generation that never explored.
   */
  browser?: Setup<ExploringBrowser>;
}

export interface PipelineResult {
  document: GenerateResult;
  /** 0 success, 1 the work failed, 2 the request or the setup must be fixed first. */
  exitCode: 0 | 1 | 2;
}

export async function generateSpec(request: GenerateRequest, options: PipelineOptions): Promise<PipelineResult> {
  const clock = new StageClock();
  const failedReporters: string[] = [];
  // One reporter for the generation: the statistics log, the stage clock, the caller's (its lines or its own); one
  // that fails is recorded (a line and a warning of the result) and the generation goes on.
  const reporter = stageReporter(
    {
      stats: options.stats,
      reporter: multiplex(
        progressReporter(options.cwd, (line) => clock.observe(line.stage, line.status)),
        ...(options.reporters ?? []),
        { report: (event) => event.type === 'reporter_failed' && failedReporters.push(reporterFailure(event)) },
      ),
    },
    options.env,
    options.cwd,
  );
  const emit: Emit = (stage, status, message) => reporter.report({ type: 'stage', stage, status, message });
  const generation = options.generation ?? randomUUID();
  // Exploring a URL needs Playwright: it loads while the project's config is read in a child process.
  if (request.url && !options.project) preloadPlaywright();
  const project = options.project ?? (await loadProject({ cwd: options.cwd, env: options.env, provider: request.provider }));
  for (const warning of project.warnings) emit('project', 'info', warning);
  const settled = writableRequest(request, project);
  if (!settled.ok) return setupFailure(settled.error);

  const result = await generateWith(request, options, { project, request: settled.value, reporter, generation, emit, clock });
  return withWarnings(result, failedReporters);
}

/** What a generation's stages share once its request is settled. */
interface Generation {
  project: ProjectContext;
  request: ResolvedRequest;
  reporter: GenerationReporter;
  generation: string;
  emit: Emit;
  clock: StageClock;
}

async function generateWith(asked: GenerateRequest, options: PipelineOptions, generation: Generation): Promise<PipelineResult> {
  const { project, request } = generation;
  // The spec's contained run starts now, so its fixed start (the sandbox, Playwright, its browser) overlaps
  // exploring and the model call; it waits for the spec the gate passes, and is discarded if none comes.
  const startedRun = asked.run !== false && request.url ? new StartedContainedRun(request.file, containedRunOptions({ project, signal: options.signal }, request.url)) : undefined;
  try {
    return await walk(asked, options, generation, startedRun);
  } finally {
    await startedRun?.discard();
  }
}

async function walk(asked: GenerateRequest, options: PipelineOptions, { project, request, reporter, generation, emit, clock }: Generation, startedRun: StartedContainedRun | undefined): Promise<PipelineResult> {
  const { scribe: config, critic } = project.agents;

  // An app that cannot be explored still gets a spec, ungrounded: the Runner then says what is wrong
  // with the environment, and the validated spec is kept for when it works.
  // One validator for Scribe, the Critic and the Medic: one compiler (type-checking after the first spec
  // is fast), and a text already validated is not validated again. Everything it sees is model-written,
  // so the allow-list gate applies.
  const validating = options.validator?.forUntrustedCode(options.cwd) ?? untrustedValidator(critic, { projectRoot: options.cwd, typeCheck: true, tsconfig: project.tsconfig });
  let inventory: PageInventory | undefined;
  let signIn: ExploreSignIn | undefined;
  if (request.url) {
    const url = request.url;
    emit('explore', 'started', `exploring ${url}`);
    const exploreHere = () => explore(url, critic.testIdAttribute, config.explore, emit, { project, env: project.env, signal: options.signal, ...(options.browser ? { launch: options.browser } : {}) });
    const exploring = options.explored ? options.explored.exploration(url, config.explore, exploreHere, options.signal) : exploreHere().then((exploration) => ({ exploration, reused: false }));
    // Its failure is read below; meanwhile it must not count as unhandled.
    exploring.catch(() => undefined);
    try {
      const { exploration, reused } = await exploring;
      ({ inventory, signIn } = exploration);
      if (reused) emit('explore', 'done', `${url} was explored by an earlier generation of this batch: its ${1 + (inventory.pages?.length ?? 0)} pages reused`);
    } catch (error) {
      emit('explore', 'failed', `could not explore ${url}, the prompt carries no page inventory: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const providerName = asked.provider ?? project.provider;
  // The type checker readies itself on its own thread while the model is asked, so its first spec is checked at
  // once; not while exploring, whose browsers' start-up it would slow on a machine with few cores, nor for the
  // offline generator, which answers at once: its first check would only wait for the warm-up to end.
  if (options.provider || providerName !== 'offline') validating.warmTypeCheck();
  // The project's environment, not the caller's: the variables its Playwright config sets (its .env) are the
  // run's, and so must be the credentials signed in with and hidden from the model.
  const validator = validating.withInventory(inventory).withEnv(project.env);
  const shared = { critic, validator, inventory, stats: false as const, reporter, cwd: options.cwd, env: project.env, signal: options.signal };
  const scribe = new Scribe({
    ...shared,
    config,
    offline: project.agents.offline,
    providerName,
    provider: options.provider,
    selfValidation: asked.selfValidation !== false,
    style: readProjectStyle(project),
  });
  const context: GenerationContext = { generation, project, request, reporter, signal: options.signal, gate: validator, clock, run: asked.run !== false, ...(startedRun ? { startedRun } : {}) };
  const workers = pipelineWorkers(context, {
    scribe,
    critic: new Critic({ ...shared, scribeConfig: config, providerName }),
    medic: async () => new Medic({ ...shared, scribeConfig: config, workflow: project.agents.workflow, provider: await scribe.modelProvider() }),
    store: new SpecStore({ project, reporter, force: asked.force === true }),
  });
  try {
    // An aborted job (a server shutting down) stops before its next stage.
    const walk = await runWorkflow<PipelineSegment>(project.agents.workflow, workers, [{ type: 'REQUEST', task: request }], { onBlock: () => options.signal?.throwIfAborted() });
    const state = new RunState(walk.payload);
    reporter.report(outcomeOf(generation, walk.outcome, state));
    return withWarnings(resultOf(walk.outcome, state, options.cwd, clock.snapshot(), signIn), project.warnings);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ProviderSetupError) {
      reporter.report({ type: 'give_up', generation, attempts: 0, reason: 'model_config', error: message });
      return setupFailure(message);
    }
    reporter.report({ type: 'give_up', generation, attempts: 0, reason: options.signal?.aborted ? 'interrupted' : 'error', error: message });
    throw error;
  }
}

/** A finished walk's one outcome event: success only when the spec was written as accepted. */
function outcomeOf(generation: string, outcome: 'success' | 'failure', state: RunState): OutcomeEvent {
  const attempts = state.attempts();
  if (outcome === 'success') return { type: 'success', generation, attempts };
  const failure = state.newest('SCRIBE_FAILURE')?.candidate;
  if (failure) return { type: 'give_up', generation, attempts, reason: failure.failure ?? 'max_retries', error: failure.error ?? 'generation failed' };
  const final = state.newest('OUTCOME');
  const exists = final?.status === 'exists';
  return { type: 'give_up', generation, attempts, reason: exists ? 'exists' : 'not_accepted', error: final?.message ?? 'generation failed' };
}

function withWarnings(result: PipelineResult, warnings: string[]): PipelineResult {
  return warnings.length > 0 ? { ...result, document: { ...result.document, warnings: [...(result.document.warnings ?? []), ...warnings] } } : result;
}

type Emit = (stage: string, status: PipelineEvent['status'], message: string) => void;

/** The settled request, or why it cannot be done: it is invalid, or its spec exists and it does not say to overwrite it. */
function writableRequest(request: GenerateRequest, project: ProjectContext): Settled<ResolvedRequest> {
  const settled = resolveRequest(request, project);
  if (!settled.ok) return settled.field ? { ok: false, error: `invalid request: ${settled.field}: ${settled.error}` } : settled;
  try {
    assertWritable(settled.value.file, request.force === true);
  } catch (error) {
    if (error instanceof SpecExistsError) return { ok: false, error: error.message };
    throw error;
  }
  return settled;
}

/** The site's inventory, signed in where the start URL lands on a login and a way to sign in is there (explore-signed-in.ts). */
async function explore(url: string, testIdAttribute: string, settings: ScribeConfig['explore'], emit: Emit, context: { project: ProjectContext; env: NodeJS.ProcessEnv; signal?: AbortSignal; launch?: Setup<ExploringBrowser> }): Promise<SignedInExploration> {
  // Loaded on demand: exploring needs Playwright, which a run without a URL never does.
  const { exploreInOwnBrowser, signInLine } = await import('./explore-signed-in.ts');
  const explored = await exploreInOwnBrowser(url, { ...context, testIdAttribute, settings, onProgress: (message) => emit('explore', 'info', message) });
  const { inventory, signIn } = explored;
  const pages = 1 + (inventory.pages?.length ?? 0);
  const ids = inventory.testIds.length + (inventory.pages ?? []).reduce((sum, page) => sum + page.testIds.length, 0);
  emit('explore', 'done', `found ${ids} test ids on ${pages} page${pages === 1 ? '' : 's'} from ${url}`);
  if (signIn) emit('explore', 'info', signInLine(signIn));
  if (showsNothingToActOn(inventory)) {
    emit('explore', 'info', `${inventory.url} still shows nothing to act on (no link, button, field or test id) ${settings.render_wait_ms / 1000} s after it loaded: the model writes its locators without seeing them`);
  }
  return explored;
}

function showsNothingToActOn(page: PageInventory): boolean {
  return page.testIds.length === 0 && page.fields.length === 0 && page.roles.length === 0 && page.links.length === 0;
}

/** The `generate --json` document of a finished walk, and the exit code it means. */
function resultOf(outcome: 'success' | 'failure', state: RunState, cwd: string, timings: StageTimings, signIn: ExploreSignIn | undefined): PipelineResult {
  const final = state.newest('OUTCOME');
  const failure = state.newest('SCRIBE_FAILURE')?.candidate;
  const last = state.newest('CANDIDATE')?.candidate;
  const attempts = state.attempts();
  const success = outcome === 'success';
  const document = GenerateResult.parse({
    success,
    testPath: final?.testPath ? displayPath(final.testPath, cwd) : null,
    attempts,
    issues: (failure ?? last)?.issues ?? [],
    critic: state.lastVerdict() ?? null,
    runner: state.lastRun()?.report ?? null,
    error: success ? null : (final?.message ?? failure?.error ?? 'generation failed'),
    timings_ms: timings,
    ...(signIn ? { sign_in: signIn } : {}),
  });
  return { document, exitCode: success ? 0 : failure?.failure === 'model_config' ? 2 : 1 };
}

function emptyDocument(): GenerateResult {
  return { success: false, testPath: null, attempts: 0, issues: [], critic: null, runner: null, error: null };
}

function setupFailure(error: string): PipelineResult {
  return { document: { ...emptyDocument(), error }, exitCode: 2 };
}

