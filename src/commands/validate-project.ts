/** The heavy half of `scribe validate`, loaded only when some file must be checked: the project, its rules, the validator. */
import { loadAgents } from '../config/agents.ts';
import { GENERATED_PRESET, withPreset, type CriticConfig } from '../config/critic.ts';
import { loadProject, projectTsconfig } from '../project/context.ts';
import type { PlaywrightProject } from '../project/playwright.ts';
import type { TypeCheckerChoice } from '../validate/type-checker-choice.ts';
import { confirmedInOwnProject, typeCheckReads } from '../validate/own-project.ts';
import { groupByProjectTypes, NO_PROJECT, type ProjectTypes } from '../validate/project-types.ts';
import { NativeTypeChecker } from '../validate/type-checker-native.ts';
import { peopleValidator, untrustedValidator } from '../validate/gate.ts';
import type { Validator, FileValidation } from '../validate/validator.ts';
import { UsageError, type CliContext } from './context.ts';

export interface ValidateProjectFlags {
  /** Scribe's rule file (--rules). */
  rules?: string;
  typeCheck: boolean;
  untrusted?: boolean;
  preset?: string;
  typeChecker: TypeCheckerChoice;
}

/** What validating needs from the project, and the results for the specs given. */
export interface CheckedProject {
  validator: Validator;
  config: CriticConfig;
  warnings: string[];
  results: Promise<FileValidation[]>;
  /** The project files each spec's type check read besides its imports (typeCheckReads), by spec file: for the validate cache. */
  typeCheckReads: Promise<Map<string, string[]>>;
}

/**
 * The validator for these flags in this project, its rule configuration, the project's warnings, and
 * the results for `specs`. `playwright` is the config's read, already under way: it decides only the
 * test id attribute, so the specs are checked meanwhile with critic.yaml's alone (the native type check
 * included), and checked again only if the config names another attribute.
 */
export async function checkedProject(
  flags: ValidateProjectFlags,
  ctx: CliContext,
  playwright: Promise<PlaywrightProject | undefined>,
  specs: ReadonlyArray<{ file: string; text: string }> = [],
): Promise<CheckedProject> {
  if (flags.typeCheck && flags.typeChecker === 'native') requireNativeTypeChecker();
  const agents = loadAgents(ctx.cwd, { criticFile: flags.rules });
  const before = agents.critic;
  const early = validatorFor(rulesFor(before, flags), flags, ctx, { tsconfig: projectTsconfig(ctx.cwd) });
  // Each spec is type-checked with its own nearest tsconfig.json/jsconfig.json, as the user's editor does.
  const forProject = (projectTypes: ProjectTypes) => validatorFor(rulesFor(before, flags), flags, ctx, { projectTypes });
  const groups = flags.typeCheck && specs.length > 0 ? groupByProjectTypes(specs).map((g) => ({ ...g, validator: forProject(g.project) })) : [{ specs: [...specs], project: NO_PROJECT, members: [], validator: early }];
  const validateAll = (withConfig: (v: Validator) => Validator) =>
    inOrder(specs, groups, async (g) => {
      const inGroup = await withConfig(g.validator).validateManyConcurrently(g.specs);
      return { results: confirmedInOwnProject(inGroup, g.members, (project) => withConfig(forProject(project))), reads: typeCheckReads(g, inGroup) };
    });
  const speculative = specs.length > 0 ? validateAll((v) => v) : Promise.resolve({ results: [], reads: new Map<string, string[]>() });
  speculative.catch(() => undefined);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, criticFile: flags.rules, agents, playwright });
  const config = rulesFor(project.agents.critic, flags);
  const validator = early.withConfig(config);
  const validated = project.agents.critic.testIdAttribute === before.testIdAttribute ? speculative : validateAll((v) => v.withConfig(config));
  return { validator, config, warnings: project.warnings, results: validated.then((v) => v.results), typeCheckReads: validated.then((v) => v.reads) };
}

/** One group's results, and the files each of its specs' type check read. */
interface GroupValidation {
  results: FileValidation[];
  reads: Map<string, string[]>;
}

/** The groups validated one after another (each has a compiler of its own), their results in the order of the specs. */
async function inOrder<G>(specs: ReadonlyArray<{ file: string }>, groups: readonly G[], validate: (group: G) => Promise<GroupValidation>): Promise<GroupValidation> {
  const byFile = new Map<string, FileValidation>();
  const reads = new Map<string, string[]>();
  for (const group of groups) {
    const validated = await validate(group);
    for (const result of validated.results) byFile.set(result.file, result);
    for (const [file, read] of validated.reads) reads.set(file, read);
  }
  return { results: specs.map((spec) => byFile.get(spec.file)!), reads };
}
/** `--type-checker native` where TypeScript 7 is not installed: a usage error that says what to do. */
function requireNativeTypeChecker(): void {
  const native = NativeTypeChecker.create({});
  if (native instanceof Error) {
    throw new UsageError(`--type-checker native: TypeScript 7 (the optional dependency typescript-native) cannot be loaded here (${native.message.split('\n')[0]}); reinstall with optional dependencies (npm install), or use --type-checker auto or javascript`);
  }
}

function validatorFor(config: CriticConfig, flags: ValidateProjectFlags, ctx: CliContext, types: { tsconfig?: string; projectTypes?: ProjectTypes }): Validator {
  const options = { typeCheck: flags.typeCheck, ...types, typeChecker: flags.typeChecker };
  return flags.untrusted ? untrustedValidator(config, { ...options, projectRoot: ctx.cwd }) : peopleValidator(config, options);
}

/** The rule set the flags ask for: every rule for model-written code, else the preset named or configured. */
function rulesFor(critic: CriticConfig, flags: ValidateProjectFlags): CriticConfig {
  const preset = flags.untrusted ? GENERATED_PRESET : (flags.preset ?? critic.validatePreset);
  const config = withPreset(critic, preset);
  if (!config) throw new UsageError(`--preset ${preset}: no such preset (${Object.keys(critic.presets).join(', ')})`);
  return config;
}
