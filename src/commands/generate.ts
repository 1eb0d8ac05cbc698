import { randomUUID } from 'node:crypto';
import type { Browser } from '@playwright/test';
import type { Command } from 'commander';
import type { Complexity } from '../contracts.ts';
import type { ProviderName } from '../llm/provider.ts';
import { loadProject, withWebServer, type ProjectContext } from '../project/context.ts';
import { StatsLog } from '../stats/log.ts';
import { OneOutcomeSink } from '../stats/outcome.ts';
import { generateSpec, launchingBrowser, type PipelineResult } from '../workflow/pipeline.ts';
import type { PipelineEvent } from '../contracts.ts';
import { progressReporter, withoutRunError } from '../workflow/progress-reporter.ts';
import { parseRequest, REQUEST_FIELD_DESCRIPTIONS } from '../workflow/request-contract.ts';
import { resolveRequest } from '../workflow/request.ts';
import { UsageError, type CliContext } from './context.ts';
import { flagProblem, playwrightChoice, requestFromFlags, withPlaywrightOptions, withRequestOptions, type PlaywrightFlags } from './options.ts';
import { interruptible } from './interrupt.ts';
import { createProgress, type Progress } from './progress.ts';
import type { Setup } from '../util/lifetimes.ts';
import { printable } from '../util/terminal.ts';

interface GenerateFlags extends PlaywrightFlags {
  feature?: string;
  out?: string;
  url?: string;
  complexity?: Complexity;
  provider?: ProviderName;
  run: boolean;
  force?: boolean;
  json?: boolean;
  plan?: string;
  workers?: string;
}

export function registerGenerate(program: Command, ctx: CliContext): void {
  const command = program
    .command('generate')
    .description('write a Playwright spec from a plain-language request, checked against agents/critic.yaml')
    .argument('[description]', REQUEST_FIELD_DESCRIPTIONS.description);
  withPlaywrightOptions(withRequestOptions(command))
    .option('--json', 'print one JSON document')
    .option('--plan <file>', 'generate every scenario of a plan (scribe plan), resuming where an earlier run stopped')
    .option('--workers <n>', 'with --plan: generations at once (default: the number of cores)')
    .action((description: string | undefined, flags: GenerateFlags) => (flags.plan !== undefined ? runPlanBatch(description, flags, ctx) : runGenerate(description ?? '', flags, ctx)));
}

async function runGenerate(description: string, flags: GenerateFlags, ctx: CliContext): Promise<void> {
  // The project's Playwright config is read in a child process, started first; exploring the URL needs Scribe's
  // browser, launched meanwhile (loading Playwright takes this thread a while, which the child's work overlaps).
  const loading = loadProject({ cwd: ctx.cwd, env: ctx.env, provider: flags.provider, playwrightChoice: playwrightChoice(flags) });
  // Read below; a failure while the browser launches must not count as unhandled meanwhile.
  loading.catch(() => undefined);
  const browser = flags.url ? launchingBrowser(ctx.env) : undefined;
  try {
    await generateCommand(description, flags, ctx, await loading, browser?.setup);
  } finally {
    await browser?.close();
  }
}

async function generateCommand(description: string, flags: GenerateFlags, ctx: CliContext, project: ProjectContext, browser: Setup<Browser> | undefined): Promise<void> {
  const quiet = flags.json === true;
  // The request as every surface checks it (the contract's limits), then settled: a bad URL or spec path is a
  // usage error here, before the app is started and anything is explored or written.
  const { http } = project.agents.server;
  const parsed = parseRequest(requestFromFlags(description, { ...flags }), { maxDescriptionChars: http.max_description_chars, maxFieldChars: http.max_field_chars });
  if (!parsed.ok) throw flagProblem(parsed.problems[0]!);
  const request = parsed.value;
  const settled = resolveRequest(request, project);
  if (!settled.ok) throw settled.field ? flagProblem({ field: settled.field, message: settled.error }) : new UsageError(settled.error);
  const progress = createProgress(ctx, quiet);
  // Shared with the signal handler: a generation stopped by Ctrl-C or SIGTERM still ends with one outcome.
  const stats = new OneOutcomeSink(StatsLog.at(ctx.env, ctx.cwd));
  const generation = randomUUID();
  const generate = (signal: AbortSignal) => generateSpec(request, { cwd: ctx.cwd, env: ctx.env, project, stats, generation, signal, reporters: [progressReporter(ctx.cwd, (event) => show(event, progress), 'the terminal')], ...(browser ? { browser } : {}) });
  const needsApp = settled.value.url !== undefined;
  let result: PipelineResult;
  try {
    result = await interruptible((signal) => (needsApp ? withWebServer(project, (note) => progress.info(note), () => generate(signal), signal) : generate(signal)), {
      onSignal: (signal) => stats.giveUp(generation, 'interrupted', `stopped by ${signal}`),
      graceMs: project.agents.runner.timeouts.kill_grace_ms,
    });
  } finally {
    progress.stop();
  }
  const { document, exitCode } = result;
  if (quiet) ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  // The progress lines above showed the run's error once; the last line says what became of the spec.
  else if (!document.success) ctx.stderr.write(`scribe: ${printable(withoutRunError(document.error ?? '', document.runner?.error_message))}\n`);
  else ctx.stdout.write(`${document.testPath}\n`);
  ctx.exitCode = exitCode;
}

async function runPlanBatch(description: string | undefined, flags: GenerateFlags, ctx: CliContext): Promise<void> {
  if (description !== undefined) throw new UsageError('give a description or --plan, not both');
  const { runBatch } = await import('./batch.ts');
  await runBatch({ plan: flags.plan!, workers: flags.workers, provider: flags.provider, run: flags.run, json: flags.json === true }, ctx);
}

function show(event: PipelineEvent, progress: Progress): void {
  if (event.status === 'started') progress.start(event.message);
  else if (event.status === 'done') progress.succeed(event.message);
  else if (event.status === 'failed') progress.fail(event.message);
  else progress.info(event.message);
}
