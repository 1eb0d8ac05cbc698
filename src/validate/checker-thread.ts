/**
 * A type checker's own thread, driven from the caller's: a batch is posted at once, and the caller blocks
 * (Atomics) only when it needs that batch's answer, so readying the compiler overlaps the caller's own work
 * (asking the model). The native compiler's thread (native-check-thread.cjs) and the JavaScript compiler's
 * (javascript-check-thread.ts) both speak it: a message with an `id` in; `{ id, diagnostics }` or
 * `{ id, error }` out on `port`, answered through check-thread-port.cjs; `{ type: 'close' }` ends the thread. A
 * thread that starts a compiler process says so (`{ type: 'compiler started', pid }`, on the worker's own channel).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** The longest a caller waits for one batch's answer: a compiler that hangs is an error, not a generation that never ends. */
const ANSWER_WAIT_MS = 10 * 60_000;

type ThreadAnswer<Diagnostics> = { id: number; diagnostics: Diagnostics } | { id: number; error: string };

/** The running thread, and what its answers are read with: signal[0] counts them, signal[1] is 1 once the thread ends. */
interface Running {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  nextId: number;
}

export class CheckerThread<Diagnostics> {
  private thread: Running | undefined;
  private idle: NodeJS.Timeout | undefined;

  /**
   * `script`: the thread's module; `workerData`: what it is started with (beside `port` and `signal`);
   * `idleMs`: how long it waits for the next batch before it ends; `name`: the checker, for errors.
   */
  constructor(
    private readonly script: URL,
    private readonly workerData: Record<string, unknown>,
    private readonly idleMs: number,
    private readonly name: string,
  ) {}

  /** Whether the thread is up (it ends `idleMs` after its last batch; the next batch starts another). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  /** Posts a batch and blocks until its answer has come. */
  request(message: Record<string, unknown>): Diagnostics {
    clearTimeout(this.idle);
    try {
      return this.answer(this.post(message));
    } finally {
      this.closeWhenIdle();
    }
  }

  /** Starts the thread with a batch whose answer nobody waits for (a warm-up); nothing when it is up already. */
  prepare(message: Record<string, unknown>): void {
    if (this.thread) return;
    this.post(message);
    this.closeWhenIdle();
  }

  /** Ends the thread (a later batch starts another). */
  close(): void {
    clearTimeout(this.idle);
    this.thread?.worker.postMessage({ type: 'close' });
    this.thread?.port.close();
    this.thread = undefined;
  }

  /** Ends the thread and waits until it has exited (with whatever child process it had reaped). */
  async stop(): Promise<void> {
    const worker = this.thread?.worker;
    if (!worker) return;
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    this.close();
    await ended;
  }

  /**
   * An idle compiler holds a hundred megabytes and more: it ends `idleMs` after its last batch, and the next
   * batch starts another. The timer is cleared before it is set: two would close a compiler warmed after the first.
   */
  private closeWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), this.idleMs).unref();
  }

  /** Hands a batch to the thread (started on first need): the id its answer will carry. */
  private post(message: Record<string, unknown>): number {
    const thread = (this.thread ??= this.start());
    const id = thread.nextId++;
    thread.worker.postMessage({ ...message, id });
    return id;
  }

  /** Blocks until the answer with this id has come (an earlier one, a warm-up's, is passed over). */
  private answer(id: number): Diagnostics {
    const thread = this.thread!;
    const deadline = Date.now() + ANSWER_WAIT_MS;
    for (;;) {
      const answered = Atomics.load(thread.signal, 0);
      const received = receiveMessageOnPort(thread.port)?.message as ThreadAnswer<Diagnostics> | undefined;
      if (received) {
        if (received.id !== id) continue;
        if ('error' in received) throw new Error(received.error);
        return received.diagnostics;
      }
      const late = Date.now() > deadline;
      if (late || Atomics.load(thread.signal, 1) === 1) {
        this.close();
        throw new Error(late ? `the ${this.name} did not answer within ${ANSWER_WAIT_MS / 60_000} minutes` : `the ${this.name} stopped before it answered`);
      }
      Atomics.wait(thread.signal, 0, answered, 1_000);
    }
  }

  private start(): Running {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const worker = new Worker(this.script, { workerData: { ...this.workerData, port: port2, signal }, transferList: [port2] });
    // A compiler process the thread started (the native one) is killed if this process exits while the thread
    // still has it: cut off from the thread in the middle of a request, it would print a crash on the terminal.
    // Many checkers may each hold such a hook at once (a server's validators): each raises the listener limit by
    // one while it holds it, so that the limit still warns of a leak elsewhere.
    let compiler: number | undefined;
    const killCompiler = () => {
      if (compiler !== undefined) killQuietly(compiler);
    };
    const forgetCompiler = () => {
      if (compiler === undefined) return;
      compiler = undefined;
      process.off('exit', killCompiler);
      process.setMaxListeners(process.getMaxListeners() - 1);
    };
    worker.on('message', (message: { type?: string; pid?: number }) => {
      if (message.type !== 'compiler started' || typeof message.pid !== 'number' || compiler !== undefined) return;
      compiler = message.pid;
      process.setMaxListeners(process.getMaxListeners() + 1);
      process.on('exit', killCompiler);
    });
    // Neither keeps the process alive: an idle compiler is closed by its timer, or goes when the process ends. (After
    // the listener above: a 'message' listener refs the worker.)
    worker.unref();
    port1.unref();
    const thread: Running = { worker, port: port1, signal, nextId: 1 };
    // An error the thread throws ends it, and a caller waiting learns that from the signal (the thread's checker
    // answers its own failures as errors); unheard, the event would throw in this thread instead.
    worker.on('error', () => undefined);
    // A thread that ended on its own (its compiler failed to start) is replaced by the next batch's. A thread
    // ends only once its compiler has exited and been reaped: its pid is nobody's to kill any more.
    worker.once('exit', () => {
      forgetCompiler();
      if (this.thread === thread) this.close();
    });
    return thread;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
