/**
 * Parses a spec once, runs every enabled rule of critic.yaml on it, and applies the safe autofixes.
 * One Validator keeps one ts-morph Project, so type-checking many files (or many attempts of one
 * file) reuses the compiler's work on the library and Playwright's types.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import type { Issue, PageInventory } from '../contracts.ts';
import type { CriticConfig } from '../config/critic.ts';
import type { Finding, RuleEnvironment, TextEdit } from '../rules/types.ts';
import { SpecModel } from './model.ts';

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
}

export interface FixResult {
  text: string;
  applied: AppliedFix[];
  validation: FileValidation;
}

interface RawFinding {
  rule: string;
  severity: 'error' | 'warning';
  finding: Finding;
}

const MAX_FIX_ROUNDS = 5;
/** Results kept for texts seen again (a generation's attempts, fixes and reviews); the oldest go first. */
const MAX_REMEMBERED = 64;
const TYPE_CHECK_RULE = 'type-check';

export class Validator {
  private readonly config: CriticConfig;
  private readonly options: ValidatorOptions;
  private project: Project | undefined;
  private readonly results = new Map<string, FileValidation>();

  constructor(config: CriticConfig, options: ValidatorOptions = {}) {
    this.config = config;
    this.options = options;
  }

  /** The same rules knowing the environment specs will run in (which variables are set), sharing the compiler project. */
  withEnv(env: Readonly<Record<string, string | undefined>> | undefined): Validator {
    if (env === this.options.env) return this;
    const other = new Validator(this.config, { ...this.options, env });
    if (this.typeChecking) other.project = this.compilerProject();
    return other;
  }

  /** The same rules with another page inventory, sharing this validator's compiler project (and its cache). */
  withInventory(inventory: PageInventory | undefined): Validator {
    if (inventory === this.options.inventory) return this;
    const other = new Validator(this.config, { ...this.options, inventory });
    if (this.typeChecking) other.project = this.compilerProject();
    return other;
  }

  /**
   * The same rules plus the allow-list gate, for model-written code, sharing this validator's compiler
   * project. Already untrusted, it is returned as is (so its results are shared too).
   */
  forUntrustedCode(projectRoot: string): Validator {
    if (this.options.untrusted) return this;
    const other = new Validator(this.config, { ...this.options, untrusted: { projectRoot: path.resolve(projectRoot) } });
    if (this.typeChecking) other.project = this.compilerProject();
    return other;
  }

  get untrusted(): boolean {
    return this.options.untrusted !== undefined;
  }

  get typeChecking(): boolean {
    return this.options.typeCheck !== false && this.config.rules.some((r) => r.rule.id === TYPE_CHECK_RULE);
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
    const found = new Map<string, FileValidation>();
    const fresh = specs.filter((spec) => {
      const known = this.results.get(resultKey(spec));
      if (known) found.set(resultKey(spec), known);
      return !known;
    });
    this.parse(fresh).forEach((model, i) => {
      const result = this.report(fresh[i]!.file, fresh[i]!.text, model, this.run(model));
      found.set(resultKey(result), result);
      this.remember(result);
    });
    return specs.map((spec) => found.get(resultKey(spec))!);
  }

  private remember(result: FileValidation): void {
    if (this.results.size >= MAX_REMEMBERED) this.results.delete(this.results.keys().next().value!);
    this.results.set(resultKey(result), result);
  }

  /** Applies safe fixes until none is left (or a few rounds), and validates the result. */
  fix(file: string, text: string): FixResult {
    let current = text;
    const applied: AppliedFix[] = [];
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const model = this.parse([{ file, text: current }])[0]!;
      const edits = this.run(model).flatMap(({ rule, finding }) =>
        finding.fix ? [{ rule, line: this.position(model, finding.node).line, edits: finding.fix }] : [],
      );
      const chosen = nonOverlapping(edits);
      if (chosen.length === 0) break;
      for (const fix of chosen) applied.push({ rule: fix.rule, line: fix.line, before: model.lineText(fix.line).trim() });
      current = applyEdits(current, chosen.flatMap((c) => c.edits));
    }
    return { text: current, applied, validation: this.validateText(file, current) };
  }

  private parse(specs: ReadonlyArray<{ file: string; text: string }>): SpecModel[] {
    if (!this.typeChecking) return specs.map((s) => SpecModel.fromText(s.file, s.text));
    const project = this.compilerProject();
    const sourceFiles = specs.map((s) => project.createSourceFile(path.resolve(s.file), s.text, { overwrite: true, scriptKind: ts.ScriptKind.TS }));
    const program = project.getProgram().compilerObject;
    return sourceFiles.map((sf) => {
      return new SpecModel(sf.compilerNode, () => program.getSemanticDiagnostics(sf.compilerNode));
    });
  }

  private run(model: SpecModel): RawFinding[] {
    const env: RuleEnvironment = { testIdAttribute: this.config.testIdAttribute, inventory: this.options.inventory, projectRoot: this.options.untrusted?.projectRoot, credentials: this.config.credentials, env: this.options.env };
    const found: RawFinding[] = [];
    for (const active of this.config.rules) {
      if (active.rule.id === TYPE_CHECK_RULE && !this.typeChecking) continue;
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
      .sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
    return { file, text, issues, passed: !issues.some((i) => i.severity === 'error') };
  }

  private position(model: SpecModel, at: ts.Node | number): { line: number; column: number } {
    if (typeof at !== 'number') return model.position(at);
    const { line, character } = model.sourceFile.getLineAndCharacterOfPosition(at);
    return { line: line + 1, column: character + 1 };
  }

  private compilerProject(): Project {
    this.project ??= new Project({
      compilerOptions: compilerOptions(this.config.rules.find((r) => r.rule.id === TYPE_CHECK_RULE)?.options),
      skipAddingFilesFromTsConfig: true,
      skipFileDependencyResolution: false,
    });
    return this.project;
  }
}

const require = createRequire(import.meta.url);

/** Specs are checked against the @playwright/test and Node types Scribe ships with, wherever they live. */
function compilerOptions(typeCheckOptions: unknown): ts.CompilerOptions {
  const testTypes = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'index.d.ts');
  const coreTestTypes = path.join(path.dirname(require.resolve('playwright/package.json')), 'test.d.ts');
  const nodeTypesRoot = path.dirname(path.dirname(require.resolve('@types/node/package.json')));
  const strict = (typeCheckOptions as { strict?: boolean } | undefined)?.strict === true;
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [nodeTypesRoot],
    paths: { '@playwright/test': [testTypes], 'playwright/test': [coreTestTypes] },
    strict,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    noUnusedLocals: false,
  };
}

function resultKey(spec: { file: string; text: string }): string {
  return `${path.resolve(spec.file)}\0${spec.text}`;
}

function nonOverlapping<T extends { edits: TextEdit[] }>(fixes: T[]): T[] {
  const chosen: T[] = [];
  const taken: TextEdit[] = [];
  for (const fix of fixes) {
    if (fix.edits.some((e) => taken.some((t) => e.start < t.end && t.start < e.end))) continue;
    chosen.push(fix);
    taken.push(...fix.edits);
  }
  return chosen;
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
