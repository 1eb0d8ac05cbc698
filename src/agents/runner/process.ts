/**
 * Runs Playwright's CLI as a child process with a hard limit. Playwright starts workers, and each
 * worker a browser in a process group of its own, so stopping the run means stopping a whole tree:
 * the tree is read from the process table before anything is signalled, then every member gets
 * SIGTERM, and whatever still lives after the grace period SIGKILL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PlaywrightInvocation {
  /** A command that runs Node in a sandbox (bwrap … --): Node and its arguments follow it. */
  prefix?: readonly string[];
  cli: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  limitMs: number;
  killGraceMs: number;
  maxOutputChars: number;
  /** The CLI waits for a line on stdin before Playwright starts (contained-cli.cjs): `go()` writes it. */
  startsOnGo?: boolean;
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout and stderr as they interleaved, head and tail kept when longer than the limit. */
  output: string;
  /** The child could not be started at all. */
  spawnError?: Error;
}

export interface RunningProcess {
  pid: number | undefined;
  done: Promise<ProcessOutcome>;
  /** Kills the whole tree at once and waits (a bounded time) until it is gone: for signal and exit handlers. */
  killNow(): void;
  /** Tells a CLI started with `startsOnGo` that its run folder is written: Playwright starts. */
  go(): void;
}

export function startPlaywright(invocation: PlaywrightInvocation): RunningProcess {
  const output = boundedText(invocation.maxOutputChars);
  const [command, ...prefixArgs] = [...(invocation.prefix ?? []), process.execPath];
  const child = spawn(command, [...prefixArgs, invocation.cli, ...invocation.args], {
    cwd: invocation.cwd,
    env: invocation.env,
    // Its own process group, so a terminal's Ctrl-C reaches Scribe, which then stops the run itself.
    detached: process.platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.add(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.add(chunk));
  // A child that has ended no longer reads it: its outcome says why. Only a CLI told to go reads it at all.
  child.stdin.on('error', () => undefined);
  if (!invocation.startsOnGo) child.stdin.end();

  const known = new Set<number>();
  const remember = () => {
    if (child.pid !== undefined) for (const pid of processTree(child.pid)) known.add(pid);
  };

  let startLimit = () => {};
  const done = new Promise<ProcessOutcome>((resolve) => {
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    // The limit is the run's: a CLI that waits for its spec starts counting when it is told to go.
    startLimit = () => {
      if (ended) return;
      timer ??= setTimeout(() => {
        timedOut = true;
        remember();
        void stopTree(child.pid, known, invocation.killGraceMs);
      }, invocation.limitMs);
    };
    if (!invocation.startsOnGo) startLimit();
    child.once('error', (spawnError) => {
      ended = true;
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, timedOut, output: output.text(), spawnError });
    });
    child.once('close', (exitCode, signal) => {
      ended = true;
      clearTimeout(timer);
      // After a timeout the stop sequence may still be waiting out its grace period: let it finish first.
      const settle = timedOut ? waitGone(known, invocation.killGraceMs + 1000) : Promise.resolve();
      void settle.then(() => resolve({ exitCode, signal, timedOut, output: output.text() }));
    });
  });

  return {
    pid: child.pid,
    done,
    killNow() {
      remember();
      killAll(child.pid, known, 'SIGKILL');
      waitGoneSync(known, invocation.killGraceMs + 1000);
    },
    go() {
      startLimit();
      child.stdin.end('go\n');
    },
  };
}

async function stopTree(root: number | undefined, known: Set<number>, graceMs: number): Promise<void> {
  killAll(root, known, 'SIGTERM');
  await waitGone(known, graceMs);
  // Children started during the grace period are found through the root while it still lives.
  if (root !== undefined && isRunning(root)) for (const pid of processTree(root)) known.add(pid);
  killAll(root, known, 'SIGKILL');
  await waitGone(known, 1000);
}

function killAll(root: number | undefined, pids: Iterable<number>, signal: NodeJS.Signals): void {
  if (root !== undefined && process.platform !== 'win32') signalPid(-root, signal);
  for (const pid of pids) signalPid(pid, signal);
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function waitGone(pids: Iterable<number>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while ([...pids].some(isRunning) && Date.now() < deadline) await sleep(25);
}

/** The same wait without the event loop, which a handler of 'exit' or a signal about to be re-raised no longer has. */
function waitGoneSync(pids: Iterable<number>, ms: number): void {
  const deadline = Date.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while ([...pids].some(isRunning) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
}

/** Alive and not a zombie (a zombie has exited; only its parent's bookkeeping remains). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return processState(pid) !== 'Z';
}

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Kills every process this one started, and theirs (runs under way in any thread): for an exit that cannot wait. */
export function killDescendants(): void {
  const descendants = processTree(process.pid).filter((pid) => pid !== process.pid);
  killAll(undefined, descendants, 'SIGKILL');
  waitGoneSync(descendants, 1000);
}

/** `root` and all its descendants, from the process table as it is now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of processTable()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function processTable(): Array<{ pid: number; ppid: number }> {
  if (existsSync('/proc/self/stat')) {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((entry) => {
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          // The command name is in parentheses and may itself contain spaces and parentheses.
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          return [{ pid: Number(entry), ppid }];
        } catch {
          return [];
        }
      });
  }
  if (process.platform === 'win32') return [];
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((pair): pair is [number, number] => pair.length === 2 && pair.every(Number.isInteger))
    .map(([pid, ppid]) => ({ pid, ppid }));
}

/**
 * Runs `cleanup` if Scribe is interrupted (Ctrl-C, SIGTERM, SIGHUP) or exits while the run is under
 * way, then lets the signal do what it would have done. Returns the function that unregisters it.
 */
export function onInterrupt(cleanup: () => void): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const unregister = () => {
    for (const signal of signals) process.off(signal, onSignal);
    process.off('exit', cleanup);
  };
  function onSignal(signal: NodeJS.Signals): void {
    unregister();
    cleanup();
    // Other runs' handlers may still be listening; the last one out re-raises, so the default applies.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }
  for (const signal of signals) process.on(signal, onSignal);
  process.on('exit', cleanup);
  return unregister;
}

/** Text that keeps its first and last `limit / 2` characters, and says how much was cut between. */
export function boundedText(limit: number): { add(chunk: string): void; text(): string } {
  const half = Math.max(1, Math.floor(limit / 2));
  let head = '';
  let tail = '';
  let cut = 0;
  return {
    add(chunk) {
      const room = half - head.length;
      if (room > 0) {
        head += chunk.slice(0, room);
        chunk = chunk.slice(room);
      }
      tail += chunk;
      if (tail.length > half) {
        cut += tail.length - half;
        tail = tail.slice(-half);
      }
    },
    text: () => (cut > 0 ? `${head}\n… ${cut} characters of output cut …\n${tail}` : head + tail),
  };
}
