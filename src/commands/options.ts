/**
 * Options more than one command takes, each defined once (after vitest's one table of CLI options): the
 * Playwright config and project, as `npx playwright test` takes them, and the generate request's fields,
 * made from the request contract (workflow/request-contract.ts) so `generate --help` says what the HTTP
 * and MCP schemas say.
 */
import { Option, type Command } from 'commander';
import { isRedisUrl } from '../config/server.ts';
import type { PlaywrightChoice } from '../project/playwright.ts';
import { CLI_OPTION_NAMES, REQUEST_FIELD_DESCRIPTIONS, requestFields, type RequestField } from '../workflow/request-contract.ts';
import { UsageError } from './context.ts';

export interface PlaywrightFlags {
  config?: string;
  project?: string;
}

/** `-c/--config <file>` and `--project <name>`, on every command that reads the Playwright config. */
export function withPlaywrightOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', "the Playwright config (default: playwright.config.{ts,js,mts,mjs,cts,cjs} of the working directory)")
    .option('--project <name>', 'the Playwright project specs are written for and run in (default: the first no other project depends on)');
}

export function playwrightChoice(flags: PlaywrightFlags): PlaywrightChoice {
  return { ...(flags.config ? { configFile: flags.config } : {}), ...(flags.project ? { project: flags.project } : {}) };
}

/** The request's fields as `generate` options (the description is its argument); a field that defaults to true is `--no-<name>`. */
export const REQUEST_OPTION_FIELDS = ['feature', 'outputPath', 'url', 'complexity', 'provider', 'run', 'force'] as const satisfies readonly RequestField[];

const TRUE_BY_DEFAULT: ReadonlySet<RequestField> = new Set(['run']);

/** The CLI flag of a request field: `--out` for outputPath, else its name in kebab case. */
export function requestFlag(field: RequestField): string {
  return `--${CLI_OPTION_NAMES[field] ?? field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function withRequestOptions(command: Command): Command {
  // The limits do not change the options' shape: any will do to read the field types.
  const fields = requestFields({ maxDescriptionChars: 1, maxFieldChars: 1 });
  for (const field of REQUEST_OPTION_FIELDS) {
    const flag = requestFlag(field);
    const description = REQUEST_FIELD_DESCRIPTIONS[field];
    const type = fields[field].unwrap();
    if (type.type === 'boolean') command.addOption(new Option(TRUE_BY_DEFAULT.has(field) ? flag.replace('--', '--no-') : flag, description));
    else if (type.type === 'enum') command.addOption(new Option(`${flag} <${CLI_OPTION_NAMES[field] ?? field}>`, description).choices(type.options.map(String)));
    else command.addOption(new Option(`${flag} <${CLI_OPTION_NAMES[field] ?? field}>`, description));
  }
  return command;
}

/** The request's fields from the parsed flags, by the contract's names; a problem names the flag. */
export function requestFromFlags(description: string, flags: Record<string, unknown>): Record<string, unknown> {
  const request: Record<string, unknown> = { description };
  for (const field of REQUEST_OPTION_FIELDS) {
    const key = (CLI_OPTION_NAMES[field] ?? field).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (flags[key] !== undefined) request[field] = flags[key];
  }
  return request;
}

/** A contract problem as the CLI says it: by the flag (the description is the argument). */
export function flagProblem(problem: { field: string; message: string }): UsageError {
  const where = problem.field === 'description' ? 'the description' : (REQUEST_OPTION_FIELDS as readonly string[]).includes(problem.field) ? requestFlag(problem.field as RequestField) : problem.field;
  return new UsageError(`${where}: ${problem.message}`);
}

/** Playwright test flags `scribe run` passes through as they are (Playwright's words and meanings). */
const PASS_THROUGH: ReadonlyArray<{ flags: string; key: string; arg: string; description: string }> = [
  { flags: '-g, --grep <regex>', key: 'grep', arg: '--grep', description: 'only the tests whose title matches' },
  { flags: '--grep-invert <regex>', key: 'grepInvert', arg: '--grep-invert', description: 'only the tests whose title does not match' },
  { flags: '--headed', key: 'headed', arg: '--headed', description: 'show the browser' },
  { flags: '--trace <mode>', key: 'trace', arg: '--trace', description: 'record a trace: on, off, on-first-retry, on-all-retries, retain-on-failure, retain-on-first-failure' },
  { flags: '--retries <n>', key: 'retries', arg: '--retries', description: 'retry a failing test this many times' },
  { flags: '--repeat-each <n>', key: 'repeatEach', arg: '--repeat-each', description: 'run each test this many times' },
  { flags: '--timeout <ms>', key: 'timeout', arg: '--timeout', description: "a test's timeout (over agents/runner.yaml's)" },
  { flags: '-x', key: 'x', arg: '-x', description: 'stop after the first failure' },
  { flags: '--max-failures <n>', key: 'maxFailures', arg: '--max-failures', description: 'stop after this many failures' },
];

/** `--reporter`: Playwright's reporters shown besides the JSON report Scribe reads (comma-separated). */
export function withPlaywrightTestFlags(command: Command): Command {
  for (const flag of PASS_THROUGH) command.option(flag.flags, `${flag.description} (passed to Playwright)`);
  return command.option('--reporter <names>', "Playwright reporters to show, comma-separated (list, line, dot, html…; default: Scribe's own summary)");
}

/** The pass-through flags given, as Playwright's command line takes them. */
export function playwrightArgs(flags: Record<string, unknown>): string[] {
  return PASS_THROUGH.flatMap((flag) => {
    const value = flags[flag.key];
    if (value === undefined || value === false) return [];
    return value === true ? [flag.arg] : [flag.arg, value as string];
  });
}

export function reporterNames(flags: { reporter?: string }): string[] {
  return (flags.reporter ?? '').split(',').map((name) => name.trim()).filter(Boolean);
}

/** `--queue <url>` (serve, worker, stats): a redis:// or rediss:// URL naming a host. */
export function parseQueueUrl(text: string): string {
  if (!isRedisUrl(text.trim())) throw new UsageError(`--queue "${text}": write a Redis URL, e.g. redis://127.0.0.1:6379`);
  return text.trim();
}
