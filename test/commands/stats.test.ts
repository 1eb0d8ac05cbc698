import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatsDocument } from '../../src/stats/aggregate.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { runCli } from './harness.ts';

let dir: string;
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['stats', ...args], { env, cwd: dir });

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-stats-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function recordSome(log: StatsLog): void {
  log.record({ type: 'model_call', generation: 'g', provider: 'openai', model: 'm', attempts: 1, tokens: { prompt: 10, completion: 5, total: 15 }, error: null });
  log.record({ type: 'validation', generation: 'g', attempt: 1, passed: false, errors: ['no-nth-methods'], autofixed: [] });
  log.record({ type: 'retry', generation: 'g', attempt: 2, rules: ['no-nth-methods'] });
  log.record({ type: 'validation', generation: 'g', attempt: 2, passed: true, errors: [], autofixed: ['no-force-option'] });
  log.record({ type: 'success', generation: 'g', attempts: 2 });
}

describe('scribe stats', () => {
  it('reads .scribe/ of the working directory without SCRIBE_HOME', async () => {
    recordSome(new StatsLog(path.join(dir, '.scribe')));
    const run = await cli(['--json']);
    expect(run.code).toBe(0);
    expect(StatsDocument.parse(JSON.parse(run.stdout))).toMatchObject({ validation_attempts: 2, success_rate: 0.5, avg_retries_per_success: 1, issues_by_rule: { 'no-nth-methods': 1 } });
  });

  it('prints a table for people', async () => {
    recordSome(new StatsLog(path.join(dir, 'home')));
    const run = await cli([], { SCRIBE_HOME: 'home' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(path.join(dir, 'home', 'events.jsonl'));
    expect(run.stdout).toMatch(/answers passing\s+50\.0% of validated answers/);
    expect(run.stdout).toMatch(/retries per success\s+1\.00/);
    expect(run.stdout).toMatch(/no-nth-methods\s+1/);
    expect(run.stdout).toMatch(/no-force-option\s+1/);
  });

  it('an empty history is all zeros, exit 0', async () => {
    const run = await cli(['--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ validation_attempts: 0, success_rate: 0 });
  });

  it('--fail-under: an unknown key or a bad value is a usage error naming it', async () => {
    const unknown = await cli(['--fail-under', 'sucess_rate=0.8']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown key "sucess_rate"');
    expect(unknown.stderr).toContain('success_rate');
    const bad = await cli(['--fail-under', 'success_rate=high']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"high" is not a number');
    expect((await cli(['--fail-under', 'success_rate'])).code).toBe(2);
  });
});
