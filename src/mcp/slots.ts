/**
 * The concurrent-job limit of agents/server.yaml for `scribe mcp`: at most `concurrency` generations or
 * runs at once, at most `maxQueued` waiting; one more is refused. A waiting call that is cancelled
 * leaves the queue.
 */

export class SlotsFullError extends Error {
  constructor(maxQueued: number) {
    super(`${maxQueued} jobs are already waiting; try again later`);
    this.name = 'SlotsFullError';
  }
}

export class JobSlots {
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(limits: { concurrency: number; maxQueued: number }) {
    this.concurrency = limits.concurrency;
    this.maxQueued = limits.maxQueued;
  }

  /** Resolves with the function that frees the slot once one is free; rejects when the queue is full or `signal` fires. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) {
      this.running++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxQueued) throw new SlotsFullError(this.maxQueued);
    await new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', cancel);
        resolve();
      };
      const cancel = () => {
        this.waiting.splice(this.waiting.indexOf(start), 1);
        reject(signal!.reason);
      };
      this.waiting.push(start);
      signal?.addEventListener('abort', cancel, { once: true });
    });
    // The slot was handed over by its releaser: `running` already counts it.
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
