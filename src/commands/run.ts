import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { printable } from '../util/terminal.ts';
import type { Issue, RunnerReport } from '../contracts.ts';
import { runGated, type GatedRun } from '../agents/contained-run.ts';
import { runSpec } from '../agents/runner.ts';
import { loadProject, runTarget } from '../project/context.ts';
import { safetyGate } from '../validate/gate.ts';
import { settleUrl } from '../workflow/request.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { playwrightArgs, playwrightChoice, reporterNames, withPlaywrightOptions, withPlaywrightTestFlags, type PlaywrightFlags } from './options.ts';
import { createProgress } from './progress.ts';
import { withWebServerInterruptibly } from './serving.ts';

interface RunFlags extends PlaywrightFlags {
  url?: string;
  json?: boolean;
  untrusted?: boolean;
  reporter?: string;
}

export function registerRun(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('run a spec with Playwright against the app and say whether it passed, and if not whose fault it is')
    .argument('<spec>', 'the spec file')
    .option('--url <url>', "the app under test: an http(s) URL, or a path resolved against the base URL (default: BASE_URL, else the Playwright config's use.baseURL)")
    .option('--json', 'print the runner report as one JSON document')
    .option('--untrusted', 'the spec is model-written: refuse it unless it passes the allow-list gate, and run it contained');
  withPlaywrightTestFlags(withPlaywrightOptions(command)).action((spec: string, flags: RunFlags) => runCommand(spec, flags, ctx));
}

async function runCommand(spec: string, flags: RunFlags, ctx: CliContext): Promise<void> {
  const file = path.resolve(ctx.cwd, spec);
  if (!isFile(file)) throw new UsageError(`no such spec file: ${spec}`);
  const passThrough = playwrightArgs(flags as unknown as Record<string, unknown>);
  const reporters = reporterNames(flags);
  if (flags.untrusted && (passThrough.length > 0 || reporters.length > 0)) throw new UsageError('--untrusted runs contained, as the pipeline runs a candidate: Playwright flags and --reporter pass through to trusted runs only');
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, playwrightChoice: playwrightChoice(flags) });
  const url = appUrl(flags.url, project.baseURL);
  printWarnings(ctx, project.warnings);
  const progress = createProgress(ctx, flags.json === true);
  progress.start(`Running ${spec} against ${url}`);
  // Untrusted, the spec runs only past the safety gate, contained (scrubbed environment, permission model, sandbox),
  // and only the gated text; Playwright's flags and reporters pass through to a trusted run only. A Ctrl-C stops
  // the run, then the app (the config's webServer, in a process group of its own), and exits 130.
  const run = (signal: AbortSignal): Promise<GatedRun> =>
    flags.untrusted
      ? runGated(safetyGate(project.agents.critic, { projectRoot: project.cwd, typeCheck: true, tsconfig: project.tsconfig }), file, readFileSync(file, 'utf8'), {
          baseURL: url,
          cwd: ctx.cwd,
          env: project.env,
          signal,
          ...runTarget(project),
        })
      : runSpec({ specPath: spec, baseURL: url, cwd: ctx.cwd, env: project.env, signal, ...runTarget(project), playwrightArgs: passThrough, reporters }).then((report) => ({ ran: true, report }));
  let gated: GatedRun;
  try {
    gated = await withWebServerInterruptibly(project, (note) => progress.info(note), run);
  } catch (error) {
    progress.stop();
    throw error;
  }
  if (!gated.ran) {
    progress.stop();
    ctx.stdout.write(flags.json ? `${JSON.stringify(refusal(gated.issues), null, 2)}\n` : formatRefusal(gated.issues, spec, ctx));
    ctx.exitCode = 1;
    return;
  }
  const { report } = gated;
  const summary = `${spec}: ${report.status === 'pass' ? 'passed' : `${report.status} (${report.classification})`} in ${seconds(report.duration_ms)}`;
  if (report.status === 'pass') progress.succeed(summary);
  else progress.fail(summary);

  // The reporters asked for print what they print (Playwright's output), then Scribe's summary.
  if (reporters.length > 0 && !flags.json && report.segment) ctx.stdout.write(`${report.segment.content.trimEnd()}\n\n`);
  ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatRunReport(report, spec, ctx));
  ctx.exitCode = report.status === 'pass' ? 0 : 1;
}

/** The `run --json` document of a spec the gate refused: never run, the test's own fault. */
function refusal(issues: Issue[]): RunnerReport & { issues: Issue[] } {
  const first = issues[0]!;
  return {
    status: 'error',
    classification: 'test_bug',
    duration_ms: 0,
    error_message: `refused by the allow-list gate (${issues.length} issue${issues.length === 1 ? '' : 's'}), not run: [${first.rule}] ${first.message}`,
    error_line: first.line,
    screenshots: [],
    console_errors: [],
    issues,
  };
}

function formatRefusal(issues: Issue[], spec: string, ctx: CliContext): string {
  const c = pc.createColors(ctx.stdout.isTTY === true);
  const lines = [`${c.red(c.bold('REFUSED'))}  ${spec}  ${c.yellow('not run: the allow-list gate for untrusted code found')}`, ''];
  for (const issue of issues) lines.push(`  ${spec}:${issue.line}:${issue.column}  ${c.red(issue.rule)}  ${printable(issue.message)}`);
  return `${lines.join('\n')}\n`;
}

/** The app URL, checked as every surface checks it (workflow/request.ts). */
export function appUrl(url: string | undefined, baseURL: string | undefined): string {
  const settled = settleUrl(url, baseURL);
  if (!settled.ok) throw new UsageError(`--url: ${settled.error}`);
  if (settled.value === undefined) throw new UsageError('no app URL: pass --url URL, set BASE_URL, or set use.baseURL in the Playwright config');
  return settled.value;
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
  }
  for (const test of report.tests ?? []) {
    const mark = test.status === 'passed' ? c.green('✓') : test.status === 'skipped' || test.status === 'not run' ? c.dim('-') : c.red('✘');
    lines.push(`  ${mark} ${spec}:${test.line}  ${test.title}  ${c.dim(test.status === 'passed' ? seconds(test.duration_ms) : `${test.status} ${seconds(test.duration_ms)}`)}`);
  }
  if (report.status !== 'pass' && report.error_message) lines.push('', ...indent(report.error_message));
  if (report.containment?.os_sandbox_unavailable) lines.push('', c.yellow(`Ran without the OS sandbox: ${report.containment.os_sandbox_unavailable}`));
  const relative = (file: string) => path.relative(ctx.cwd, file) || file;
  if (report.screenshots.length > 0) lines.push('', c.bold('Screenshots'), ...report.screenshots.map((file) => `  ${relative(file)}`));
  if (report.console_errors.length > 0) lines.push('', c.bold('Browser console errors'), ...report.console_errors.flatMap(indent));
  return `${lines.join('\n')}\n`;
}

function indent(text: string): string[] {
  return printable(text).split('\n').map((line) => (line.trim() ? `  ${line}` : ''));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
