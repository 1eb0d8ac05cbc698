import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load.ts';
import { DEFAULT_SERVER_PATH, loadServerConfig } from '../../src/config/server.ts';

const bundled = readFileSync(DEFAULT_SERVER_PATH, 'utf8');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-server-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(text: string) {
  const file = path.join(dir, 'server.yaml');
  writeFileSync(file, text);
  try {
    loadServerConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((p) => ({ ...p, file: path.basename(p.file) }));
  }
  throw new Error('expected a ConfigError');
}

describe('agents/server.yaml', () => {
  it('loads the bundled file: a 1 MB body limit, a bounded queue, a grace period', () => {
    const config = loadServerConfig();
    expect(config.file).toBe(DEFAULT_SERVER_PATH);
    expect(config.http.max_body_bytes).toBe(1024 * 1024);
    expect(config.jobs.concurrency).toBeGreaterThan(0);
    expect(config.jobs.max_queued).toBeGreaterThan(0);
    expect(config.shutdown.grace_ms).toBeGreaterThan(0);
  });

  it('names the file, the key and the line of a wrong value, a typo and a headers timeout over the request timeout', () => {
    const text = bundled
      .replace('concurrency: 2', 'concurrency: 0')
      .replace('max_queued: 64', 'max_queud: 64')
      .replace('headers_timeout_ms: 10000', 'headers_timeout_ms: 40000');
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    expect(problemsOf(text)).toEqual(
      expect.arrayContaining([
        { file: 'server.yaml', key: 'jobs.concurrency', line: lineOf('concurrency: 0'), message: expect.stringMatching(/>0|greater/i) },
        { file: 'server.yaml', key: 'jobs', line: lineOf('jobs:'), message: expect.stringContaining('max_queud') },
      ]),
    );
    const timeouts = bundled.replace('headers_timeout_ms: 10000', 'headers_timeout_ms: 40000');
    expect(problemsOf(timeouts)).toEqual([
      { file: 'server.yaml', key: 'http.headers_timeout_ms', line: lineOf('headers_timeout_ms'), message: 'must be at most http.request_timeout_ms (30000)' },
    ]);
  });
});
