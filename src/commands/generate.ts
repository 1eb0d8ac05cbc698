import { randomUUID } from 'node:crypto';
import { Option, type Command } from 'commander';
import type { Complexity } from '../contracts.ts';
import { PROVIDER_NAMES, type ProviderName } from '../llm/provider.ts';
import { loadProject, withWebServer } from '../project/context.ts';
import { StatsLog } from '../stats/log.ts';
import { OneOutcomeSink } from '../stats/outcome.ts';
import { generateSpec, type PipelineResult } from '../workflow/pipeline.ts';
import type { PipelineEvent } from '../contracts.ts';
import { UsageError, type CliContext } from './context.ts';
import { interruptible } from './interrupt.ts';
import { createProgress, type Progress } from './progress.ts';

interface GenerateFlags {
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
  program
    .command('generate')
    .description('write a Playwright spec from a plain-language request, checked against agents/critic.yaml')
    .argument('[description]', 'what the test should do, in plain language (or --plan)')
    .option('--feature <name>', 'the feature it belongs to (default: from the description)')
    .option('--out <path>', "where to write the spec (default: <testDir>/generated/<feature>/<request>.spec.ts of the Playwright config, else generated-tests/<feature>/…)")
    .option('--url <url>', "the page to ground the spec in (default: BASE_URL, else the Playwright config's use.baseURL)")
    .addOption(new Option('--complexity <level>', 'picks the model (agents/scribe.yaml)').choices(['easy', 'medium', 'hard']))
    .addOption(new Option('--provider <name>', 'the model provider (default: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)').choices([...PROVIDER_NAMES]))
    .option('--no-run', 'stop before running the spec')
    .option('--force', 'overwrite an existing spec')
    .option('--json', 'print one JSON document')
    .option('--plan <file>', 'generate every scenario of a plan (scribe plan), resuming where an earlier run stopped')
    .option('--workers <n>', 'with --plan: generations at once (default: the number of cores)')
    .action((description: string | undefined, flags: GenerateFlags) => (flags.plan !== undefined ? runPlanBatch(description, flags, ctx) : runGenerate(description ?? '', flags, ctx)));
}

async function runGenerate(description: string, flags: GenerateFlags, ctx: CliContext): Promise<void> {
  if (!description.trim()) throw new UsageError('the description is empty; say what the test should do');
  const quiet = flags.json === true;
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, provider: flags.provider });
  const progress = createProgress(ctx, quiet);
  const request = { description, feature: flags.feature, outputPath: flags.out, url: flags.url, complexity: flags.complexity, provider: flags.provider, run: flags.run, force: flags.force };
  // Shared with the signal handler: a generation stopped by Ctrl-C or SIGTERM still ends with one outcome.
  const stats = new OneOutcomeSink(StatsLog.at(ctx.env, ctx.cwd));
  const generation = randomUUID();
  const generate = (signal: AbortSignal) => generateSpec(request, { cwd: ctx.cwd, env: ctx.env, project, stats, generation, signal, onEvent: (event) => show(event, progress) });
  const needsApp = (flags.url ?? project.baseURL) !== undefined;
  let result: PipelineResult;
  try {
    result = await interruptible((signal) => (needsApp ? withWebServer(project, (note) => progress.info(note), () => generate(signal)) : generate(signal)), {
      onSignal: (signal) => stats.giveUp(generation, 'interrupted', `stopped by ${signal}`),
      graceMs: project.agents.runner.timeouts.kill_grace_ms,
    });
  } finally {
    progress.stop();
  }
  const { document, exitCode } = result;
  if (quiet) ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else if (!document.success) ctx.stderr.write(`scribe: ${document.error}\n`);
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
