import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { ValidateReport } from '../contracts.ts';
import { BUNDLED_AGENTS_DIR, PACKAGE_ROOT, statsHome } from '../config/paths.ts';
import { findPlaywrightConfig } from '../project/config-file.ts';
import type { PlaywrightProject } from '../project/playwright.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { printable } from '../util/terminal.ts';
import { CACHE_FILE, cacheKey, ValidationCache } from '../validate/cache.ts';
import { collectSpecFiles, MissingPathError, namesAFolder } from '../validate/files.ts';
import { formatStylish, validateReport, withMissingPackagesFolded } from '../validate/report.ts';
import { TYPE_CHECKER_CHOICES, type TypeCheckerChoice } from '../validate/type-checker-choice.ts';
import { INTERNAL_ERROR_RULE, type FileValidation, type Validator } from '../validate/validator.ts';
import { INTERNAL_ERROR_EXIT, printWarnings, UsageError, type CliContext } from './context.ts';
import { playwrightChoice, withPlaywrightOptions, type PlaywrightFlags } from './options.ts';
import { createProgress } from './progress.ts';

interface ValidateFlags extends PlaywrightFlags {
  /** Scribe's rule file (critic.yaml). */
  rules?: string;
  maxWarnings?: string;
  quiet?: boolean;
  outputFile?: string;
  fix?: boolean;
  json?: boolean;
  format?: ValidateFormat;
  typeCheck: boolean;
  untrusted?: boolean;
  preset?: string;
  typeChecker: TypeCheckerChoice;
  cache?: boolean;
  cacheLocation?: string;
}

const VALIDATE_FORMATS = ['stylish', 'json', 'sarif'] as const;
type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

export function registerValidate(program: Command, ctx: CliContext): void {
  const command = program
    .command('validate')
    .description('check Playwright specs against the critic rules (agents/critic.yaml)')
    .argument('<paths...>', 'spec files or folders')
    .option('--rules <file>', "Scribe's rules (critic.yaml), merged over the bundled ones (default: ./agents/critic.yaml)")
    .option('--fix', 'apply the safe autofixes and write the files')
    .option('--json', 'print one JSON document (the same as --format json)')
    .addOption(new Option('--format <format>', 'stylish for people, json, or sarif (SARIF 2.1.0 for code scanning)').choices([...VALIDATE_FORMATS]))
    .option('--no-type-check', 'skip the type-check rule (faster)')
    .addOption(new Option('--type-checker <compiler>', 'the type-check rule\'s compiler: auto (TypeScript 7\'s native one where installed), native or javascript').choices([...TYPE_CHECKER_CHOICES]).default('auto'))
    .option('--untrusted', "treat the specs as model-written: apply the allow-list gate (allowed-code, allowed-paths) too")
    .option('--cache', `reuse the findings of files unchanged since the last run (kept in .scribe/${CACHE_FILE})`)
    .option('--cache-location <file>', 'where --cache keeps them')
    .option('--preset <name>', 'the rule set for your own specs: generated (every rule) or recommended (critic.yaml presets; default: settings.validate_preset)')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this, as eslint does')
    .option('--quiet', 'report errors only')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout');
  withPlaywrightOptions(command).action((paths: string[], flags: ValidateFlags) => runValidate(paths, withRulesFlag(flags, ctx), ctx));
}

/**
 * `--config` names the Playwright config, as it does for `npx playwright test`. It used to name critic.yaml:
 * a YAML file there is still taken as --rules, with a notice.
 */
function withRulesFlag(flags: ValidateFlags, ctx: CliContext): ValidateFlags {
  if (!flags.config || !/\.ya?ml$/i.test(flags.config)) return flags;
  if (flags.rules) throw new UsageError(`--config ${flags.config} and --rules ${flags.rules}: --config names the Playwright config; give Scribe's rules with --rules alone`);
  printWarnings(ctx, [`--config ${flags.config}: --config now names the Playwright config (as in \`npx playwright test\`); Scribe's rule file is --rules. Taken as --rules ${flags.config} this time.`]);
  return { ...flags, rules: flags.config, config: undefined };
}

