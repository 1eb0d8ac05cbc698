import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GATE_KEYS } from '../../src/stats/aggregate.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { runCli } from './harness.ts';

let dir: string;
const cli = (args: string[]) => runCli(['stats', ...args], { env: {}, cwd: dir });

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-stats-formats-'));
  const log = new StatsLog(path.join(dir, '.scribe'));
  // Generation g1: fails once on no-nth-methods, passes on the retry, the Critic approves, the run fails as a test bug.
  log.record({ type: 'model_call', generation: 'g1', provider: 'openai', model: 'm', attempts: 1, tokens: { prompt: 10, completion: 5, total: 15 }, error: null });
  log.record({ type: 'validation', generation: 'g1', attempt: 1, passed: false, errors: ['no-nth-methods', 'no-nth-methods'], autofixed: [] });
  log.record({ type: 'retry', generation: 'g1', attempt: 2, rules: ['no-nth-methods'] });
  log.record({ type: 'validation', generation: 'g1', attempt: 2, passed: true, errors: [], autofixed: ['no-force-option'] });
  log.record({ type: 'success', generation: 'g1', attempts: 2 });
  log.record({ type: 'critic_verdict', generation: 'g1', status: 'approved', rules: [] });
  log.record({ type: 'runner_outcome', generation: 'g1', status: 'fail', classification: 'test_bug' });
  // Generation g2: gives up after one failed answer on type-check.
  log.record({ type: 'validation', generation: 'g2', attempt: 1, passed: false, errors: ['type-check'], autofixed: [] });
  log.record({ type: 'give_up', generation: 'g2', attempts: 3, reason: 'max_retries', error: 'gave up' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scribe stats --format', () => {
  it('json is the --json document', async () => {
    const format = await cli(['--format', 'json']);
    const alias = await cli(['--json']);
    expect(format.code).toBe(0);
    expect(format.stdout).toBe(alias.stdout);
    expect(JSON.parse(format.stdout)).toMatchObject({ validation_attempts: 3, success_rate: 0.3333 });
    expect((await cli(['--json', '--format', 'markdown'])).code).toBe(2);
    expect((await cli(['--format', 'xml'])).code).toBe(2);
  });

  it('markdown has the rates, retries, gates, issues by rule and failures by classification, for $GITHUB_STEP_SUMMARY', async () => {
    const run = await cli(['--format', 'markdown', '--fail-under', 'success_rate=0.8', '--fail-under', 'max_retries_hit_rate=0.1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('success_rate is 0.3333, below 0.8');
    const md = run.stdout;
    expect(md).toMatch(/^## Scribe statistics\n/);
    expect(md).toContain('| Generations | 2 (1 succeeded, 1 gave up) |');
    expect(md).toContain('| Success rate | 50.0% of generations finished (1 succeeded, 1 gave up) |');
    expect(md).toContain('| Answers passing validation | 33.3% (1 of 3 validated answers) |');
    expect(md).toContain('| First-attempt pass rate | 0.0% |');
    expect(md).toContain('| Retries used | 1 (1.00 per success) |');
    expect(md).toContain('| Max retries hit | 50.0% |');
    expect(md).toContain('| Runner pass rate | 0.0% of 1 runs |');
    expect(md).toContain('| Tokens | 15 (prompt 10, completion 5) |');
    expect(md).toContain('| `success_rate` | 0.3333 | 0.8 | ❌ below |');
    expect(md).toContain('| `max_retries_hit_rate` | 0.5 | 0.1 | ✅ passed |');
    expect(md).toContain('### Errors by rule (left after autofix)\n\n| Rule | Errors |\n| --- | ---: |\n| `no-nth-methods` | 2 |\n| `type-check` | 1 |');
    expect(md).toContain('| `no-force-option` | 1 |');
    expect(md).toContain('| `test_bug` | 1 |\n| `app_bug` | 0 |');
    // Every table row has as many cells as its header.
    const rows = md.split('\n').filter((line) => line.startsWith('|'));
    expect(rows.every((row) => row.split(' | ').length >= 2 && row.endsWith('|'))).toBe(true);
  });

  it('junit: one testcase per figure, a figure below its gate fails, every count in the properties', async () => {
    const run = await cli(['--format', 'junit', '--fail-under', 'success_rate=0.8', '--fail-under', 'runner_runs=1']);
    expect(run.code).toBe(1);
    const xml = run.stdout;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
    expectBalanced(xml);
    const cases = [...xml.matchAll(/<testcase classname="scribe\.stats" name="([a-z_]+)"/g)].map((m) => m[1]);
    expect(cases).toEqual(GATE_KEYS);
    expect(xml).toContain(`<testsuite name="scribe.stats" tests="${GATE_KEYS.length}" failures="1" errors="0" skipped="0"`);
    expect(xml).toMatch(/<testcase classname="scribe\.stats" name="success_rate" time="0">\n\s*<failure type="fail-under" message="success_rate is 0\.3333, below 0\.8">/);
    expect(xml).toMatch(/name="runner_runs" time="0">\n\s*<system-out>runner_runs = 1 \(minimum 1\)<\/system-out>/);
    expect(xml).toContain('<property name="total_retries_used" value="1"/>');
    expect(xml).toContain('<property name="issues_by_rule.no-nth-methods" value="2"/>');
    expect(xml).toContain('<property name="runner_failures_by_classification.test_bug" value="1"/>');
    expect(xml).toContain('<property name="tokens.total" value="15"/>');

    const ungated = await cli(['--format', 'junit']);
    expect(ungated.code).toBe(0);
    expect(ungated.stdout).toContain('failures="0"');
    expect(ungated.stdout).not.toContain('<failure');
  });
});

/** Well-formed enough for a dashboard: every opened element is closed, in order. */
function expectBalanced(xml: string): void {
  const open: string[] = [];
  for (const [, closing, name, selfClosing] of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([a-z-]+)(?:\s[^>]*?)?(\/?)>/g)) {
    if (selfClosing) continue;
    if (closing) expect(open.pop()).toBe(name);
    else open.push(name!);
  }
  expect(open).toEqual([]);
}
