/** The heavy half of `scribe validate`, loaded only when some file must be checked: the project, its rules, the validator. */
import { GENERATED_PRESET, withPreset, type CriticConfig } from '../config/critic.ts';
import { loadProject } from '../project/context.ts';
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

/** The validator for these flags in this project, its rule configuration, and the project's warnings. */
export async function checkedProject(flags: ValidateProjectFlags, ctx: CliContext): Promise<{ validator: Validator; config: CriticConfig; warnings: string[] }> {
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, criticFile: flags.config });
  const preset = flags.untrusted ? GENERATED_PRESET : (flags.preset ?? project.agents.critic.validatePreset);
  const config = withPreset(project.agents.critic, preset);
  if (!config) throw new UsageError(`--preset ${preset}: no such preset (${Object.keys(project.agents.critic.presets).join(', ')})`);
  const trusted = new Validator(config, { typeCheck: flags.typeCheck, tsconfig: project.tsconfig, typeChecker: flags.typeChecker });
  return { validator: flags.untrusted ? trusted.forUntrustedCode(ctx.cwd) : trusted, config, warnings: project.warnings };
}
