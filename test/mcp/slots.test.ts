import { describe, expect, it } from 'vitest';
import { JobSlots, SlotsFullError } from '../../src/mcp/slots.ts';

describe('JobSlots (agents/server.yaml jobs.concurrency and jobs.max_queued for scribe mcp)', () => {
  it('runs at most `concurrency` at once, hands a freed slot to the first waiting, refuses past max_queued', async () => {
    const slots = new JobSlots({ concurrency: 1, maxQueued: 1 });
    const first = await slots.acquire();
    const order: string[] = [];
    const second = slots.acquire().then((release) => {
      order.push('second');
      return release;
    });
    await expect(slots.acquire()).rejects.toBeInstanceOf(SlotsFullError);
    order.push('released first');
    first();
    const releaseSecond = await second;
    expect(order).toEqual(['released first', 'second']);
    // Releasing twice frees one slot, not two.
    first();
    const third = slots.acquire();
    let thirdStarted = false;
    void third.then(() => (thirdStarted = true));
    await Promise.resolve();
    expect(thirdStarted).toBe(false);
    releaseSecond();
    (await third)();
  });

  it('a cancelled waiter leaves the queue and its place is free again', async () => {
    const slots = new JobSlots({ concurrency: 1, maxQueued: 1 });
    const running = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('cancelled by the client'));
    await expect(waiting).rejects.toThrow('cancelled by the client');
    const next = slots.acquire();
    running();
    (await next)();
    await expect(slots.acquire(AbortSignal.abort(new Error('already cancelled')))).rejects.toThrow('already cancelled');
  });
});
