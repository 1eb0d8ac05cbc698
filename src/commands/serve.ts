import { isIP } from 'node:net';
import type { Command } from 'commander';
import { jsonLines } from '../endpoint/log.ts';
import { checkServeAddress, ServeSetupError, startServer, stopOnSignals } from '../server.ts';
import { loadProject } from '../project/context.ts';
import { UsageError, type CliContext } from './context.ts';
import { parseQueueUrl } from './options.ts';
import { servingWithWebServer } from './serving.ts';

interface ServeFlags {
  host: string;
  port: string;
  queue?: string;
}

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('the HTTP API for voice routers, chat front ends and CI (logs: JSON lines on stdout)')
    .option('--host <host>', 'the address to listen on; anything but loopback needs SCRIBE_API_TOKEN', '127.0.0.1')
    .option('--port <port>', 'the port to listen on (0: any free port)', '8787')
    .option('--queue <url>', 'put jobs on the shared queue in this Redis (redis://host:port) for `scribe worker` processes to run')
    .action((flags: ServeFlags) => runServe(flags, ctx));
}

async function runServe(flags: ServeFlags, ctx: CliContext): Promise<void> {
  const log = jsonLines(ctx.stdout);
  const address = { host: parseHost(flags.host), port: parsePort(flags.port) };
  const queue = flags.queue === undefined ? undefined : parseQueueUrl(flags.queue);
  // Refused before the app is started for it.
  await asUsageError(() => checkServeAddress(address.host, ctx.env));
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  await servingWithWebServer(project, (note) => log({ level: 'info', msg: note }), async () => {
    const server = await asUsageError(() => startServer({ ...address, cwd: ctx.cwd, env: ctx.env, log, queue, project }));
    await stopOnSignals(server, log);
  });
  ctx.exitCode = 0;
}

/** A server that cannot start as asked (a public address without a token, a port in use) is a usage error: exit 2. */
async function asUsageError<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServeSetupError) throw new UsageError(error.message);
    throw error;
  }
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(port) || port > 65535) throw new UsageError(`--port "${text}": write a number from 0 to 65535`);
  return port;
}

/** An IP address or a host name (letters, digits, dots, dashes); nothing a URL could be smuggled in. */
export function parseHost(text: string): string {
  const host = text.trim().replace(/^\[(.*)\]$/, '$1');
  const hostname = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(host) === 0 && !hostname.test(host)) throw new UsageError(`--host "${text}": write an IP address or a host name, e.g. 127.0.0.1`);
  return host;
}
