/**
 * `scribe heal`: the user's own specs, run under their Playwright config, and each one that failed
 * because the test is wrong healed by the Medic from the run's evidence. Their specs are their code:
 * they run as `scribe run` runs them (not gated). A heal is model code: the Medic gates it, and its
 * rerun is contained (past the safety gate, as every run of model code). A heal is written
 * in place, atomically, only when it keeps every assertion of the spec as it was and its rerun is green.
 * A passing spec is never touched and costs no model call; an app bug or an environment failure is
 * reported, never healed.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { findWeakening } from '../analysis/assertions.ts';
import { SpecModel } from '../analysis/model.ts';
import { Medic } from '../agents/medic.ts';
import { multiplex, stageReporter, type GenerationReporter } from '../agents/reporter.ts';
import { runSpec } from '../agents/runner.ts';
import { runGated } from '../agents/contained-run.ts';
import { healableClassifications } from '../config/workflow.ts';
import type { Issue, RunClassification, RunnerReport } from '../contracts.ts';
import { createProvider } from '../llm/provider.ts';
import type { ModelProvider } from '../llm/types.ts';
import { runTarget, type ProjectContext } from '../project/context.ts';
import { statsHome, type StatsSink } from '../stats/log.ts';
import { unifiedDiff } from '../util/diff.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { peopleValidator, safetyGate } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { summarize, type HealSuiteResult, type SpecHealOutcome } from './result.ts';

export interface HealSuiteOptions {
  project: ProjectContext;
  /** The spec files, absolute. */
  files: readonly string[];
  /** The app under test. */
  baseURL: string;
  /** Show each heal, write none. */
  dryRun?: boolean;
  /**
   * Run the specs themselves contained too (the MCP tool: its caller is a model, which may have written
   * them). The CLI runs the user's specs as they are.
   */
  containSpecs?: boolean;
  /** A model provider made by the caller (an MCP host's); default: the project's. */
  provider?: ModelProvider;
  /** Where statistics go (default: the project's log); false records nothing. */
  stats?: StatsSink | false;
  /** What happens, spec by spec, for a progress display. */
  onProgress?: (event: HealProgress) => void;
  signal?: AbortSignal;
}

export type HealProgress =
  | { type: 'running'; file: string }
  | { type: 'healing'; file: string; attempt: number; maxAttempts: number; classification: RunClassification }
  | { type: 'done'; outcome: SpecHealOutcome };

export async function healSuite(options: HealSuiteOptions): Promise<HealSuiteResult> {
  const started = performance.now();
  const context = new SuiteContext(options);
  const outcomes: SpecHealOutcome[] = [];
  // One spec after another: each run already uses the machine, and the Medic's answers come in the specs' order.
  for (const file of options.files) {
    options.signal?.throwIfAborted();
    options.onProgress?.({ type: 'running', file: context.display(file) });
    const outcome = await healOne(file, context);
    options.onProgress?.({ type: 'done', outcome });
    outcomes.push(outcome);
  }
  const result = summarize(outcomes, options.dryRun === true, Math.round(performance.now() - started));
  // Kept beside the statistics for `scribe report` (its diffs), unless statistics are off.
  if (options.stats !== false) appendJsonLine(path.join(statsHome(options.project.env, options.project.cwd), HEALS_FILE), { time: new Date().toISOString(), ...result });
  return result;
}

export const HEALS_FILE = 'heals.jsonl';

