/**
 * Parses a spec once, runs every enabled rule of critic.yaml on it, and applies the safe autofixes.
 * One Validator keeps its compiler work (the declaration files parsed once, the native checker's process),
 * so type-checking many files, or many attempts of one file, reuses what was done for the library and
 * Playwright's types.
 */
import path from 'node:path';
import { ts } from '../util/typescript.js';
import { SpecModel } from '../analysis/model.ts';
import { applyDirectives, parseDirectives, type Directive } from '../analysis/suppressions.ts';
import { fromCompilerDiagnostic, type TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import type { CriticConfig } from '../config/critic.ts';
import type { Issue, PageInventory } from '../contracts.ts';
import syntaxRule from '../rules/syntax.ts';
import type { Finding, Rule, RuleEnvironment } from '../rules/types.ts';
import type { TypeCheckerChoice } from './type-checker-choice.ts';
import { NO_PROJECT, readProjectTypes, type ProjectTypes } from './project-types.ts';
import { projectImports, typeCheckOptions } from './type-checker.ts';
import { compilerFor, threadedDiagnostics, type Compiler } from './compiler.ts';
import { applyEdits, fixKey, nonOverlapping } from './edits.ts';
import { attempt, once } from '../util/once.ts';
import { fixBreaks } from './verify-fix.ts';

export interface ValidatorOptions {
  /** Run the `type-check` rule (when critic.yaml enables it). Off makes validation several times faster. */
  typeCheck?: boolean;
  inventory?: PageInventory;
  /** The environment specs will run in (which variables are set); without it no variable is known to be unset. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The code is model-written (untrusted): the allow-list gate's rules apply too, and the project root
   * bounds its relative imports. Off for people's own specs, unless they ask (`validate --untrusted`).
   */
  untrusted?: { projectRoot: string };
  /**
   * The project's tsconfig.json or jsconfig.json for these specs: the type check resolves imports the way the
   * project does (its `paths`), loads its declaration files and libraries, and checks JavaScript only where it
   * opts in (`checkJs`). Without one, JavaScript is checked only where a file says `// @ts-check`. Scribe's
   * own choices win for the Playwright and Node types.
   */
  tsconfig?: string;
  /** The type information itself, in place of `tsconfig`'s: what groupByProjectTypes merged for a group of specs. */
  projectTypes?: ProjectTypes;
  /** Which compiler type-checks (default `auto`: TypeScript 7's native one where it is installed). */
  typeChecker?: TypeCheckerChoice;
  /** How long the type checker's process or thread waits for its next check (default 5 s native, a minute JavaScript; a batch's worker keeps it through a run). */
  typeCheckerIdleMs?: number;
}

export interface FileValidation {
  file: string;
  text: string;
  issues: Issue[];
  passed: boolean;
}

export interface AppliedFix {
  rule: string;
  line: number;
  before: string;
  /** Every change the fix made, exactly: the text it removed and the text it put in its place. */
  changes: Array<{ removed: string; inserted: string }>;
}

/** A fix that was found but not applied, and why (the file does not parse, or the fix would change an assertion). */
export interface RefusedFix {
  rule: string;
  line: number;
  before: string;
  reason: string;
}

export interface FixResult {
  text: string;
  applied: AppliedFix[];
  refused: RefusedFix[];
  validation: FileValidation;
}

interface RawFinding {
  rule: string;
  severity: 'error' | 'warning';
  finding: Finding;
}

const MAX_FIX_ROUNDS = 5;
/** A finding about Scribe, not the spec: the file could not be analysed. The other files keep their reports. */
export const INTERNAL_ERROR_RULE = 'internal-error';
/** A suppression comment that suppressed nothing (people's specs only; see suppressions.ts). */
export const UNUSED_DIRECTIVE_RULE = 'unused-disable-directive';
/** Results kept for texts seen again (a generation's attempts, fixes and reviews); the oldest go first. */
const MAX_REMEMBERED = 64;
/** How many files validateManyConcurrently checks between two turns of the event loop. */
const YIELD_EVERY = 20;

export class Validator {
  private readonly config: CriticConfig;
  private readonly options: ValidatorOptions;
  private compiler: Compiler | undefined;
  /** Remembered results by text; a result applies to a spec only at the same path. */
  private readonly results = new Map<string, { path: string; result: FileValidation }>();

  constructor(config: CriticConfig, options: ValidatorOptions = {}) {
    this.config = config;
    this.options = options;
  }

  /** The same rules knowing the environment specs will run in (which variables are set), sharing the compiler project. */
  withEnv(env: Readonly<Record<string, string | undefined>> | undefined): Validator {
    if (env === this.options.env) return this;
    const other = new Validator(this.config, { ...this.options, env });
    if (this.typeChecking) other.compiler = this.compilerState();
    return other;
  }

  /** Other rules (the project's final configuration) sharing this validator's compiler work, when both type-check alike. */
  withConfig(config: CriticConfig): Validator {
    const other = new Validator(config, this.options);
    if (this.typeChecking && other.typeChecking && strictOf(config) === strictOf(this.config)) other.compiler = this.compilerState();
    return other;
  }

  /** Readies the type checker (the native compiler's process, else the JavaScript compiler's thread, which checks from then on) before the first spec needs it. */
  warmTypeCheck(): void {
    if (this.typeChecking) (this.compilerState().native ?? this.compilerState().javascriptThread)?.warm();
  }

  /** Stops the type checker's process and thread and waits until they have exited: a thread that ends with them leaves no child behind. */
  async stopTypeCheck(): Promise<void> {
    await Promise.all([this.compiler?.native?.stop(), this.compiler?.javascriptThread?.stop()]);
  }

  /** The same rules with another page inventory, sharing this validator's compiler project (and its cache). */
  withInventory(inventory: PageInventory | undefined): Validator {
    if (inventory === this.options.inventory) return this;
    const other = new Validator(this.config, { ...this.options, inventory });
    if (this.typeChecking) other.compiler = this.compilerState();
    return other;
  }

  /**
   * The same rules plus the allow-list gate, for model-written code, sharing this validator's compiler
   * project. Already untrusted, it is returned as is (so its results are shared too).
   */
  forUntrustedCode(projectRoot: string): Validator {
    if (this.options.untrusted) return this;
    const other = new Validator(this.config, { ...this.options, untrusted: { projectRoot: path.resolve(projectRoot) } });
    if (this.typeChecking) other.compiler = this.compilerState();
    return other;
  }

  get untrusted(): boolean {
    return this.options.untrusted !== undefined;
  }

  get typeChecking(): boolean {
    return this.options.typeCheck !== false && this.config.rules.some((r) => r.rule.needsTypes === true);
  }

  /** Validates one spec given as text; `file` is where it lives or will live (relative imports resolve from there). */
  validateText(file: string, text: string): FileValidation {
    return this.validateMany([{ file, text }])[0]!;
  }

  /**
   * Validates many specs with a single compiler program. A text validated before at the same path (by
   * this validator) is not checked again: the result depends on nothing else, and the Critic re-checking
   * what Scribe just checked would otherwise pay for a new type-checker.
   */
  validateMany(specs: ReadonlyArray<{ file: string; text: string }>): FileValidation[] {
    const { results, fresh } = this.recall(specs);
    if (!this.typeChecking) {
      // Without a program, each file is parsed just before its rules run, so its syntax tree dies young.
      for (const i of fresh) results[i] = this.keep(specs[i]!, this.parse([specs[i]!])[0]!, (model) => this.run(model));
    } else {
      const freshSpecs = fresh.map((i) => specs[i]!);
      const diagnostics = threadedDiagnostics(this.compilerState(), freshSpecs);
      this.parse(freshSpecs, diagnostics).forEach((parsed, j) => (results[fresh[j]!] = this.keep(freshSpecs[j]!, parsed, (model) => this.run(model))));
    }
    return results as FileValidation[];
  }

  /**
   * The same as validateMany for a large batch: the native type checker works in its own process while
   * this thread runs the other rules, and the type-check rule runs last, on its answer.
   */
  async validateManyConcurrently(specs: ReadonlyArray<{ file: string; text: string }>): Promise<FileValidation[]> {
    const native = this.typeChecking ? this.compilerState().native : undefined;
    if (!native) return this.validateMany(specs);
    const { results, fresh } = this.recall(specs);
    const freshSpecs = fresh.map((i) => specs[i]!);
    const checking = await native.checkConcurrently(freshSpecs);
    let answer: Map<string, TypeDiagnostic[]> | undefined;
    const parsed = this.parse(freshSpecs, () => answer!);
    const others: Array<RawFinding[] | Error> = [];
    for (const model of parsed) {
      // Yielding now and then lets the compiler process start, load the batch and be answered meanwhile.
      if (others.length % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      others.push(model instanceof Error ? [] : attempt(() => this.run(model, (rule) => !rule.needsTypes)));
    }
    answer = await checking();
    parsed.forEach((model, j) => {
      const before = others[j]!;
      results[fresh[j]!] = this.keep(freshSpecs[j]!, model, (m) => {
        if (before instanceof Error) throw before;
        return [...before, ...this.run(m, (rule) => rule.needsTypes === true)];
      });
    });
    return results as FileValidation[];
  }

  /** The project files a result for this spec depends on besides the spec: those its type check reads. */
  projectImports(file: string, text: string): string[] {
    return this.typeChecking ? projectImports(file, text, this.compilerState().javascript.options) : [];
  }

  /** The results this validator has for these specs already (by position), and the positions still to check. */
  private recall(specs: ReadonlyArray<{ file: string; text: string }>): { results: Array<FileValidation | undefined>; fresh: number[] } {
    const fresh: number[] = [];
    const results = specs.map((spec, i) => {
      const remembered = this.results.get(spec.text);
      if (remembered && remembered.path === path.resolve(spec.file)) return remembered.result;
      fresh.push(i);
      return undefined;
    });
    return { results, fresh };
  }

  /** The report on one parsed spec (or on why it could not be analysed), remembered. */
  private keep(spec: { file: string; text: string }, parsed: SpecModel | Error, findings: (model: SpecModel) => RawFinding[]): FileValidation {
    const result = parsed instanceof Error ? unanalysable(spec.file, spec.text, parsed) : this.checked(spec.file, spec.text, parsed, findings);
    this.remember(result);
    return result;
  }

  /** The rules' report on one parsed file, or an internal-error finding when analysing it failed. */
  private checked(file: string, text: string, model: SpecModel, findings: (model: SpecModel) => RawFinding[]): FileValidation {
    try {
      return this.report(file, text, model, findings(model));
    } catch (error) {
      return unanalysable(file, text, error);
    }
  }

  private remember(result: FileValidation): void {
    // Keyed by the text alone: V8 hashes a string once, where a key joining path and text was a new string each time.
    this.results.delete(result.text);
    if (this.results.size >= MAX_REMEMBERED) this.results.delete(this.results.keys().next().value!);
    this.results.set(result.text, { path: path.resolve(result.file), result });
  }

  /**
   * Applies safe fixes until none is left (or a few rounds), and validates the result. A file with
   * syntax errors is not edited; each fix is applied only if the fixed file parses and keeps every
   * assertion (verify-fix.ts), else it is refused and named.
   */
  fix(file: string, text: string): FixResult {
    let current = text;
    const applied: AppliedFix[] = [];
    const refused: RefusedFix[] = [];
    const refusedKeys = new Set<string>();
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const model = this.parse([{ file, text: current }])[0]!;
      if (model instanceof Error) break;
      const candidates = nonOverlapping(
        // The type check fixes nothing: its diagnostics are read once, for the final validation.
        this.run(model, (rule) => !rule.needsTypes).flatMap(({ rule, finding }) => {
          if (!finding.fix) return [];
          const line = this.position(model, finding.node).line;
          const fix = { rule, line, before: model.lineText(line).trim(), edits: finding.fix };
          return refusedKeys.has(fixKey(fix)) ? [] : [fix];
        }),
      );
      if (candidates.length === 0) break;
      if (model.syntaxDiagnostics().length > 0) {
        refused.push(...candidates.map(({ rule, line, before }) => ({ rule, line, before, reason: 'the file has syntax errors, and a fix to a file that does not parse cannot be checked' })));
        break;
      }
      const safe = candidates.filter((fix) => {
        const reason = fixBreaks(file, current, applyEdits(current, fix.edits));
        if (reason === undefined) return true;
        refused.push({ rule: fix.rule, line: fix.line, before: fix.before, reason });
        refusedKeys.add(fixKey(fix));
        return false;
      });
      if (safe.length === 0) continue;
      // Fixes safe one by one may still clash together: then this round applies the first alone.
      const together = fixBreaks(file, current, applyEdits(current, safe.flatMap((f) => f.edits))) === undefined;
      const chosen = together ? safe : safe.slice(0, 1);
      for (const fix of chosen) {
        applied.push({ rule: fix.rule, line: fix.line, before: fix.before, changes: fix.edits.map((e) => ({ removed: current.slice(e.start, e.end), inserted: e.text })) });
      }
      current = applyEdits(current, chosen.flatMap((c) => c.edits));
    }
    return { text: current, applied, refused, validation: this.validateText(file, current) };
  }

  /**
   * Each spec parsed on its own (a file too deep to parse is an Error, not a lost batch). Type-checked, their
   * diagnostics come from a threaded checker's answer for the batch (compiler.ts), or from one
   * JavaScript program over their syntax trees; that program is also built, only when asked, for a rule
   * that follows a call into another file.
   */
  private parse(specs: ReadonlyArray<{ file: string; text: string }>, threaded?: () => Map<string, TypeDiagnostic[]>): Array<SpecModel | Error> {
    const trees = specs.map((s) => attempt(() => SpecModel.parse(s.file, s.text)));
    if (!this.typeChecking) return trees.map((tree) => (tree instanceof Error ? tree : new SpecModel(tree)));
    const { javascript } = this.compilerState();
    const program = once(() => javascript.program(trees.filter((t): t is ts.SourceFile => !(t instanceof Error))));
    const diagnosticsOf = threaded
      ? (sf: ts.SourceFile) => threaded().get(path.resolve(sf.fileName)) ?? []
      : (sf: ts.SourceFile) => program().getSemanticDiagnostics(sf).map(fromCompilerDiagnostic);
    // With a threaded checker, a rule following a call into another file gets a program of that spec alone:
    // the batch's would parse and bind every spec and its imports for the few that need it.
    const checkerOf = (tree: ts.SourceFile) => (threaded ? once(() => javascript.program([tree]).getTypeChecker()) : () => program().getTypeChecker());
    return trees.map((tree) => (tree instanceof Error ? tree : new SpecModel(tree, () => diagnosticsOf(tree), checkerOf(tree))));
  }

  /** The findings of the enabled rules (of those `which` admits) on one file. */
  private run(model: SpecModel, which: (rule: Rule<unknown>) => boolean = () => true): RawFinding[] {
    const env: RuleEnvironment = { testIdAttribute: this.config.testIdAttribute, inventory: this.options.inventory, projectRoot: this.options.untrusted?.projectRoot, credentials: this.config.credentials, env: this.options.env };
    const found: RawFinding[] = [];
    for (const active of this.config.rules) {
      if (!which(active.rule)) continue;
      if (active.rule.needsTypes && !this.typeChecking) continue;
      if (active.rule.untrustedOnly && !this.options.untrusted) continue;
      for (const finding of active.rule.check(model, active.options, env)) {
        found.push({ rule: active.rule.id, severity: finding.severity ?? active.severity, finding });
      }
    }
    return found;
  }

  private report(file: string, text: string, model: SpecModel, found: RawFinding[]): FileValidation {
    const issues = found
      .map(({ rule, severity, finding }): Issue => ({
        rule,
        severity,
        message: finding.message,
        ...this.position(model, finding.node),
        fixable: finding.fix !== undefined,
      }))
      .sort(byPosition);
    const kept = this.options.untrusted ? issues : this.suppressed(model, issues);
    return { file, text, issues: kept, passed: !kept.some((i) => i.severity === 'error') };
  }

  /** People's specs: the findings their suppression comments leave, and a warning for each comment that suppressed nothing. */
  private suppressed(model: SpecModel, issues: Issue[]): Issue[] {
    const directives = parseDirectives(model.sourceFile);
    if (directives.length === 0) return issues;
    const known = new Set(this.config.rules.map((r) => r.rule.id));
    const { kept, unused } = applyDirectives(issues, directives, known);
    const reported = unused.map((d): Issue => ({ rule: UNUSED_DIRECTIVE_RULE, severity: 'warning', message: unusedMessage(d), line: d.line, column: d.column, fixable: false }));
    return [...kept, ...reported].sort(byPosition);
  }

  private position(model: SpecModel, at: ts.Node | number): { line: number; column: number } {
    if (typeof at !== 'number') return model.position(at);
    const { line, character } = model.sourceFile.getLineAndCharacterOfPosition(at);
    return { line: line + 1, column: character + 1 };
  }

  /** The compiler work every validator derived from this one shares: declaration files parsed once, and the native checker if any. */
  private compilerState(): Compiler {
    if (this.compiler) return this.compiler;
    const project = this.options.projectTypes ?? (this.options.tsconfig ? readProjectTypes(this.options.tsconfig) : undefined);
    const options = typeCheckOptions(strictOf(this.config), project);
    const declarations = project ?? NO_PROJECT;
    this.compiler = compilerFor(options, declarations, this.options.typeChecker ?? 'auto', this.options.typeCheckerIdleMs);
    return this.compiler;
  }
}

/** Whether the rule that reads types (type-check) asks for a strict check (its `strict` option). */
function strictOf(config: CriticConfig): boolean {
  return (config.rules.find((r) => r.rule.needsTypes === true)?.options as { strict?: boolean } | undefined)?.strict === true;
}

/** Issues in reading order: line, column, then rule id. */
function byPosition(a: Issue, b: Issue): number {
  return a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}

function unusedMessage(directive: Directive): string {
  const what = directive.rules ? `${directive.rules.join(', ')} problem` : 'problem';
  const where = directive.kind === 'disable' ? 'after it' : directive.kind === 'disable-next-line' ? 'on the next line' : 'on its line';
  return `unused ${directive.keyword} directive: no ${what} reported ${where}`;
}

/** The report of a file whose analysis failed: too deeply nested (a finding about it), else an internal error. */
function unanalysable(file: string, text: string, error: unknown): FileValidation {
  // Thousands of nested parentheses, calls or arrays overflow any recursive analysis: no test needs them.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    const message = 'the spec nests expressions too deeply to analyse (thousands of levels); no test needs that: flatten it. The other files were validated.';
    return { file, text, issues: [{ rule: syntaxRule.id, severity: 'error', message, line: 1, column: 1, fixable: false }], passed: false };
  }
  const message = `Scribe failed while analysing the file (${error instanceof Error ? error.message : String(error)}); this is a limitation of Scribe, not a finding about the spec. The other files were validated.`;
  return { file, text, issues: [{ rule: INTERNAL_ERROR_RULE, severity: 'error', message, line: 1, column: 1, fixable: false }], passed: false };
}
