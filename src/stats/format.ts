/**
 * The stats document for CI: `--format json` (the contract), `markdown` (for $GITHUB_STEP_SUMMARY:
 * rates, retries, gates, errors by rule, autofixes by rule, runner failures by classification) and
 * `junit` (for test dashboards).
 *
 * JUnit shape: one <testsuite name="scribe.stats"> with one <testcase> per numeric figure of the
 * document (success_rate, total_retries_used, …), named by its key so a dashboard can follow each one
 * from run to run. A figure under a `--fail-under` gate is a failed testcase (type "fail-under");
 * every other figure passes. Each testcase's <system-out> holds its value; the suite's <properties>
 * hold every figure, the per-rule and per-classification counts included.
 */
import { GATE_KEYS, type StatsDocument } from './aggregate.ts';

export const STATS_FORMATS = ['text', 'json', 'junit', 'markdown'] as const;
export type StatsFormat = (typeof STATS_FORMATS)[number];

export interface Gate {
  key: string;
  minimum: number;
}

export interface GateResult extends Gate {
  value: number;
  passed: boolean;
}

export function evaluateGates(stats: StatsDocument, gates: readonly Gate[]): GateResult[] {
  return gates.map((gate) => {
    const value = figure(stats, gate.key);
    return { ...gate, value, passed: value >= gate.minimum };
  });
}

export function statsJson(stats: StatsDocument): string {
  return `${JSON.stringify(stats, null, 2)}\n`;
}

export function statsMarkdown(stats: StatsDocument, gates: readonly GateResult[]): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const out = [
    '## Scribe statistics',
    '',
    '| Figure | Value |',
    '| --- | ---: |',
    `| Generations | ${stats.generations} (${stats.generations_succeeded} succeeded, ${stats.generations_gave_up} gave up) |`,
    `| Success rate | ${percent(stats.generation_success_rate)} of generations finished (${stats.generations_succeeded} succeeded, ${stats.generations_gave_up} gave up) |`,
    `| Answers passing validation | ${percent(stats.success_rate)} (${stats.validation_attempts - stats.validation_failures} of ${stats.validation_attempts} validated answers) |`,
    `| First-attempt pass rate | ${percent(stats.first_attempt_pass_rate)} |`,
    `| Retries used | ${stats.total_retries_used} (${stats.avg_retries_per_success.toFixed(2)} per success) |`,
    `| Max retries hit | ${percent(stats.max_retries_hit_rate)} |`,
    `| Critic rejections | ${stats.critic_rejections} of ${stats.critic_verdicts} (${percent(stats.critic_rejection_rate)}) |`,
    `| Runner pass rate | ${percent(stats.runner_pass_rate)} of ${stats.runner_runs} runs |`,
    `| Contained runs without the OS sandbox | ${stats.runner_runs_without_os_sandbox} |`,
    `| Heals | ${stats.heal_successes} of ${stats.heal_attempts} healed, ${stats.weakening_heals_refused} weakening refused |`,
    `| Model calls | ${stats.llm_calls} (${stats.llm_call_failures} failed, ${stats.llm_http_attempts} HTTP attempts) |`,
    `| Tokens | ${stats.tokens.total} (prompt ${stats.tokens.prompt}, completion ${stats.tokens.completion}) |`,
  ];
  if (gates.length > 0) {
    out.push('', '### Gates', '', '| Figure | Value | Minimum | Result |', '| --- | ---: | ---: | --- |');
    for (const gate of gates) out.push(`| \`${gate.key}\` | ${gate.value} | ${gate.minimum} | ${gate.passed ? '✅ passed' : '❌ below'} |`);
  }
  out.push('', ...countTable('Errors by rule (left after autofix)', 'Rule', 'Errors', stats.issues_by_rule));
  out.push('', ...countTable('Autofixes by rule', 'Rule', 'Fixes', stats.autofixes_by_rule));
  out.push('', ...countTable('Runner failures by classification', 'Classification', 'Runs', stats.runner_failures_by_classification));
  return `${out.join('\n')}\n`;
}

function countTable(title: string, keyHeader: string, countHeader: string, counts: Record<string, number>): string[] {
  const rows = Object.entries(counts);
  if (rows.length === 0) return [`### ${title}`, '', '_none_'];
  return [`### ${title}`, '', `| ${keyHeader} | ${countHeader} |`, '| --- | ---: |', ...rows.map(([key, n]) => `| \`${key}\` | ${n} |`)];
}

export function statsJunit(stats: StatsDocument, gates: readonly GateResult[], now: Date = new Date()): string {
  const failed = new Map(gates.filter((g) => !g.passed).map((g) => [g.key, g]));
  const cases = GATE_KEYS.map((key) => {
    const value = figure(stats, key);
    const gate = failed.get(key);
    const minimum = gates.find((g) => g.key === key)?.minimum;
    const out = `${key} = ${value}${minimum === undefined ? '' : ` (minimum ${minimum})`}`;
    const failure = gate ? `\n      <failure type="fail-under" message="${xml(`${key} is ${value}, below ${gate.minimum}`)}">${xml(out)}</failure>` : '';
    return `    <testcase classname="scribe.stats" name="${xml(key)}" time="0">${failure}\n      <system-out>${xml(out)}</system-out>\n    </testcase>`;
  });
  const properties = [
    ...GATE_KEYS.map((key) => [key, figure(stats, key)] as const),
    ...Object.entries(stats.tokens).map(([key, n]) => [`tokens.${key}`, n] as const),
    ...Object.entries(stats.runner_failures_by_classification).map(([key, n]) => [`runner_failures_by_classification.${key}`, n] as const),
    ...Object.entries(stats.issues_by_rule).map(([key, n]) => [`issues_by_rule.${key}`, n] as const),
    ...Object.entries(stats.autofixes_by_rule).map(([key, n]) => [`autofixes_by_rule.${key}`, n] as const),
  ].map(([name, value]) => `      <property name="${xml(name)}" value="${value}"/>`);
  const counts = `tests="${cases.length}" failures="${failed.size}" errors="0" skipped="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="scribe stats" ${counts} time="0">`,
    `  <testsuite name="scribe.stats" ${counts} time="0" timestamp="${now.toISOString().slice(0, 19)}">`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function figure(stats: StatsDocument, key: string): number {
  return stats[key as keyof StatsDocument] as number;
}

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
