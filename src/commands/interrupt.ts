/**
 * A command a person (or a CI job timing out) can stop. The first SIGINT or SIGTERM aborts the work —
 * the pipeline stops before its next stage, a running Playwright is killed — and gives it `graceMs`
 * to end; a second signal, or the grace running out, exits at once. Either way the Runner's exit
 * handler removes its run folder.
 */
import { constants } from 'node:os';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** The work was stopped by a signal: the command exits with 128 + its number, as a shell would report it. */
export class Interrupted extends Error {
  readonly signal: NodeJS.Signals;

  constructor(signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.name = 'Interrupted';
    this.signal = signal;
  }

  get exitCode(): number {
    return 128 + (constants.signals[this.signal] ?? 15);
  }
}

export interface InterruptOptions {
  /** Called once, at the first signal, before the work is aborted: record what must survive an exit. */
  onSignal: (signal: NodeJS.Signals) => void;
  graceMs: number;
}

export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>, options: InterruptOptions): Promise<T> {
  const controller = new AbortController();
  let received: Interrupted | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(received.exitCode);
    received = new Interrupted(signal);
    options.onSignal(signal);
    controller.abort(received);
    const stopped = received;
    deadline = setTimeout(() => process.exit(stopped.exitCode), options.graceMs);
    deadline.unref();
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    const result = await work(controller.signal);
    if (received) throw received;
    return result;
  } catch (error) {
    throw received ?? error;
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    clearTimeout(deadline);
  }
}
