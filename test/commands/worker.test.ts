/**
 * The queue's command-line surface: `scribe worker` and `serve --queue` refuse what is not a Redis
 * URL (exit 2), and `scribe stats --queue` reads the shared statistics from a real redis-server — the
 * same document and formulas as the event log — or says it cannot reach it (exit 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../src/config/server.ts';
import { keysOf } from '../../src/queue/connection.ts';
import { QueueStats } from '../../src/queue/stats.ts';
import { computeStats } from '../../src/stats/aggregate.ts';
import type { NewStatsEvent } from '../../src/stats/events.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { runCli } from './harness.ts';

let dir: string;
let redis: RedisServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-worker-cli-'));
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scribe worker and --queue', () => {
  it('refuses a queue that is not a Redis URL, and a worker with no queue at all, with exit 2', async () => {
    for (const args of [['worker', '--queue', 'http://127.0.0.1:6379'], ['serve', '--queue', 'redis//nohost'], ['stats', '--queue', '127.0.0.1:6379']]) {
      const run = await runCli(args, { cwd: dir, env: {} });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--queue "${args[2]}": write a Redis URL, e.g. redis://127.0.0.1:6379`);
    }
    const none = await runCli(['worker'], { cwd: dir, env: {} });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('scribe worker needs a queue: pass --queue redis://host:port or set queue.url in agents/server.yaml');
    const zero = await runCli(['worker', '--queue', redis.url, '--concurrency', '0'], { cwd: dir, env: {} });
    expect(zero.code).toBe(2);
  });

  it('stats --queue: the shared stream gives the document the event log would, one outcome per generation kept', async () => {
    const settings = loadServerConfig().queue;
    const writer = new Redis(redis.url);
    const shared = new QueueStats(writer, keysOf(settings));
    const local = new StatsLog(path.join(dir, 'home'));
    const events: NewStatsEvent[] = [
      { type: 'validation', generation: 'g1', attempt: 1, passed: false, errors: ['no-nth-methods'], autofixed: [] },
      { type: 'retry', generation: 'g1', attempt: 2, rules: ['no-nth-methods'] },
      { type: 'validation', generation: 'g1', attempt: 2, passed: true, errors: [], autofixed: [] },
      { type: 'success', generation: 'g1', attempts: 2 },
      { type: 'validation', generation: 'g2', attempt: 1, passed: true, errors: [], autofixed: [] },
    ];
    for (const event of events) {
      shared.record(event);
      local.record(event);
    }
    // Two parties end g1 and g2 again (a worker that died and the one that took its job up): only the first outcome counts.
    shared.record({ type: 'give_up', generation: 'g1', attempts: 2, reason: 'error', error: 'late' });
    shared.giveUp('g2', 'interrupted', 'its worker died');
    shared.giveUp('g2', 'error', 'and again');
    local.record({ type: 'give_up', generation: 'g2', attempts: 1, reason: 'interrupted', error: 'its worker died' });
    await shared.flush();
    writer.disconnect();

    const run = await runCli(['stats', '--queue', redis.url, '--json'], { cwd: dir, env: {} });
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document).toEqual(computeStats(local.read()));
    expect(document).toMatchObject({ generations: 2, generations_succeeded: 1, generations_gave_up: 1, validation_attempts: 3 });
    const reader = new Redis(redis.url);
    const stream = await reader.xrange(keysOf(settings).stats, '-', '+');
    reader.disconnect();
    const outcomes = stream.map(([, fields]) => JSON.parse(fields[1]!)).filter((e) => e.type === 'success' || e.type === 'give_up');
    // g2's give-up carries the attempts counted so far.
    expect(outcomes.map((e) => [e.generation, e.type, e.attempts])).toEqual([['g1', 'success', 2], ['g2', 'give_up', 1]]);
  });

  it('stats --queue on a Redis that does not answer: exit 1 naming it, quickly', async () => {
    // Port 1 is privileged: nothing of a test's listens there.
    const closed = 'redis://127.0.0.1:1';
    const run = await runCli(['stats', '--queue', closed], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the job queue at ${closed}`);
  });
});
