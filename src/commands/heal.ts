import type { Command } from 'commander';
import pc from 'picocolors';
import { healSuite, type HealProgress } from '../heal/suite.ts';
import type { HealSuiteResult, SpecHealOutcome } from '../heal/result.ts';
import { loadProject } from '../project/context.ts';
import { StatsLog } from '../stats/log.ts';
import { collectSpecFiles, MissingPathError } from '../validate/files.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { withWebServerInterruptibly } from './serving.ts';
import { createProgress, type Progress } from './progress.ts';
import { appUrl } from './run.ts';

interface HealFlags {
  url?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function registerHeal(program: Command, ctx: CliContext): void {
  program
    .command('heal')
    .description("run your specs under your Playwright config and heal the ones a UI change broke, keeping every assertion (app bugs are reported, not healed)")
    .argument('<paths...>', 'spec files or folders of specs')
    .option('--url <url>', "the app under test (default: BASE_URL, else the Playwright config's use.baseURL)")
    .option('--dry-run', 'print each heal as a diff, write nothing')
    .option('--json', 'print one JSON document')
    .action((paths: string[], flags: HealFlags) => runHeal(paths, flags, ctx));
}

async function runHeal(paths: string[], flags: HealFlags, ctx: CliContext): Promise<void> {
  let files: string[];
  try {
    files = collectSpecFiles(paths, ctx.cwd);
  } catch (error) {
    if (error instanceof MissingPathError) throw new UsageError(error.message);
    throw error;
  }
  if (files.length === 0) throw new UsageError(`no spec files (*.spec.ts, *.test.ts) in ${paths.join(', ')}`);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const baseURL = appUrl(flags.url, project.baseURL);
  if (!flags.json) printWarnings(ctx, project.warnings);
  const progress = createProgress(ctx, flags.json === true);
  const heal = (signal: AbortSignal) => healSuite({ project, files, baseURL, dryRun: flags.dryRun === true, stats: StatsLog.at(ctx.env, ctx.cwd), signal, onProgress: (event) => show(event, progress) });
  let result: HealSuiteResult;
  try {
    // A heal is written atomically, so a stopped suite leaves each spec as it was or healed, never half.
    result = await withWebServerInterruptibly(project, (note) => progress.info(note), heal);
  } finally {
    progress.stop();
  }
  ctx.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatHeal(result, ctx));
  ctx.exitCode = result.success ? 0 : 1;
}

function show(event: HealProgress, progress: Progress): void {
  if (event.type === 'running') progress.start(`running ${event.file}`);
  else if (event.type === 'healing') progress.start(`${event.file}: ${event.classification}, heal ${event.attempt}/${event.maxAttempts}`);
  else if (event.outcome.status === 'passed' || event.outcome.status === 'healed') progress.succeed(`${event.outcome.file}: ${event.outcome.status}`);
  else progress.fail(`${event.outcome.file}: ${event.outcome.status}`);
}

const LABELS: Record<SpecHealOutcome['status'], string> = {
  passed: 'PASS',
  healed: 'HEALED',
  regression: 'REGRESSION?',
  environment: 'ENVIRONMENT',
  not_healed: 'NOT HEALED',
};

/** One line a spec, the diff of each heal, the reasons of each failure, then the counts. */
export function formatHeal(result: HealSuiteResult, ctx: CliContext): string {
  const c = pc.createColors(ctx.stdout.isTTY === true);
  const lines: string[] = [];
  for (const spec of result.specs) {
    const label = LABELS[spec.status];
    const colour = spec.status === 'passed' || spec.status === 'healed' ? c.green : spec.status === 'not_healed' ? c.red : c.yellow;
    const where = spec.error_line !== null && spec.status !== 'passed' ? `${spec.file}:${spec.error_line}` : spec.file;
    const written = spec.status === 'healed' ? (spec.written ? ' (written)' : ' (dry run: not written)') : '';
    lines.push(`${colour(c.bold(label))}  ${where}${written}  ${c.dim(`${(spec.duration_ms / 1000).toFixed(1)} s, ${spec.model_calls} model call${spec.model_calls === 1 ? '' : 's'}`)}`);
    if (spec.status === 'regression') lines.push(`  a possible regression: an assertion on an element that exists failed; the spec is left as it is`);
    if (spec.status !== 'passed' && spec.status !== 'healed' && spec.message) lines.push(...indent(firstLines(spec.message)));
    for (const reason of spec.reasons) lines.push(...indent(`- ${reason}`));
    if (spec.diff && (result.dry_run || spec.status !== 'healed')) lines.push('', ...spec.diff.trimEnd().split('\n').map((line) => `  ${line}`), '');
  }
  const s = result.summary;
  lines.push('', `${s.specs} spec${s.specs === 1 ? '' : 's'}: ${s.passed} passed, ${s.healed} healed, ${s.regression} possible regression${s.regression === 1 ? '' : 's'}, ${s.environment} environment, ${s.not_healed} not healed; ${s.model_calls} model call${s.model_calls === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

function firstLines(text: string): string {
  return text.split('\n').slice(0, 6).join('\n');
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => (line.trim() ? `  ${line}` : ''));
}
