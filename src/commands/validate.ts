import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadCriticConfig } from '../config/critic.ts';
import { agentsFile } from '../config/paths.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { collectSpecFiles, MissingPathError } from '../validate/files.ts';
import { formatStylish, validateReport } from '../validate/report.ts';
import { Validator, type FileValidation } from '../validate/validator.ts';
import { UsageError, type CliContext } from './context.ts';
import { createProgress } from './progress.ts';

interface ValidateFlags {
  config?: string;
  fix?: boolean;
  json?: boolean;
  typeCheck: boolean;
}

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check Playwright specs against the critic rules (agents/critic.yaml)')
    .argument('<paths...>', 'spec files or folders')
    .option('--config <file>', 'the critic criteria (default: ./agents/critic.yaml, else the bundled one)')
    .option('--fix', 'apply the safe autofixes and write the files')
    .option('--json', 'print one JSON document')
    .option('--no-type-check', 'skip the type-check rule (faster)')
    .action((paths: string[], flags: ValidateFlags) => runValidate(paths, flags, ctx));
}

function runValidate(paths: string[], flags: ValidateFlags, ctx: CliContext): void {
  const config = loadCriticConfig(agentsFile('critic.yaml', ctx.cwd, flags.config));
  let files: string[];
  try {
    files = collectSpecFiles(paths, ctx.cwd);
  } catch (error) {
    if (error instanceof MissingPathError) throw new UsageError(error.message);
    throw error;
  }
  if (files.length === 0) throw new UsageError(`no spec files (*.spec.ts, *.test.ts) under ${paths.join(', ')}`);

  const progress = createProgress(ctx, flags.json === true);
  progress.start(`Validating ${files.length} file${files.length === 1 ? '' : 's'}`);
  const validator = new Validator(config, { typeCheck: flags.typeCheck });
  const specs = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const results: FileValidation[] = flags.fix ? specs.map((spec) => fixFile(validator, spec, ctx, flags.json === true)) : validator.validateMany(specs);
  progress.stop();

  const report = validateReport(results, ctx.cwd);
  ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatStylish(report, ctx.stdout.isTTY === true));
  ctx.exitCode = report.summary.errors > 0 ? 1 : 0;
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
  return result.validation;
}
