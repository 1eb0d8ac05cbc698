/**
 * The statistics of a shared queue: every worker's events on one Redis stream, read back into the
 * same document and formulas as the event log (stats/aggregate.ts). A generation's outcome is added
 * only if it has none yet, checked and added in one script, so two workers (one that died and came
 * back, one that took its job up) can never give a generation two.
 */
import type { Redis } from 'ioredis';
import { computeStats, StatsEvent, type NewStatsEvent, type StatsDocument } from '../stats/index.ts';
import type { StatsSink } from '../stats/log.ts';
import { commandConnection, keysOf, reach, type QueueKeys, type QueueSettings } from './connection.ts';

/**
 * KEYS: stream, outcomes, attempts. ARGV: the event, its generation, its kind (outcome, validation,
 * other), and `fill` for a give_up whose attempts are those counted so far.
 */
const RECORD = `
local event = ARGV[1]
if ARGV[3] == 'outcome' then
  if redis.call('HSETNX', KEYS[2], ARGV[2], '1') == 0 then return 0 end
  if ARGV[4] == 'fill' then
    local decoded = cjson.decode(event)
    decoded['attempts'] = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
    event = cjson.encode(decoded)
  end
  redis.call('HDEL', KEYS[3], ARGV[2])
elseif ARGV[3] == 'validation' then
  redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
end
redis.call('XADD', KEYS[1], '*', 'event', event)
return 1
`;

const PAGE = 5000;

export class QueueStats implements StatsSink {
  private readonly redis: Redis;
  private readonly keys: QueueKeys;
  private readonly onError: (error: Error) => void;
  /** Writes not answered yet: `flush` waits for them. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(redis: Redis, keys: QueueKeys, onError: (error: Error) => void = () => {}) {
    this.redis = redis;
    this.keys = keys;
    this.onError = onError;
  }

  record(event: NewStatsEvent): void {
    this.write(event, false);
  }

  /** Ends a generation that could not end by itself (its job cancelled, timed out, or its workers died); nothing if it has ended. */
  giveUp(generation: string, reason: 'interrupted' | 'error', why: string): void {
    this.write({ type: 'give_up', generation, attempts: 0, reason, error: why }, true);
  }

  /** Resolves once every event recorded so far is in Redis (or failed to get there). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Every readable event, oldest first. */
  async read(): Promise<StatsEvent[]> {
    const events: StatsEvent[] = [];
    let start = '-';
    for (;;) {
      const page = await this.redis.xrange(this.keys.stats, start, '+', 'COUNT', PAGE);
      for (const [, fields] of page) {
        try {
          const parsed = StatsEvent.safeParse(JSON.parse(fields[1] ?? ''));
          if (parsed.success) events.push(parsed.data);
        } catch {
          // A line from a newer Scribe, or garbage: skipped, as the event log does.
        }
      }
      if (page.length < PAGE) return events;
      start = `(${page[page.length - 1]![0]}`;
    }
  }

  async document(): Promise<StatsDocument> {
    return computeStats(await this.read());
  }

  private write(event: NewStatsEvent, fillAttempts: boolean): void {
    const line = StatsEvent.parse({ v: 1, time: new Date().toISOString(), ...event });
    const kind = line.type === 'success' || line.type === 'give_up' ? 'outcome' : line.type === 'validation' ? 'validation' : 'other';
    const written = this.redis
      .eval(RECORD, 3, this.keys.stats, this.keys.outcomes, this.keys.attempts, JSON.stringify(line), line.generation, kind, fillAttempts ? 'fill' : '')
      .catch((error: Error) => this.onError(error));
    this.pending.add(written);
    void written.finally(() => this.pending.delete(written));
  }
}

/** The statistics document of the queue at `url` (`scribe stats --queue`): read, and the connection closed. */
export async function readQueueStats(url: string, settings: QueueSettings): Promise<StatsDocument> {
  const target = { url, settings };
  const redis = commandConnection(target);
  redis.on('error', () => {});
  try {
    return await reach(target, redis, () => new QueueStats(redis, keysOf(settings)).document());
  } finally {
    redis.disconnect();
  }
}
