/**
 * Wall time per pipeline stage, read off the stage events as they pass: a stage runs from its first
 * `started` to its next `done` or `failed` (a stage that runs again, after a heal, adds its time).
 * `generate --json` and the spec's provenance record report it, so a slow stage shows.
 */
export type StageTimings = Record<string, number>;

export class StageClock {
  private readonly began = performance.now();
  private readonly open = new Map<string, number>();
  private readonly totals = new Map<string, number>();

  observe(stage: string, status: 'started' | 'done' | 'failed' | 'info'): void {
    if (status === 'started') {
      if (!this.open.has(stage)) this.open.set(stage, performance.now());
      return;
    }
    if (status === 'info') return;
    const since = this.open.get(stage);
    if (since === undefined) return;
    this.open.delete(stage);
    this.totals.set(stage, (this.totals.get(stage) ?? 0) + performance.now() - since);
  }

  /** Milliseconds per stage so far, and `total` since the generation began. */
  snapshot(): StageTimings {
    const round = (ms: number) => Math.round(ms);
    return { ...Object.fromEntries([...this.totals].map(([stage, ms]) => [stage, round(ms)])), total: round(performance.now() - this.began) };
  }
}
