import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeStats, StatsDocument } from '../../src/stats/aggregate.ts';
import type { NewStatsEvent } from '../../src/stats/events.ts';
import { StatsLog, statsHome } from '../../src/stats/log.ts';

let dir: string;
let log: StatsLog;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-stats-'));
  log = new StatsLog(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tokens = { prompt: 100, completion: 50, total: 150 };
const call = (generation: string): NewStatsEvent => ({ type: 'model_call', generation, provider: 'openai', model: 'm', attempts: 1, tokens, error: null });
const validation = (generation: string, attempt: number, errors: string[], autofixed: string[] = []): NewStatsEvent => ({ type: 'validation', generation, attempt, passed: errors.length === 0, errors, autofixed });

/** A bad-then-good generation followed by an always-bad one (max_retries 3). */
function acceptanceRun(): NewStatsEvent[] {
  return [
    call('a'), validation('a', 1, ['type-check', 'expect-expect'], ['no-wait-for-timeout']), { type: 'retry', generation: 'a', attempt: 2, rules: ['type-check', 'expect-expect'] },
    call('a'), validation('a', 2, []), { type: 'success', generation: 'a', attempts: 2 },
    call('b'), validation('b', 1, ['type-check']), { type: 'retry', generation: 'b', attempt: 2, rules: ['type-check'] },
    call('b'), validation('b', 2, ['type-check']), { type: 'retry', generation: 'b', attempt: 3, rules: ['type-check'] },
    call('b'), validation('b', 3, ['type-check', 'no-nth-methods']), { type: 'give_up', generation: 'b', attempts: 3, reason: 'max_retries', error: 'gave up' },
  ];
}

describe('computeStats', () => {
  it('is all zeros for an empty log (a zero denominator gives a rate of 0)', () => {
    const stats = computeStats(log.read());
    expect(stats).toMatchObject({ agent: 'scribe', validation_attempts: 0, success_rate: 0, avg_retries_per_success: 0, first_attempt_pass_rate: 0, max_retries_hit_rate: 0, critic_rejection_rate: 0, runner_pass_rate: 0, llm_calls: 0, issues_by_rule: {}, tokens: { prompt: 0, completion: 0, total: 0 } });
  });

  it('follows DESIGN.md: bad-then-good plus always-bad gives 5 attempts, 4 failures, 0.2, 3 retries, 1 per success', () => {
    for (const event of acceptanceRun()) log.record(event);
    const stats = computeStats(log.read());
    expect(StatsDocument.parse(stats)).toEqual(stats);
    expect(stats).toMatchObject({
      generations: 2,
      generations_succeeded: 1,
      generations_gave_up: 1,
      validation_attempts: 5,
      validation_failures: 4,
      success_rate: 0.2,
      total_retries_used: 3,
      avg_retries_per_success: 1,
      first_attempt_pass_rate: 0,
      max_retries_hit_rate: 0.5,
      llm_calls: 5,
      llm_call_failures: 0,
      llm_http_attempts: 5,
      tokens: { prompt: 500, completion: 250, total: 750 },
    });
    expect(stats.issues_by_rule).toEqual({ 'type-check': 4, 'expect-expect': 1, 'no-nth-methods': 1 });
    expect(Object.keys(stats.issues_by_rule)[0]).toBe('type-check');
    expect(stats.autofixes_by_rule).toEqual({ 'no-wait-for-timeout': 1 });
  });

  it('counts a first answer that passes, and a model failure that is not a max-retries give-up', () => {
    const events: NewStatsEvent[] = [
      call('a'), validation('a', 1, []), { type: 'success', generation: 'a', attempts: 1 },
      { type: 'model_call', generation: 'b', provider: 'openai', model: 'm', attempts: 3, tokens: { prompt: 0, completion: 0, total: 0 }, error: 'HTTP 500' },
      { type: 'give_up', generation: 'b', attempts: 1, reason: 'model_error', error: 'HTTP 500' },
    ];
    for (const event of events) log.record(event);
    expect(computeStats(log.read())).toMatchObject({ first_attempt_pass_rate: 1, max_retries_hit_rate: 0, success_rate: 1, llm_calls: 2, llm_call_failures: 1, llm_http_attempts: 4, avg_retries_per_success: 0 });
  });

  it('computes the Critic, Runner and Medic fields from their events', () => {
    const events: NewStatsEvent[] = [
      { type: 'critic_verdict', generation: 'a', status: 'rejected', rules: ['no-unknown-testid'] },
      { type: 'critic_verdict', generation: 'a', status: 'approved', rules: [] },
      { type: 'critic_verdict', generation: 'b', status: 'approved', rules: [] },
      { type: 'critic_verdict', generation: 'c', status: 'approved', rules: [] },
      { type: 'runner_outcome', generation: 'a', status: 'fail', classification: 'test_bug', os_sandbox: false },
      { type: 'heal', generation: 'a', outcome: 'refused' },
      { type: 'heal', generation: 'a', outcome: 'healed' },
      { type: 'runner_outcome', generation: 'a', status: 'pass', classification: 'pass', os_sandbox: true },
      { type: 'runner_outcome', generation: 'b', status: 'fail', classification: 'environment' },
    ];
    for (const event of events) log.record(event);
    expect(computeStats(log.read())).toMatchObject({
      critic_verdicts: 4,
      critic_rejections: 1,
      critic_rejection_rate: 0.25,
      runner_runs: 3,
      runner_pass_rate: 0.3333,
      runner_failures_by_classification: { test_bug: 1, app_bug: 0, environment: 1, timeout: 0 },
      // Of the contained runs, one went without the OS sandbox; a run that does not say (a trusted one) is not counted.
      runner_runs_without_os_sandbox: 1,
      heal_attempts: 2,
      heal_successes: 1,
      weakening_heals_refused: 1,
    });
  });
});

describe('StatsLog', () => {
  it('lives in $SCRIBE_HOME, else .scribe/ of the working directory', () => {
    expect(statsHome({ SCRIBE_HOME: '/var/scribe' }, '/work/app')).toBe('/var/scribe');
    expect(statsHome({ SCRIBE_HOME: 'stats' }, '/work/app')).toBe('/work/app/stats');
    expect(statsHome({}, '/work/app')).toBe('/work/app/.scribe');
  });

  it('reads no log as no events, and skips a line it cannot parse', () => {
    expect(log.read()).toEqual([]);
    log.record(call('a'));
    appendFileSync(log.file, '{"v":1,"type":"valid');
    appendFileSync(log.file, '\n{"v":1,"type":"from-the-future","time":"x","generation":"a"}\n');
    log.record(call('b'));
    expect(log.read().map((e) => e.generation)).toEqual(['a', 'b']);
  });

  it('refuses to record an event that breaks its schema', () => {
    expect(() => log.record({ ...validation('a', 0, []) })).toThrow();
    expect(log.read()).toEqual([]);
  });

  it('keeps every line whole when several processes record at once', async () => {
    const script = `import { StatsLog } from ${JSON.stringify(path.resolve('src/stats/log.ts'))};
      const log = new StatsLog(process.argv[1]);
      for (let i = 0; i < 200; i++) log.record({ type: 'validation', generation: process.argv[2] + '-' + i, attempt: 1, passed: i % 2 === 0, errors: i % 2 === 0 ? [] : ['type-check', 'no-nth-methods', 'expect-expect'], autofixed: ['missing-playwright-await'] });`;
    const run = promisify(execFile);
    await Promise.all(['p1', 'p2', 'p3', 'p4'].map((name) => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir, name])));
    const events = log.read();
    expect(events).toHaveLength(800);
    expect(computeStats(events)).toMatchObject({ validation_attempts: 800, validation_failures: 400, success_rate: 0.5 });
  });
});

describe('honest figures', () => {
  it('the generation success rate counts gave-ups; the offline generator makes no HTTP attempts', () => {
    const events: NewStatsEvent[] = [
      { type: 'validation', generation: 'ok', attempt: 1, passed: true, errors: [], autofixed: [] },
      { type: 'success', generation: 'ok', attempts: 1 },
      ...['a', 'b', 'c', 'd', 'e'].map((generation): NewStatsEvent => ({ type: 'give_up', generation, attempts: 1, reason: 'not_accepted', error: 'the run failed' })),
      { type: 'model_call', generation: 'ok', provider: 'offline', model: 'offline', attempts: 1, tokens: { prompt: 0, completion: 0, total: 0 }, error: null },
      { type: 'model_call', generation: 'a', provider: 'openai', model: 'm', attempts: 2, tokens, error: null },
    ];
    for (const event of events) log.record(event);
    const stats = computeStats(log.read());
    // One validated answer passed: DESIGN.md's success_rate is 1; of six generations finished one succeeded.
    expect(stats).toMatchObject({ success_rate: 1, generations_succeeded: 1, generations_gave_up: 5, generation_success_rate: 0.1667, llm_calls: 2, llm_http_attempts: 2 });
  });
});