async function runValidate(paths: string[], flags: ValidateFlags, ctx: CliContext): Promise<void> {
  const maxWarnings = flags.maxWarnings === undefined ? undefined : Number(flags.maxWarnings);
  if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) throw new UsageError(`--max-warnings ${flags.maxWarnings}: write a whole number, 0 or more`);
  const output = outputTo(flags, ctx);
  if (flags.json && flags.format && flags.format !== 'json') throw new UsageError(`--json and --format ${flags.format} ask for two formats; pick one`);
  if (flags.untrusted && flags.preset) throw new UsageError('--untrusted holds the specs to every rule; --preset is for your own specs');
  const format = flags.json ? 'json' : (flags.format ?? 'stylish');
  const quiet = format !== 'stylish';
  // Playwright's config loads in a child process, meanwhile this one reads the specs, loads the compiler and the rules.
  const playwrightRead = await startPlaywrightRead(flags, ctx);
  let files: string[];
  try {
    // In a folder, the config decides which files are specs, as `npx playwright test` does.
    const config = namesAFolder(paths, ctx.cwd) ? await playwrightRead.read : undefined;
    files = collectSpecFiles(paths, ctx.cwd, config && (await import('../project/playwright.ts')).isTestFileOf(config));
  } catch (error) {
    if (error instanceof MissingPathError) throw new UsageError(error.message);
    throw error;
  }
  if (files.length === 0) {
    // A configuration that does not load is the more useful message of the two.
    await (await import('./validate-project.ts')).checkedProject(flags, ctx, playwrightRead.read);
    throw new UsageError(`no spec files under ${paths.join(', ')} (the Playwright config's testMatch, or *.spec.ts, *.test.ts without one)`);
  }
  const specs = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const cache = flags.cache ? openCache(flags, ctx) : undefined;
  const cached = cache && !flags.fix ? specs.map((spec) => cache.lookup(spec.file, spec.text)) : [];

  // Every file unchanged, and nothing to print that needs the rules: no compiler or project is loaded.
  if (cache && format !== 'sarif' && cached.length === specs.length && cached.every((r) => r !== undefined)) {
    const folded = withMissingPackagesFolded(cached, ctx.cwd);
    const warnings = [...cache.warnings, ...folded.warnings];
    printWarnings(ctx, warnings);
    print(format, shown({ ...validateReport(folded.results, ctx.cwd), ...withWarnings(warnings) }, flags), ctx, output, maxWarnings);
    return;
  }

  // Playwright's config loads in a child process, meanwhile this one loads the compiler and the rules.
  const playwright = playwrightRead.read;
  const fresh = specs.filter((_, i) => cached[i] === undefined);
  const progress = createProgress(ctx, quiet);
  progress.start(`Validating ${fresh.length} file${fresh.length === 1 ? '' : 's'}${fresh.length < specs.length ? ` (${specs.length - fresh.length} unchanged)` : ''}`);
  const { checkedProject } = await import('./validate-project.ts');
  const { validator, config, warnings, results: checking, typeCheckReads } = await checkedProject(flags, ctx, playwright, flags.fix ? [] : fresh);
  const checked = flags.fix ? fresh.map((spec) => fixFile(validator, spec, ctx, quiet)) : await checking;
  progress.stop();
  if (cache) {
    const typeReads = await typeCheckReads;
    for (const result of checked) cache.store(result, [...validator.projectImports(result.file, result.text), ...(typeReads.get(result.file) ?? [])]);
    cache.save(warnings);
  }
  const byFile = new Map(checked.map((result) => [result.file, result]));
  const folded = withMissingPackagesFolded(specs.map((spec, i) => cached[i] ?? byFile.get(spec.file)!), ctx.cwd);
  const allWarnings = [...warnings, ...folded.warnings];
  printWarnings(ctx, allWarnings);
  const report = shown({ ...validateReport(folded.results, ctx.cwd), ...withWarnings(allWarnings) }, flags);
  if (format === 'sarif') {
    const { sarifReport } = await import('../validate/sarif.ts');
    output(`${JSON.stringify(sarifReport(report, config, { cwd: ctx.cwd }), null, 2)}\n`);
    ctx.exitCode = exitCodeWithin(report, maxWarnings, ctx);
    return;
  }
  print(format, report, ctx, output, maxWarnings);
}

