import { once } from 'node:events';
import { Option, type Command } from 'commander';
import { jsonLines } from '../endpoint/log.ts';
import { PROVIDER_NAMES, type ProviderName } from '../llm/provider.ts';
import { McpSetupError, serveHttp, serveStdio } from '../mcp/server.ts';
import { createMcpContext } from '../mcp/tools.ts';
import { loadProject } from '../project/context.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { parseHost, parsePort } from './serve.ts';
import { servingWhileWebServerStarts, servingWithWebServer } from './serving.ts';

interface McpFlags {
  port?: string;
  host: string;
  provider?: ProviderName;
}

export function registerMcp(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description('Scribe as an MCP server: stdio by default, Streamable HTTP on /mcp with --port (needs SCRIBE_API_TOKEN off loopback)')
    .option('--port <port>', 'serve Streamable HTTP on this port instead of stdio (0: any free port; logs: JSON lines on stdout)')
    .option('--host <host>', 'the address to listen on with --port', '127.0.0.1')
    .addOption(
      new Option('--provider <name>', "the model: mcp asks the host's model through sampling (default: the configured model, else the host's, else offline)").choices([...PROVIDER_NAMES]),
    )
    .action((flags: McpFlags) => runMcp(flags, ctx));
}

async function runMcp(flags: McpFlags, ctx: CliContext): Promise<void> {
  const address = flags.port === undefined ? undefined : { host: parseHost(flags.host), port: parsePort(flags.port) };
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  printWarnings(ctx, project.warnings);
  if (address === undefined) {
    // stdout is the protocol's: what the app's start says goes to stderr.
    await servingWhileWebServerStarts(project, (note) => ctx.stderr.write(`scribe: ${note}\n`), (app, stop) => serveStdio(createMcpContext({ project, provider: flags.provider, app }), stop));
    ctx.exitCode = 0;
    return;
  }
  const context = createMcpContext({ project, provider: flags.provider });
  const log = jsonLines(ctx.stdout);
  await servingWithWebServer(project, (note) => log({ level: 'info', msg: note }), async () => {
    let server;
    try {
      server = await serveHttp({ ...address, context, log });
    } catch (error) {
      if (error instanceof McpSetupError) throw new UsageError(error.message);
      throw error;
    }
    const signal = await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
    log({ level: 'info', msg: 'shutting down', signal: String(signal[0] ?? '') });
    await server.stop();
  });
  ctx.exitCode = 0;
}