function appendJsonLine(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(value)}\n`);
}

/** What every spec of one suite shares: the project, the Medic (made on first need), the safety gate. */
class SuiteContext {
  readonly options: HealSuiteOptions;
  readonly healable: ReadonlySet<RunClassification>;
  private tools: Promise<{ provider: ModelProvider; validator: Validator } | string> | undefined;
  private safety: Validator | undefined;

  constructor(options: HealSuiteOptions) {
    this.options = options;
    this.healable = new Set(healableClassifications(options.project.agents.workflow));
  }

  /** The gate before every contained run: a heal is model code, and so may be a spec a model asks to run. */
  gate(): Validator {
    const { project } = this.options;
    return (this.safety ??= safetyGate(project.agents.critic, { projectRoot: project.cwd, typeCheck: true, tsconfig: project.tsconfig }));
  }

  display(file: string): string {
    return path.relative(this.options.project.cwd, file) || file;
  }

  /** A Medic reporting to `reporter`, or why there is none (no model: the offline generator cannot heal). */
  async medicFor(reporter: GenerationReporter): Promise<Medic | string> {
    this.tools ??= this.makeTools();
    const tools = await this.tools;
    if (typeof tools === 'string') return tools;
    const { project } = this.options;
    const { scribe, critic, workflow } = project.agents;
    return new Medic({ scribeConfig: scribe, critic, workflow, provider: tools.provider, validator: tools.validator, stats: false, reporter, cwd: project.cwd, env: project.env });
  }

  /** The errors the spec has as the user wrote it, by the rules a heal is checked with: a heal may keep them. */
  async toleratedIssues(file: string, code: string): Promise<Issue[]> {
    const tools = await this.tools;
    if (!tools || typeof tools === 'string') return [];
    return tools.validator.forUntrustedCode(this.options.project.cwd).validateText(file, code).issues.filter((issue) => issue.severity === 'error');
  }

  /** The model and one validator (one compiler) for every heal of the suite. */
  private async makeTools(): Promise<{ provider: ModelProvider; validator: Validator } | string> {
    const { project } = this.options;
    const { scribe, critic } = project.agents;
    const provider = this.options.provider ?? (await createProvider({ env: project.env, settings: scribe.provider, explicit: project.provider, offline: project.agents.offline }));
    if (provider.name === 'offline') return 'healing needs a model (set OPENAI_API_KEY or OPENAI_BASE_URL); the offline generator cannot heal a spec';
    return { provider, validator: peopleValidator(critic, { typeCheck: true, tsconfig: project.tsconfig }).withEnv(project.env) };
  }
}

async function healOne(file: string, context: SuiteContext): Promise<SpecHealOutcome> {
  const started = performance.now();
  const { options } = context;
  const original = readFileSync(file, 'utf8');
  const first = await run(context, { specPath: file }, options.containSpecs === true);
  const base = {
    file: context.display(file),
    classification: first.classification,
    message: first.error_message,
    error_line: first.error_line,
    heal_attempts: 0,
    model_calls: 0,
    diff: null,
    written: false,
    reasons: [] as string[],
  };
  const done = (outcome: Omit<SpecHealOutcome, 'duration_ms'>): SpecHealOutcome => ({ ...outcome, duration_ms: Math.round(performance.now() - started) });
  if (first.classification === 'pass') return done({ ...base, status: 'passed' });
  if (first.classification === 'app_bug') return done({ ...base, status: 'regression' });
  if (!context.healable.has(first.classification)) return done({ ...base, status: 'environment' });

  const generation = randomUUID();
  let modelCalls = 0;
  const counting: GenerationReporter = { report: (event) => void (event.type === 'model_call' && modelCalls++) };
  const reporter = multiplex(stageReporter({ stats: options.stats }, options.project.env, options.project.cwd), counting);
  const medic = await context.medicFor(reporter);
  if (typeof medic === 'string') return done({ ...base, status: 'not_healed', reasons: [medic] });

  const maxAttempts = options.project.agents.scribe.medic.max_debug_attempts;
  const tolerated = await context.toleratedIssues(file, original);
  const request = { description: describeSpec(original, file), feature: path.basename(file).replace(/\.(spec|test)\.[cm]?[jt]sx?$/, '') };
  const reasons: string[] = [];
  let code = original;
  let report = first;
  let previousRefusal: string | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    options.signal?.throwIfAborted();
    options.onProgress?.({ type: 'healing', file: base.file, attempt, maxAttempts, classification: report.classification });
    const healed = await medic.heal({ file, code, report, request, attempt, maxAttempts, generation, previousRefusal, tolerated });
    const attempts = { heal_attempts: attempt, model_calls: modelCalls };
    if (healed.status === 'failed') return done({ ...base, ...attempts, status: 'not_healed', reasons: [...reasons, healed.error] });
    if (healed.status === 'refused') {
      reasons.push(...healed.reasons);
      previousRefusal = healed.reasons.join('\n');
      continue;
    }
    // Each heal is checked against the spec before it; the one kept must keep every assertion of the user's.
    const weakening = findWeakening(original, healed.code);
    if (weakening.length > 0) {
      reasons.push(...weakening);
      previousRefusal = weakening.join('\n');
      continue;
    }
    const rerun = await run(context, { specText: healed.code, fileName: path.basename(file), sourceDir: path.dirname(file) }, true);
    reporter.report({ type: 'runner_outcome', generation, status: rerun.status, classification: rerun.classification, ...(rerun.containment ? { os_sandbox: rerun.containment.os_sandbox } : {}) });
    if (rerun.classification === 'pass') {
      const diff = unifiedDiff(original, healed.code, base.file);
      const written = options.dryRun !== true && writeIfUnchanged(file, original, healed.code);
      if (options.dryRun !== true && !written) return done({ ...base, ...attempts, status: 'not_healed', diff, reasons: [...reasons, `${base.file} changed while it was being healed; the heal was not written`] });
      return done({ ...base, ...attempts, status: 'healed', diff, written });
    }
    reasons.push(`heal ${attempt}: its run failed (${rerun.classification}): ${rerun.error_message ?? rerun.status}`);
    if (!context.healable.has(rerun.classification)) break;
    code = healed.code;
    report = rerun;
    previousRefusal = undefined;
  }
  return done({ ...base, heal_attempts: Math.min(maxAttempts, reasons.length), model_calls: modelCalls, status: 'not_healed', reasons });
}

/**
 * One run under the user's config. A heal (model code), and the specs themselves when a model asks (the MCP
 * tool), run contained and only past the safety gate; the user's own specs run as `scribe run` runs them.
 */
function run(context: SuiteContext, spec: { specPath: string } | { specText: string; fileName: string; sourceDir: string }, contained: boolean): Promise<RunnerReport> {
  const { project, baseURL, signal } = context.options;
  if (contained) {
    const file = 'specPath' in spec ? path.resolve(project.cwd, spec.specPath) : path.join(spec.sourceDir, spec.fileName);
    const text = 'specPath' in spec ? readFileSync(file, 'utf8') : spec.specText;
    return runGated(context.gate(), file, text, { baseURL, cwd: project.cwd, env: project.env, ...runTarget(project), signal }).then((gated) => gated.report);
  }
  if (!('specPath' in spec)) throw new TypeError('a heal runs only contained');
  return runSpec({ specPath: spec.specPath, baseURL, cwd: project.cwd, env: project.env, ...runTarget(project), signal });
}

/** What the Medic is told the spec must test: its tests' titles. */
function describeSpec(code: string, file: string): string {
  const titles = SpecModel.fromText(file, code)
    .tests()
    .map((test) => test.title)
    .filter((title): title is string => title !== undefined);
  return titles.length > 0 ? `what its tests say they check: ${titles.map((title) => `"${title}"`).join('; ')}` : `what ${path.basename(file)} checks`;
}

/** Writes the heal over the spec unless someone changed the spec meanwhile. */
function writeIfUnchanged(file: string, original: string, healed: string): boolean {
  if (readFileSync(file, 'utf8') !== original) return false;
  writeFileAtomic(file, healed);
  return true;
}
