/**
 * The Playwright config's app for the commands, started (or reused) as Playwright starts it and stopped after.
 * A signal while it starts stops the start: the app runs in a process group of its own, so a process that died
 * of the signal then would leave it running.
 * - `withWebServerInterruptibly`: a command that does one piece of work (`plan`, `batch`, `heal`, `run`, `eval`), stopped by
 *   its first signal, the app's start included.
 * - `servingWithWebServer`: a command that serves until it is stopped (`serve`, `mcp --port`, `worker`): the app
 *   is up before the first job can come, and stopped once the serving has ended and its jobs are settled; once it
 *   is up, the serving handles its own signals.
 * - `servingWhileWebServerStarts`: `mcp` over stdio, whose host waits for its handshake a bounded time: it serves
 *   at once and its jobs wait for the app; an app that cannot start ends the serving, then the command.
 */
import { webServers, withWebServer, type ProjectContext } from '../project/context.ts';
import type { Acquired } from '../util/lifetimes.ts';
import { once } from '../util/once.ts';
import { interruptible, Interrupted } from './interrupt.ts';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function withWebServerInterruptibly<T>(project: ProjectContext, onNote: (note: string) => void, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return interruptible((signal) => withWebServer(project, onNote, () => work(signal), signal), { onSignal: () => undefined, graceMs: project.agents.runner.timeouts.kill_grace_ms });
}

export async function servingWithWebServer(project: ProjectContext, onNote: (note: string) => void, serve: () => Promise<void>): Promise<void> {
  let app: Acquired<void> | undefined;
  const stopApp = once(async () => app?.teardown());
  await withLastListener(stopApp, async () => {
    app = await interruptible((signal) => webServers(project, onNote)(signal), { onSignal: () => undefined, graceMs: project.agents.runner.timeouts.kill_grace_ms });
    try {
      await serve();
    } finally {
      await stopApp();
    }
  });
}

export async function servingWhileWebServerStarts(project: ProjectContext, onNote: (note: string) => void, serve: (app: Promise<void>, stop: AbortSignal) => Promise<void>): Promise<void> {
  const starting = new AbortController();
  const serving = new AbortController();
  let app: Acquired<void> | undefined;
  const started = webServers(project, onNote)(starting.signal).then((acquired) => {
    app = acquired;
  });
  // Why the app could not start, unless its start was stopped because the serving had ended.
  const failure = started.then(
    () => undefined,
    (error: unknown) => {
      if (starting.signal.aborted) return undefined;
      serving.abort();
      return error instanceof Error ? error : new Error(String(error));
    },
  );
  const stopApp = once(async () => {
    starting.abort();
    await failure;
    await app?.teardown();
  });
  await withLastListener(stopApp, async () => {
    try {
      await serve(started, serving.signal);
    } finally {
      await stopApp();
    }
  });
  const error = await failure;
  if (error !== undefined) throw error;
}

/**
 * Runs `work` with a signal listener held from before the app starts to after it has stopped: a process with no
 * listener left dies of a signal without stopping the app, which runs in a process group of its own. While the
 * start or the serving listens too, this one leaves the signal to them; alone (the moment between them), it stops
 * the app (or its start), then the process.
 */
async function withLastListener(stopApp: () => Promise<void>, work: () => Promise<void>): Promise<void> {
  const lastListener = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    void stopApp().finally(() => process.exit(new Interrupted(signal).exitCode));
  };
  for (const signal of SIGNALS) process.on(signal, lastListener);
  try {
    await work();
  } finally {
    for (const signal of SIGNALS) process.off(signal, lastListener);
  }
}
