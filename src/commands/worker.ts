/** `scribe worker --queue redis://…`: runs the shared queue's jobs in this project checkout until SIGTERM or SIGINT. */
import type { Command } from 'commander';
import { jsonLines } from '../endpoint/log.ts';
import { loadProject } from '../project/context.ts';
import { servingWithWebServer } from './serving.ts';
import { QueueWorker } from '../queue/worker.ts';
import { UsageError, type CliContext } from './context.ts';
import { parseQueueUrl } from './options.ts';

interface WorkerFlags {
  queue?: string;
  concurrency: string;
}

export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run the jobs of `scribe serve --queue` from the shared queue, in this project checkout (logs: JSON lines on stdout)')
    .option('--queue <url>', 'the Redis URL of the queue, e.g. redis://10.0.0.5:6379 (default: agents/server.yaml queue.url)')
    .option('--concurrency <n>', 'jobs this process runs at once (each holds a browser and a type checker)', '1')
    .action((flags: WorkerFlags) => runWorker(flags, ctx));
}

async function runWorker(flags: WorkerFlags, ctx: CliContext): Promise<void> {
  const concurrency = Number(flags.concurrency);
  if (!/^\d+$/.test(flags.concurrency.trim()) || concurrency < 1) throw new UsageError(`--concurrency "${flags.concurrency}": write a whole number from 1`);
  const log = jsonLines(ctx.stdout);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const config = project.agents.server;
  const url = flags.queue === undefined ? config.queue.url : parseQueueUrl(flags.queue);
  if (url === null) throw new UsageError('scribe worker needs a queue: pass --queue redis://host:port or set queue.url in agents/server.yaml');
  for (const warning of project.warnings) log({ level: 'warn', msg: warning });
  await servingWithWebServer(project, (note) => log({ level: 'info', msg: note }), async () => {
    const worker = new QueueWorker({ url, cwd: ctx.cwd, env: ctx.env, config, project, concurrency, log });
    const running = worker.run();
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    log({ level: 'info', msg: 'draining', signal, grace_ms: config.shutdown.grace_ms });
    const summary = await worker.drain(config.shutdown.grace_ms);
    await running;
    log({ level: 'info', msg: 'stopped', finished: summary.finished, handed_back: summary.handedBack });
  });
  ctx.exitCode = 0;
}
