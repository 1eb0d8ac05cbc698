/** The heavy half of `scribe validate`, loaded only when some file must be checked: the project, its rules, the validator. */
import { loadAgents } from '../config/agents.ts';
import { GENERATED_PRESET, withPreset, type CriticConfig } from '../config/critic.ts';
import { loadProject, projectTsconfig } from '../project/context.ts';
import type { PlaywrightProject } from '../project/playwright.ts';
import type { TypeCheckerChoice } from '../validate/type-checker-choice.ts';
import { Validator } from '../validate/validator.ts';
import { UsageError, type CliContext } from './context.ts';

export interface ValidateProjectFlags {
  config?: string;
  typeCheck: boolean;
  untrusted?: boolean;
  preset?: string;
  typeChecker: TypeCheckerChoice;
}

/**
 * The validator for these flags in this project, its rule configuration, and the project's warnings.
 * `playwright` is the config's read, already under way; the type check of `specs` starts before it
 * ends: it needs nothing from it.
 */
export async function checkedProject(
  flags: ValidateProjectFlags,
  ctx: CliContext,
  playwright: Promise<PlaywrightProject | undefined>,
  specs: ReadonlyArray<{ file: string; text: string }> = [],
): Promise<{ validator: Validator; config: CriticConfig; warnings: string[] }> {
  const tsconfig = projectTsconfig(ctx.cwd);
  const early = new Validator(rulesFor(loadAgents(ctx.cwd, { criticFile: flags.config }).critic, flags), { typeCheck: flags.typeCheck, tsconfig, typeChecker: flags.typeChecker });
  if (specs.length > 0) early.startTypeCheck(specs);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, criticFile: flags.config, playwright });
  const config = rulesFor(project.agents.critic, flags);
  const trusted = early.withConfig(config);
  return { validator: flags.untrusted ? trusted.forUntrustedCode(ctx.cwd) : trusted, config, warnings: project.warnings };
}

/** The rule set the flags ask for: every rule for model-written code, else the preset named or configured. */
function rulesFor(critic: CriticConfig, flags: ValidateProjectFlags): CriticConfig {
  const preset = flags.untrusted ? GENERATED_PRESET : (flags.preset ?? critic.validatePreset);
  const config = withPreset(critic, preset);
  if (!config) throw new UsageError(`--preset ${preset}: no such preset (${Object.keys(critic.presets).join(', ')})`);
  return config;
}
