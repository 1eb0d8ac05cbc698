import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { ValidateReport } from '../contracts.ts';
import { GENERATED_PRESET, withPreset } from '../config/critic.ts';
import { loadProject } from '../project/context.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { collectSpecFiles, MissingPathError } from '../validate/files.ts';
import { formatStylish, validateReport } from '../validate/report.ts';
import { sarifReport } from '../validate/sarif.ts';
import { TYPE_CHECKER_CHOICES, type TypeCheckerChoice } from '../validate/type-checker.ts';
import { INTERNAL_ERROR_RULE, Validator, type FileValidation } from '../validate/validator.ts';
import { INTERNAL_ERROR_EXIT, UsageError, type CliContext } from './context.ts';
import { createProgress } from './progress.ts';

interface ValidateFlags {
  config?: string;
  fix?: boolean;
  json?: boolean;
  format?: ValidateFormat;
  typeCheck: boolean;
  untrusted?: boolean;
  preset?: string;
  typeChecker: TypeCheckerChoice;
}

const VALIDATE_FORMATS = ['stylish', 'json', 'sarif'] as const;
type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check Playwright specs against the critic rules (agents/critic.yaml)')
    .argument('<paths...>', 'spec files or folders')
    .option('--config <file>', 'the critic criteria, merged over the bundled ones (default: ./agents/critic.yaml)')
    .option('--fix', 'apply the safe autofixes and write the files')
    .option('--json', 'print one JSON document (the same as --format json)')
    .addOption(new Option('--format <format>', 'stylish for people, json, or sarif (SARIF 2.1.0 for code scanning)').choices([...VALIDATE_FORMATS]))
    .option('--no-type-check', 'skip the type-check rule (faster)')
    .addOption(new Option('--type-checker <compiler>', 'the type-check rule\'s compiler: auto (TypeScript 7\'s native one where installed), native or javascript').choices([...TYPE_CHECKER_CHOICES]).default('auto'))
    .option('--untrusted', "treat the specs as model-written: apply the allow-list gate (allowed-code, allowed-paths) too")
    .option('--preset <name>', 'the rule set for your own specs: generated (every rule) or recommended (critic.yaml presets; default: settings.validate_preset)')
    .action((paths: string[], flags: ValidateFlags) => runValidate(paths, flags, ctx));
}

async function runValidate(paths: string[], flags: ValidateFlags, ctx: CliContext): Promise<void> {
  if (flags.json && flags.format && flags.format !== 'json') throw new UsageError(`--json and --format ${flags.format} ask for two formats; pick one`);
  const format = flags.json ? 'json' : (flags.format ?? 'stylish');
  const quiet = format !== 'stylish';
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, criticFile: flags.config });
  if (flags.untrusted && flags.preset) throw new UsageError('--untrusted holds the specs to every rule; --preset is for your own specs');
  const preset = flags.untrusted ? GENERATED_PRESET : (flags.preset ?? project.agents.critic.validatePreset);
  const config = withPreset(project.agents.critic, preset);
  if (!config) throw new UsageError(`--preset ${preset}: no such preset (${Object.keys(project.agents.critic.presets).join(', ')})`);
  for (const warning of project.warnings) ctx.stderr.write(`scribe: warning: ${warning}\n`);
  let files: string[];
  try {
    files = collectSpecFiles(paths, ctx.cwd);
  } catch (error) {
    if (error instanceof MissingPathError) throw new UsageError(error.message);
    throw error;
  }
  if (files.length === 0) throw new UsageError(`no spec files (*.spec.ts, *.test.ts) under ${paths.join(', ')}`);

  const progress = createProgress(ctx, quiet);
  progress.start(`Validating ${files.length} file${files.length === 1 ? '' : 's'}`);
  const trusted = new Validator(config, { typeCheck: flags.typeCheck, tsconfig: project.tsconfig, typeChecker: flags.typeChecker });
  const validator = flags.untrusted ? trusted.forUntrustedCode(ctx.cwd) : trusted;
  const specs = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const results: FileValidation[] = flags.fix ? specs.map((spec) => fixFile(validator, spec, ctx, quiet)) : await validator.validateManyConcurrently(specs);
  progress.stop();

  const report = { ...validateReport(results, ctx.cwd), ...(project.warnings.length > 0 ? { warnings: project.warnings } : {}) };
  const render: Record<ValidateFormat, () => string> = {
    stylish: () => formatStylish(report, ctx.stdout.isTTY === true),
    json: () => `${JSON.stringify(report, null, 2)}\n`,
    sarif: () => `${JSON.stringify(sarifReport(report, config, { cwd: ctx.cwd }), null, 2)}\n`,
  };
  ctx.stdout.write(render[format]());
  ctx.exitCode = validateExitCode(report);
}

/** 0 clean, 1 findings, 3 when Scribe could not analyse a file: Scribe's failure, which CI must not read as a finding. */
export function validateExitCode(report: Pick<ValidateReport, 'files' | 'summary'>): number {
  const internal = report.files.some((f) => f.issues.some((issue) => issue.rule === INTERNAL_ERROR_RULE));
  return internal ? INTERNAL_ERROR_EXIT : report.summary.errors > 0 ? 1 : 0;
}

function fixFile(validator: Validator, spec: { file: string; text: string }, ctx: CliContext, quiet: boolean): FileValidation {
  const result = validator.fix(spec.file, spec.text);
  if (result.applied.length > 0) {
    writeFileAtomic(spec.file, result.text);
    if (!quiet) {
      const name = path.relative(ctx.cwd, spec.file) || spec.file;
      for (const fix of result.applied) ctx.stderr.write(`fixed ${name}:${fix.line}  ${fix.rule}  ${fix.before}\n`);
    }
  }
  if (!quiet) {
    const name = path.relative(ctx.cwd, spec.file) || spec.file;
    for (const fix of result.refused) ctx.stderr.write(`not fixed ${name}:${fix.line}  ${fix.rule}: ${fix.reason}\n`);
  }
  return result.validation;
}
