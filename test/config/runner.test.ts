import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load.ts';
import { DEFAULT_RUNNER_PATH, loadRunnerConfig, runnerFolders } from '../../src/config/runner.ts';

const bundled = readFileSync(DEFAULT_RUNNER_PATH, 'utf8');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-runner-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(text: string) {
  const file = path.join(dir, 'runner.yaml');
  writeFileSync(file, text);
  try {
    loadRunnerConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { file, problems: (error as ConfigError).problems };
  }
  throw new Error('expected a ConfigError');
}

describe('agents/runner.yaml', () => {
  it('loads the bundled file, with short action and expect timeouts under the per-test and whole-run limits', () => {
    const config = loadRunnerConfig();
    expect(config.file).toBe(DEFAULT_RUNNER_PATH);
    expect(config.timeouts.action_ms).toBeLessThan(config.timeouts.test_ms);
    expect(config.timeouts.expect_ms).toBeLessThan(config.timeouts.test_ms);
    expect(config.timeouts.test_ms).toBeLessThan(config.timeouts.run_ms);
  });

  it('resolves its folders against the Scribe home unless absolute', () => {
    const config = loadRunnerConfig();
    expect(runnerFolders(config, '/project/.scribe')).toEqual({ temp: path.resolve('/project/.scribe/tmp'), artifacts: path.resolve('/project/.scribe/runs') });
    const absolute = { ...config, paths: { temp_dir: '/var/scribe-tmp', artifacts_dir: 'kept' } };
    expect(runnerFolders(absolute, '/project/.scribe').temp).toBe(path.resolve('/var/scribe-tmp'));
  });

  it('names the file, the key and the line of a wrong value', () => {
    const { file, problems } = problemsOf(bundled.replace(/expect_ms: \d+/, 'expect_ms: soon'));
    const line = bundled.split('\n').findIndex((l) => l.includes('expect_ms:')) + 1;
    expect(problems).toEqual([expect.objectContaining({ file, key: 'timeouts.expect_ms', line })]);
  });

  it('rejects an unknown key (a typo) where it stands', () => {
    const { problems } = problemsOf(bundled.replace('kill_grace_ms:', 'kill_grace:'));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'timeouts', message: expect.stringMatching(/"kill_grace"/) }),
        expect.objectContaining({ key: 'timeouts.kill_grace_ms' }),
      ]),
    );
  });

  it('rejects a per-test timeout that the whole-run limit would always cut short', () => {
    const { problems } = problemsOf(bundled.replace(/test_ms: \d+/, 'test_ms: 600000'));
    const line = bundled.split('\n').findIndex((l) => l.includes('test_ms:')) + 1;
    expect(problems).toEqual([expect.objectContaining({ key: 'timeouts.test_ms', line, message: expect.stringMatching(/less than timeouts\.run_ms/) })]);
  });
});
