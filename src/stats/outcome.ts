/**
 * Every generation ends with exactly one outcome event (`success` or `give_up`). Two parties may try
 * to record it — the pipeline as it finishes, and whoever stops it (a signal handler, a server
 * abandoning a job at shutdown) — so outcomes pass through a sink that keeps the first per generation.
 */
import type { NewStatsEvent } from './events.ts';
import type { StatsLog, StatsSink } from './log.ts';

export type OutcomeEvent = Extract<NewStatsEvent, { type: 'success' | 'give_up' }>;

function isOutcome<E extends { type: string }>(event: E): event is E & { type: 'success' | 'give_up' } {
  return event.type === 'success' || event.type === 'give_up';
}

/** A sink that passes every event on but a second outcome of a generation, and knows which generations have one. */
export class OneOutcomeSink implements StatsSink {
  private readonly sink: StatsSink;
  private readonly ended = new Set<string>();
  /** Answers validated so far, per generation still going: what an interrupted one had spent. */
  private readonly attempts = new Map<string, number>();

  constructor(sink: StatsSink) {
    this.sink = sink;
  }

  /** A sink over a log that already has history (a restarted server): it knows which generations ended. */
  static resuming(log: StatsLog): OneOutcomeSink {
    const sink = new OneOutcomeSink(log);
    for (const event of log.read()) sink.track(event);
    return sink;
  }

  record(event: NewStatsEvent): void {
    if (this.track(event)) this.sink.record(event);
  }

  /** Notes what an event says about its generation; false for a second outcome, which is not to be recorded. */
  private track(event: NewStatsEvent): boolean {
    if (isOutcome(event)) {
      if (this.ended.has(event.generation)) return false;
      this.ended.add(event.generation);
      this.attempts.delete(event.generation);
    } else if (event.type === 'validation') {
      this.attempts.set(event.generation, (this.attempts.get(event.generation) ?? 0) + 1);
    }
    return true;
  }

  /** Ends a generation that could not end by itself (stopped, or its worker died); nothing if it has ended. */
  giveUp(generation: string, reason: 'interrupted' | 'error', why: string): void {
    this.record({ type: 'give_up', generation, attempts: this.attempts.get(generation) ?? 0, reason, error: why });
  }
}
