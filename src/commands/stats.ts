import { Option, type Command } from 'commander';
import pc from 'picocolors';
import { GATE_KEYS, readStats, StatsLog, type StatsDocument } from '../stats/index.ts';
import { evaluateGates, STATS_FORMATS, statsJson, statsJunit, statsMarkdown, type Gate, type StatsFormat } from '../stats/format.ts';
import { BackendUnavailable } from '../http/backend.ts';
import { UsageError, type CliContext } from './context.ts';
import { parseQueueUrl } from './options.ts';

interface StatsFlags {
  queue?: string;
  json?: boolean;
  format?: StatsFormat;
  failUnder?: string[];
}

export function registerStats(program: Command, ctx: CliContext): void {
  program
    .command('stats')
    .description('generation statistics from the event log ($SCRIBE_HOME, else .scribe/)')
    .option('--queue <url>', 'the statistics of the shared queue in this Redis (`scribe serve --queue`), not the local event log')
    .option('--json', 'print one JSON document (the same as --format json)')
    .addOption(new Option('--format <format>', 'text for people, json, junit (one testcase per figure; a gate below its minimum fails) or markdown (for $GITHUB_STEP_SUMMARY)').choices([...STATS_FORMATS]))
    .option('--fail-under <key=value...>', `exit 1 when a figure is below the value (a CI gate), e.g. success_rate=0.8`)
    .action((flags: StatsFlags) => runStats(flags, ctx));
}

async function runStats(flags: StatsFlags, ctx: CliContext): Promise<void> {
  if (flags.json && flags.format && flags.format !== 'json') throw new UsageError(`--json and --format ${flags.format} ask for two formats; pick one`);
  const format = flags.json ? 'json' : (flags.format ?? 'text');
  const gates = (flags.failUnder ?? []).map(parseGate);
  const queue = flags.queue === undefined ? undefined : parseQueueUrl(flags.queue);
  let stats: StatsDocument;
  let source: string;
  try {
    if (queue === undefined) {
      stats = readStats(ctx.env, ctx.cwd);
      source = StatsLog.at(ctx.env, ctx.cwd).file;
    } else {
      // The project (its config reader, the compiler its style needs), BullMQ and the Redis client load only to
      // read a queue: a CI gate on the local log does not pay for them.
      const [{ readQueueStats }, { shownUrl }, { loadProject }] = await Promise.all([import('../queue/stats.ts'), import('../queue/connection.ts'), import('../project/context.ts')]);
      stats = await readQueueStats(queue, (await loadProject({ cwd: ctx.cwd, env: ctx.env })).agents.server.queue);
      source = shownUrl(queue);
    }
  } catch (error) {
    if (!(error instanceof BackendUnavailable)) throw error;
    ctx.stderr.write(`scribe: ${error.message}\n`);
    ctx.exitCode = 1;
    return;
  }
  const results = evaluateGates(stats, gates);
  const render: Record<StatsFormat, () => string> = {
    text: () => formatStats(stats, source, ctx.stdout.isTTY === true),
    json: () => statsJson(stats),
    junit: () => statsJunit(stats, results),
    markdown: () => statsMarkdown(stats, results),
  };
  ctx.stdout.write(render[format]());
  const below = results.filter((gate) => !gate.passed);
  for (const gate of below) ctx.stderr.write(`scribe: ${gate.key} is ${gate.value}, below ${gate.minimum}\n`);
  ctx.exitCode = below.length > 0 ? 1 : 0;
}

export function parseGate(text: string): Gate {
  const match = /^([a-z_]+)=(.*)$/.exec(text.trim());
  if (!match) throw new UsageError(`--fail-under "${text}": write KEY=VALUE, e.g. success_rate=0.8`);
  const [, key, value] = match as unknown as [string, string, string];
  if (!GATE_KEYS.includes(key)) throw new UsageError(`--fail-under: unknown key "${key}" (one of ${GATE_KEYS.join(', ')})`);
  const minimum = Number(value);
  if (value.trim() === '' || !Number.isFinite(minimum)) throw new UsageError(`--fail-under ${key}: "${value}" is not a number`);
  return { key, minimum };
}

/** Aligned sections of label and value, for people. */
export function formatStats(stats: StatsDocument, eventsFile: string, color: boolean): string {
  const c = pc.createColors(color);
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const sections: Array<[string, Array<[string, string]>]> = [
    ['Generation', [
      ['generations', `${stats.generations} (${stats.generations_succeeded} succeeded, ${stats.generations_gave_up} gave up)`],
      ['success rate', `${percent(stats.generation_success_rate)} of generations finished (gave-ups included)`],
      ['validation attempts', String(stats.validation_attempts)],
      ['validation failures', String(stats.validation_failures)],
      ['answers passing', `${percent(stats.success_rate)} of validated answers (success_rate)`],
      ['first-attempt pass rate', percent(stats.first_attempt_pass_rate)],
      ['retries used', String(stats.total_retries_used)],
      ['retries per success', stats.avg_retries_per_success.toFixed(2)],
      ['max retries hit', percent(stats.max_retries_hit_rate)],
    ]],
    ['Review and runs', [
      ['critic rejections', `${stats.critic_rejections} of ${stats.critic_verdicts} (${percent(stats.critic_rejection_rate)})`],
      ['runner pass rate', `${percent(stats.runner_pass_rate)} of ${stats.runner_runs} runs`],
      ['failures by kind', Object.entries(stats.runner_failures_by_classification).map(([k, v]) => `${k} ${v}`).join(', ')],
      ['without OS sandbox', `${stats.runner_runs_without_os_sandbox} contained runs`],
      ['heals', `${stats.heal_successes} of ${stats.heal_attempts} attempts healed, ${stats.weakening_heals_refused} weakening refused`],
    ]],
    ['Model', [
      ['calls', `${stats.llm_calls} (${stats.llm_call_failures} failed, ${stats.llm_http_attempts} HTTP attempts)`],
      ['tokens', `${stats.tokens.total} (prompt ${stats.tokens.prompt}, completion ${stats.tokens.completion})`],
    ]],
    ['Errors by rule (left after autofix)', ruleRows(stats.issues_by_rule)],
    ['Autofixes by rule', ruleRows(stats.autofixes_by_rule)],
  ];
  const width = Math.max(...sections.flatMap(([, rows]) => rows.map(([label]) => label.length)));
  const out = [c.dim(`events: ${eventsFile}`)];
  for (const [title, rows] of sections) {
    out.push('', c.bold(title));
    if (rows.length === 0) out.push(c.dim('  none'));
    for (const [label, value] of rows) out.push(`  ${label.padEnd(width)}  ${value}`);
  }
  return `${out.join('\n')}\n`;
}

function ruleRows(counts: Record<string, number>): Array<[string, string]> {
  return Object.entries(counts).map(([rule, n]) => [rule, String(n)]);
}
