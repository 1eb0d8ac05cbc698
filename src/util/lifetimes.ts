/**
 * What a generation or a run holds while it works (a browser, the app's web server, a run folder, the network
 * relay, a memory cap, Playwright's process), as setup/teardown pairs in the manner of Playwright's runner
 * tasks: each setup returns its own teardown, and whatever ends the work (success, a failure, a later setup
 * failing, cancellation) the teardowns of everything set up run in reverse order, each one even when
 * another fails. A setup that fails part-way undoes its own part before it throws.
 */

export type Teardown = () => void | Promise<void>;

/** What a setup gives: the thing held, and how to let it go. */
export interface Acquired<T> {
  value: T;
  teardown: Teardown;
}

export type Setup<T> = (signal: AbortSignal | undefined) => Promise<Acquired<T>>;

export class TeardownError extends Error {
  constructor(
    readonly title: string,
    readonly reason: unknown,
  ) {
    super(`could not tear down ${title}: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
    this.name = 'TeardownError';
  }
}

/** The lifetimes set up so far, newest last; released newest first. */
export class Lifetimes {
  readonly #held: Array<{ title: string; teardown: Teardown }> = [];

  constructor(private readonly signal?: AbortSignal) {}

  /** Sets up `title`, and holds it until release. Cancelled before or while it was set up, it is held (so torn down) and the abort thrown. */
  async acquire<T>(title: string, setup: Setup<T>): Promise<T> {
    this.signal?.throwIfAborted();
    const { value, teardown } = await setup(this.signal);
    this.#held.push({ title, teardown });
    this.signal?.throwIfAborted();
    return value;
  }

  /** Holds what was set up elsewhere (a process started mid-work), to be torn down with the rest. */
  hold(title: string, teardown: Teardown): void {
    this.#held.push({ title, teardown });
  }

  /** Tears down everything held, newest first, every one whatever the others do; the failures, by title. */
  async release(): Promise<TeardownError[]> {
    const failures: TeardownError[] = [];
    for (let held = this.#held.pop(); held; held = this.#held.pop()) {
      try {
        await held.teardown();
      } catch (error) {
        failures.push(new TeardownError(held.title, error));
      }
    }
    return failures;
  }
}

/**
 * Runs `work` with a fresh set of lifetimes and releases them all when it ends, however it ends. The work's
 * own error wins over a teardown's; a teardown failing after work that succeeded is thrown.
 */
export async function withLifetimes<T>(signal: AbortSignal | undefined, work: (lifetimes: Lifetimes) => Promise<T>): Promise<T> {
  const lifetimes = new Lifetimes(signal);
  let result: T;
  try {
    result = await work(lifetimes);
  } catch (error) {
    await lifetimes.release();
    throw error;
  }
  const [failure] = await lifetimes.release();
  if (failure) throw failure;
  return result;
}
