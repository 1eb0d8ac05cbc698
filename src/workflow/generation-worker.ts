/**
 * Inside a generation's worker thread (threads.ts): runs one pipeline at a time, reporting each stage as
 * it happens. Parsing and type-checking a spec take whole seconds of CPU; here they neither stall the
 * server's event loop nor wait for the other generations of a batch.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { untrustedValidator } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { loadProject, type ProjectContext } from '../project/context.ts';
import { withMatcher } from '../project/playwright.ts';
import type { Explorations, SharedExploration } from './explored-pages.ts';
import { generateSpec } from './pipeline.ts';
import { progressReporter } from './progress-reporter.ts';
import type { FromWorker, ToWorker } from './threads.ts';

serveJobs(parentPort!);

function serveJobs(port: MessagePort): void {
  const send = (message: FromWorker) => port.postMessage(message);
  // Kept for the thread's life: after the first job, type-checking reuses the compiler's work.
  let validator: Validator | undefined;
  // The project is read once per thread (a loaded config holds functions, which cannot cross threads).
  let project: Promise<ProjectContext> | undefined;
  // The job in hand: stopping the thread aborts it and waits for it to end (its browser and runs closed).
  let running: { controller: AbortController; done: Promise<unknown> } | undefined;
  // Exploration requests are numbered for the thread's life, so an answer meant for an earlier job is no other's.
  let asked = 0;
  const nextId = () => ++asked;
  port.on('message', (message: ToWorker) => {
    if (message.type === 'stop') {
      running?.controller.abort(new Error('the worker thread is stopping'));
      void Promise.resolve(running?.done)
        .then(() => validator?.stopTypeCheck())
        .catch(() => undefined)
        .then(() => send({ type: 'stopped' }));
      return;
    }
    if (message.type !== 'run') return;
    const controller = new AbortController();
    const onAbort = (next: ToWorker) => {
      if (next.type === 'abort') controller.abort(new Error(next.reason));
    };
    port.on('message', onAbort);
    const { playwright } = message.job;
    project ??= loadProject({ cwd: message.job.cwd, env: process.env, ...(playwright !== undefined ? { playwright: Promise.resolve(playwright ? withMatcher(playwright) : undefined) } : {}) });
    const { batch } = message.job;
    const done = project
      .then((loaded) => {
        // A batch's next check comes after a contained run: its type checker stays up for as long as a run may take.
        const typeCheckerIdleMs = batch === undefined ? undefined : loaded.agents.runner.timeouts.run_ms;
        validator ??= untrustedValidator(loaded.agents.critic, { projectRoot: message.job.cwd, typeCheck: true, tsconfig: loaded.tsconfig, ...(typeCheckerIdleMs ? { typeCheckerIdleMs } : {}) });
        const provider = message.job.request.provider ?? loaded.provider;
        return generateSpec(message.job.request, {
          cwd: message.job.cwd,
          env: process.env,
          project: { ...loaded, provider },
          signal: controller.signal,
          generation: message.job.generation,
          stats: { record: (event) => send({ type: 'stats', event }) },
          validator,
          // A batch's scenarios start on pages of one site: its explorations are shared. A job of no batch
          // (the server's) explores afresh: the app may have changed since the last.
          explored: batch === undefined ? undefined : explorationsOfTheBatch(port, nextId),
          reporters: [progressReporter(message.job.cwd, (event) => send({ type: 'event', event }), "the job's stages")],
        });
      })
      .then((result) => send({ type: 'result', result }))
      .catch((error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }))
      .finally(() => port.off('message', onAbort));
    running = { controller, done };
  });
}

/**
 * The batch's explorations, asked of the thread that runs the batch (threads.ts): the answer is the
 * exploration to reuse, or to explore here and send what was found, which the batch keeps for the others.
 */
function explorationsOfTheBatch(port: MessagePort, nextId: () => number): Explorations {
  return {
    exploration: async (url, budget, explore, signal) => {
      signal?.throwIfAborted();
      const id = nextId();
      const send = (message: FromWorker) => port.postMessage(message);
      const answer = await new Promise<Extract<ToWorker, { type: 'exploration' }>>((resolve, reject) => {
        const onAnswer = (message: ToWorker) => {
          if (message.type !== 'exploration' || message.id !== id) return;
          stop();
          resolve(message);
        };
        const onAbort = () => {
          stop();
          reject(signal?.reason instanceof Error ? signal.reason : new Error(String(signal?.reason)));
        };
        const stop = () => {
          port.off('message', onAnswer);
          signal?.removeEventListener('abort', onAbort);
        };
        port.on('message', onAnswer);
        signal?.addEventListener('abort', onAbort, { once: true });
        send({ type: 'explore', id, url, budget });
      });
      if (answer.exploration) return { exploration: answer.exploration, reused: true } satisfies SharedExploration;
      try {
        const exploration = await explore();
        send({ type: 'explored', id, exploration });
        return { exploration, reused: false };
      } catch (error) {
        send({ type: 'explored', id, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    },
  };
}
