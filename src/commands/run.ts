import { statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import type { RunnerReport } from '../contracts.ts';
import { runSpec } from '../agents/runner.ts';
import { loadProject, runTarget, withWebServer } from '../project/context.ts';
import { UsageError, type CliContext } from './context.ts';
import { createProgress } from './progress.ts';

interface RunFlags {
  url?: string;
  json?: boolean;
}

export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run a spec with Playwright against the app and say whether it passed, and if not whose fault it is')
    .argument('<spec>', 'the spec file')
    .option('--url <url>', "the app under test (default: BASE_URL, else the Playwright config's use.baseURL)")
    .option('--json', 'print the runner report as one JSON document')
    .action((spec: string, flags: RunFlags) => runCommand(spec, flags, ctx));
}

async function runCommand(spec: string, flags: RunFlags, ctx: CliContext): Promise<void> {
  if (!isFile(path.resolve(ctx.cwd, spec))) throw new UsageError(`no such spec file: ${spec}`);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const url = appUrl(flags.url ?? project.baseURL);
  for (const warning of project.warnings) ctx.stderr.write(`scribe: warning: ${warning}\n`);

  const progress = createProgress(ctx, flags.json === true);
  progress.start(`Running ${spec} against ${url}`);
  const report = await withWebServer(project, (note) => progress.info(note), () => runSpec({ specPath: spec, baseURL: url, cwd: ctx.cwd, env: ctx.env, ...runTarget(project) }));
  const summary = `${spec}: ${report.status === 'pass' ? 'passed' : `${report.status} (${report.classification})`} in ${seconds(report.duration_ms)}`;
  if (report.status === 'pass') progress.succeed(summary);
  else progress.fail(summary);

  ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatRunReport(report, spec, ctx));
  ctx.exitCode = report.status === 'pass' ? 0 : 1;
}

function appUrl(value: string | undefined): string {
  const url = value?.trim();
  if (!url) throw new UsageError("no app URL: pass --url URL, set BASE_URL, or set use.baseURL in the Playwright config");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`the app URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the app URL must be http(s): ${url}`);
  return url;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Status and class, the error at its line, then what there is to look at. */
export function formatRunReport(report: RunnerReport, spec: string, ctx: CliContext): string {
  const c = pc.createColors(ctx.stdout.isTTY === true);
  const lines: string[] = [];
  const where = report.error_line === null ? spec : `${spec}:${report.error_line}`;
  if (report.status === 'pass') {
    lines.push(`${c.green(c.bold('PASS'))}  ${spec}  ${c.dim(seconds(report.duration_ms))}`);
  } else {
    lines.push(`${c.red(c.bold(report.status.toUpperCase()))}  ${where}  ${c.yellow(report.classification)}  ${c.dim(seconds(report.duration_ms))}`);
    if (report.error_message) lines.push('', ...indent(report.error_message));
  }
  const relative = (file: string) => path.relative(ctx.cwd, file) || file;
  if (report.screenshots.length > 0) lines.push('', c.bold('Screenshots'), ...report.screenshots.map((file) => `  ${relative(file)}`));
  if (report.console_errors.length > 0) lines.push('', c.bold('Browser console errors'), ...report.console_errors.flatMap(indent));
  return `${lines.join('\n')}\n`;
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => (line.trim() ? `  ${line}` : ''));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
