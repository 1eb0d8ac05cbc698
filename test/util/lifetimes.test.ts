/**
 * Lifetimes as setup/teardown pairs: torn down newest first on success, on a failing later setup, on failing
 * work and on cancellation, each teardown whatever the others do. Real processes and a real browser held
 * this way are in test/workflow/lifetimes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Lifetimes, TeardownError, withLifetimes, type Setup } from '../../src/util/lifetimes.ts';

function tracked(log: string[], name: string): Setup<string> {
  return async () => {
    log.push(`set up ${name}`);
    return { value: name, teardown: () => void log.push(`tear down ${name}`) };
  };
}

describe('lifetimes', () => {
  it('tears down in reverse order once the work is done, and gives its result', async () => {
    const log: string[] = [];
    const result = await withLifetimes(undefined, async (lifetimes) => {
      const held = [await lifetimes.acquire('a', tracked(log, 'a')), await lifetimes.acquire('b', tracked(log, 'b'))];
      lifetimes.hold('c', () => void log.push('tear down c'));
      log.push('work');
      return held.join('+');
    });
    expect(result).toBe('a+b');
    expect(log).toEqual(['set up a', 'set up b', 'work', 'tear down c', 'tear down b', 'tear down a']);
  });

  it('a failing later setup tears down the earlier ones and its own error is the one thrown', async () => {
    const log: string[] = [];
    const failing: Setup<never> = async () => {
      throw new Error('the relay could not listen');
    };
    await expect(
      withLifetimes(undefined, async (lifetimes) => {
        await lifetimes.acquire('a', tracked(log, 'a'));
        await lifetimes.acquire('b', tracked(log, 'b'));
        await lifetimes.acquire('relay', failing);
        log.push('work');
      }),
    ).rejects.toThrow('the relay could not listen');
    expect(log).toEqual(['set up a', 'set up b', 'tear down b', 'tear down a']);
  });

  it('cancelled while a setup runs: that one is held and torn down too, with those before it', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const cancelledMidway: Setup<string> = async () => {
      controller.abort(new Error('stopped by SIGINT'));
      return { value: 'b', teardown: () => void log.push('tear down b') };
    };
    await expect(
      withLifetimes(controller.signal, async (lifetimes) => {
        await lifetimes.acquire('a', tracked(log, 'a'));
        await lifetimes.acquire('b', cancelledMidway);
        await lifetimes.acquire('c', tracked(log, 'c'));
      }),
    ).rejects.toThrow('stopped by SIGINT');
    expect(log).toEqual(['set up a', 'tear down b', 'tear down a']);
  });

  it('a teardown that fails does not keep the others from running; after work that succeeded it is thrown, naming the lifetime', async () => {
    const log: string[] = [];
    const breaks: Setup<void> = async () => ({ value: undefined, teardown: () => Promise.reject(new Error('EBUSY')) });
    const ending = withLifetimes(undefined, async (lifetimes) => {
      await lifetimes.acquire('a', tracked(log, 'a'));
      await lifetimes.acquire('the memory cap', breaks);
      await lifetimes.acquire('c', tracked(log, 'c'));
    });
    await expect(ending).rejects.toThrow(TeardownError);
    await expect(ending).rejects.toThrow('could not tear down the memory cap: EBUSY');
    expect(log).toEqual(['set up a', 'set up c', 'tear down c', 'tear down a']);
  });

  it("failing work's error wins over a teardown's", async () => {
    const breaks: Setup<void> = async () => ({ value: undefined, teardown: () => Promise.reject(new Error('EBUSY')) });
    await expect(
      withLifetimes(undefined, async (lifetimes) => {
        await lifetimes.acquire('the memory cap', breaks);
        throw new Error('Playwright could not start');
      }),
    ).rejects.toThrow('Playwright could not start');
  });

  it('release empties what is held: a second release tears nothing down twice', async () => {
    const log: string[] = [];
    const lifetimes = new Lifetimes();
    await lifetimes.acquire('a', tracked(log, 'a'));
    expect(await lifetimes.release()).toEqual([]);
    expect(await lifetimes.release()).toEqual([]);
    expect(log).toEqual(['set up a', 'tear down a']);
  });
});
