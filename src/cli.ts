/** The command line: parse, call the library, print. Exit codes: 0 success, 1 the work failed, 2 usage or config. */
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config/load.ts';
import { WebServerError } from './project/web-server.ts';
import { INTERNAL_ERROR_EXIT, UsageError, type CliContext } from './commands/context.ts';
import { Interrupted } from './commands/interrupt.ts';
import { registerValidate } from './commands/validate.ts';
import { registerEval } from './commands/eval.ts';
import { registerGenerate } from './commands/generate.ts';
import { registerStats } from './commands/stats.ts';
import { registerRun } from './commands/run.ts';
import { registerServe } from './commands/serve.ts';
import { registerDemo } from './commands/demo.ts';
import { registerInit } from './commands/init.ts';
import { registerMcp } from './commands/mcp.ts';

export async function main(argv: string[], io: Partial<CliContext> = {}): Promise<number> {
  const ctx: CliContext = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), exitCode: 0, ...io };
  const program = new Command('scribe')
    .description('Writes Playwright tests from plain language, and checks them before handing them over.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) })
    .showHelpAfterError('(run scribe --help for usage)');
  registerValidate(program, ctx);
  registerGenerate(program, ctx);
  registerEval(program, ctx);
  registerStats(program, ctx);
  registerRun(program, ctx);
  registerServe(program, ctx);
  registerDemo(program, ctx);
  registerInit(program, ctx);
  registerMcp(program, ctx);

  try {
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (error) {
    return handleError(error, ctx);
  }
}

function handleError(error: unknown, ctx: CliContext): number {
  if (error instanceof CommanderError) {
    // Help and version are not failures; every other commander error is a usage error.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
  }
  if (error instanceof ConfigError) {
    ctx.stderr.write(`scribe: configuration error\n${error.message}\n`);
    return 2;
  }
  if (error instanceof WebServerError) {
    ctx.stderr.write(`scribe: the app could not be started: ${error.message}\n`);
    return 1;
  }
  if (error instanceof Interrupted) {
    ctx.stderr.write(`scribe: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof UsageError) {
    ctx.stderr.write(`scribe: ${error.message}\n`);
    return 2;
  }
  ctx.stderr.write(`scribe: internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return INTERNAL_ERROR_EXIT;
}
