import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import type { Issue, RunnerReport } from '../contracts.ts';
import { runSpec, type RunSpecOptions } from '../agents/runner.ts';
import { loadProject, runTarget, withWebServer, type ProjectContext } from '../project/context.ts';
import { Validator } from '../validate/validator.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { createProgress } from './progress.ts';

interface RunFlags {
  url?: string;
  json?: boolean;
  untrusted?: boolean;
}

export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run a spec with Playwright against the app and say whether it passed, and if not whose fault it is')
    .argument('<spec>', 'the spec file')
    .option('--url <url>', "the app under test (default: BASE_URL, else the Playwright config's use.baseURL)")
    .option('--json', 'print the runner report as one JSON document')
    .option('--untrusted', 'the spec is model-written: refuse it unless it passes the allow-list gate, and run it contained')
    .action((spec: string, flags: RunFlags) => runCommand(spec, flags, ctx));
}

async function runCommand(spec: string, flags: RunFlags, ctx: CliContext): Promise<void> {
  if (!isFile(path.resolve(ctx.cwd, spec))) throw new UsageError(`no such spec file: ${spec}`);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const url = appUrl(flags.url ?? project.baseURL);
  printWarnings(ctx, project.warnings);
  if (flags.untrusted) {
    const refused = gateIssues(spec, project);
    if (refused.length > 0) {
      ctx.stdout.write(flags.json ? `${JSON.stringify(refusal(refused), null, 2)}\n` : formatRefusal(refused, spec, ctx));
      ctx.exitCode = 1;
      return;
    }
  }

  const progress = createProgress(ctx, flags.json === true);
  progress.start(`Running ${spec} against ${url}`);
  // `untrusted` asks the Runner for the contained run (scrubbed environment, permission model, sandbox).
  const options: RunSpecOptions = { specPath: spec, baseURL: url, cwd: ctx.cwd, env: ctx.env, ...runTarget(project), untrusted: flags.untrusted === true };
  const report = await withWebServer(project, (note) => progress.info(note), () => runSpec(options));
  const summary = `${spec}: ${report.status === 'pass' ? 'passed' : `${report.status} (${report.classification})`} in ${seconds(report.duration_ms)}`;
  if (report.status === 'pass') progress.succeed(summary);
  else progress.fail(summary);

  ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatRunReport(report, spec, ctx));
  ctx.exitCode = report.status === 'pass' ? 0 : 1;
}

/** The allow-list gate's errors for a spec (its rules alone: style rules do not stop a run). */
function gateIssues(spec: string, project: ProjectContext): Issue[] {
  const critic = project.agents.critic;
  const gate = new Validator({ ...critic, rules: critic.rules.filter((active) => active.rule.untrustedOnly) }, { typeCheck: false }).forUntrustedCode(project.cwd);
  const file = path.resolve(project.cwd, spec);
  return gate.validateText(file, readFileSync(file, 'utf8')).issues.filter((issue) => issue.severity === 'error');
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
  for (const issue of issues) lines.push(`  ${spec}:${issue.line}:${issue.column}  ${c.red(issue.rule)}  ${issue.message}`);
  return `${lines.join('\n')}\n`;
}

export function appUrl(value: string | undefined): string {
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
