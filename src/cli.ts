/** The command line: parse, call the library, print. Exit codes: 0 success, 1 the work failed, 2 usage or config. */
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config/errors.ts';
import { WebServerError } from './project/web-server.ts';
import { INTERNAL_ERROR_EXIT, UsageError, type CliContext } from './commands/context.ts';
import { Interrupted } from './commands/interrupt.ts';
import { environmentHelp } from './commands/help.ts';
import { PACKAGE_ROOT } from './config/paths.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Each command's module, loaded only when that command runs (all of them for the overall help): a quick
 * command such as `validate` does not pay for loading the browser, model and MCP libraries it never uses.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  validate: async () => (await import('./commands/validate.ts')).registerValidate,
  generate: async () => (await import('./commands/generate.ts')).registerGenerate,
  eval: async () => (await import('./commands/eval.ts')).registerEval,
  stats: async () => (await import('./commands/stats.ts')).registerStats,
  run: async () => (await import('./commands/run.ts')).registerRun,
  heal: async () => (await import('./commands/heal.ts')).registerHeal,
  plan: async () => (await import('./commands/plan.ts')).registerPlan,
  report: async () => (await import('./commands/report.ts')).registerReport,
  serve: async () => (await import('./commands/serve.ts')).registerServe,
  worker: async () => (await import('./commands/worker.ts')).registerWorker,
  demo: async () => (await import('./commands/demo.ts')).registerDemo,
  init: async () => (await import('./commands/init.ts')).registerInit,
  mcp: async () => (await import('./commands/mcp.ts')).registerMcp,
};

export async function main(argv: string[], io: Partial<CliContext> = {}): Promise<number> {
  const ctx: CliContext = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), exitCode: 0, ...io };
  const program = new Command('scribe')
    .description('Writes Playwright tests from plain language, and checks them before handing them over.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) })
    .version(packageVersion(), '-V, --version', 'print the version')
    .addHelpText('after', environmentHelp())
    .showHelpAfterError('(run scribe --help for usage)');

  try {
    for (const register of await Promise.all(commandsFor(argv).map((name) => COMMANDS[name]!()))) register(program, ctx);
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (error) {
    return handleError(error, ctx);
  }
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The command the arguments name, or every command (for help, or to report an unknown one). */
function commandsFor(argv: string[]): string[] {
  const named = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return named !== undefined && named in COMMANDS ? [named] : Object.keys(COMMANDS);
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