function print(format: 'stylish' | 'json', report: ValidateReport, ctx: CliContext, output: Output, maxWarnings: number | undefined): void {
  output(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatStylish(report, output.color));
  ctx.exitCode = exitCodeWithin(report, maxWarnings, ctx);
}

/** Where the report goes: stdout, or with -o a file (written whole: a temporary file, then renamed). */
type Output = ((text: string) => void) & { color: boolean };

function outputTo(flags: ValidateFlags, ctx: CliContext): Output {
  if (!flags.outputFile) return Object.assign((text: string) => void ctx.stdout.write(text), { color: ctx.stdout.isTTY === true });
  const file = path.resolve(ctx.cwd, flags.outputFile);
  return Object.assign((text: string) => writeFileAtomic(file, text), { color: false });
}

/** --quiet: errors only, as eslint reports them. */
function shown<T extends ValidateReport>(report: T, flags: ValidateFlags): T {
  if (!flags.quiet) return report;
  const files = report.files.map((file) => ({ ...file, issues: file.issues.filter((issue) => issue.severity === 'error') }));
  return { ...report, files, summary: { ...report.summary, warnings: 0 } };
}

/** validateExitCode, and 1 when there are more warnings than --max-warnings allows (said on stderr, as eslint says it). */
function exitCodeWithin(report: ValidateReport, maxWarnings: number | undefined, ctx: CliContext): number {
  const code = validateExitCode(report);
  if (code !== 0 || maxWarnings === undefined || report.summary.warnings <= maxWarnings) return code;
  ctx.stderr.write(`scribe: too many warnings (${report.summary.warnings}; --max-warnings ${maxWarnings})\n`);
  return 1;
}

/** The project's Playwright config read, started (a rejection is reported where it is awaited). */
async function startPlaywrightRead(flags: PlaywrightFlags, ctx: CliContext): Promise<{ read: Promise<PlaywrightProject | undefined> }> {
  const read = (await import('../project/playwright.ts')).readProjectPlaywright(ctx.cwd, ctx.env, playwrightChoice(flags));
  read.catch(() => undefined);
  return { read };
}

function withWarnings(warnings: readonly string[]): { warnings?: string[] } {
  return warnings.length > 0 ? { warnings: [...warnings] } : {};
}

/**
 * The cache for these options. Its key covers what decides the findings besides each file: Scribe's
 * version, the files the rule configuration comes from, and the options that change what is checked.
 */
function openCache(flags: ValidateFlags, ctx: CliContext): ValidationCache {
  const projectAgents = path.join(ctx.cwd, 'agents');
  // Every agents/*.yaml: critic.yaml holds the rules, and the others the warnings a run reports (deprecated keys).
  const agentsFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort().map((name) => path.join(dir, name)) : []);
  const configFiles = [
    path.join(PACKAGE_ROOT, 'package.json'),
    ...agentsFiles(BUNDLED_AGENTS_DIR),
    ...agentsFiles(projectAgents),
    ...(flags.rules ? [path.resolve(ctx.cwd, flags.rules)] : []),
    flags.config ? path.resolve(ctx.cwd, flags.config) : (findPlaywrightConfig(ctx.cwd) ?? path.join(ctx.cwd, 'playwright.config.ts')),
    path.join(ctx.cwd, 'tsconfig.json'),
  ];
  const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  const options = { preset: flags.preset, typeCheck: flags.typeCheck, untrusted: flags.untrusted === true, cwd: ctx.cwd, project: flags.project };
  const location = flags.cacheLocation ? path.resolve(ctx.cwd, flags.cacheLocation) : path.join(statsHome(ctx.env, ctx.cwd), CACHE_FILE);
  return ValidationCache.open(location, cacheKey({ version, configFiles, options }));
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
      for (const fix of result.applied) ctx.stderr.write(`fixed ${name}:${fix.line}  ${fix.rule}  ${printable(fix.before)}\n`);
    }
  }
  if (!quiet) {
    const name = path.relative(ctx.cwd, spec.file) || spec.file;
    for (const fix of result.refused) ctx.stderr.write(`not fixed ${name}:${fix.line}  ${fix.rule}: ${printable(fix.reason)}\n`);
  }
  return result.validation;
}
