/**
 * The Playwright config's app for the commands, started (or reused) as Playwright starts it and stopped after.
 * A signal while it starts stops the start: the app runs in a process group of its own, so a process that died
 * of the signal then would leave it running.
 * - `withWebServerInterruptibly`: a command that does one piece of work (`plan`, `batch`, `heal`, `run`, `eval`), stopped by
 *   its first signal, the app's start included.
 * - `servingWithWebServer`: a command that serves until it is stopped (`serve`, `mcp`, `worker`): the app is up
 *   before the first job can come, and stopped once the serving has ended and its jobs are settled; once it is
 *   up, the serving handles its own signals.
 */
import { constants } from 'node:os';
import { webServers, withWebServer, type ProjectContext } from '../project/context.ts';
import type { Acquired } from '../util/lifetimes.ts';
import { once } from '../util/once.ts';
import { interruptible } from './interrupt.ts';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function withWebServerInterruptibly<T>(project: ProjectContext, onNote: (note: string) => void, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return interruptible((signal) => withWebServer(project, onNote, () => work(signal), signal), { onSignal: () => undefined, graceMs: project.agents.runner.timeouts.kill_grace_ms });
}

export async function servingWithWebServer(project: ProjectContext, onNote: (note: string) => void, serve: () => Promise<void>): Promise<void> {
  let app: Acquired<void> | undefined;
  const stopApp = once(async () => app?.teardown());
  // Listening from before the app starts to after it has stopped: a process with no listener left dies of a
  // signal without stopping the app, which runs in a process group of its own. While the start or the serving
  // listens too, this one leaves the signal to them; alone (the moment between them), it stops the app, then the process.
  const lastListener = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    void stopApp().finally(() => process.exit(128 + (constants.signals[signal] ?? 15)));
  };
  for (const signal of SIGNALS) process.on(signal, lastListener);
  try {
    app = await interruptible((signal) => webServers(project, onNote)(signal), { onSignal: () => undefined, graceMs: project.agents.runner.timeouts.kill_grace_ms });
    try {
      await serve();
    } finally {
      await stopApp();
    }
  } finally {
    for (const signal of SIGNALS) process.off(signal, lastListener);
  }
}
