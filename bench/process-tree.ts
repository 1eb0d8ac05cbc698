/**
 * The process tree under a process, read from /proc, and a sampler that reads it while a piece of work runs: what
 * bench/process-cpu.ts (CPU by kind of process) and bench/timeline.ts (when each process ran) both sample.
 * Linux only (it reads /proc).
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TICKS_PER_SECOND = 100;

/** One process under the root, as one sample saw it. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** When it started, in clock ticks after boot. */
  startTicks: number;
  /** Its user and system time so far, in clock ticks. */
  ticks: number;
  /** Its command line; empty once it has exited (a zombie not yet reaped keeps no command line). */
  command: string;
  /** Whether it runs under bubblewrap (the OS sandbox of a contained run). */
  contained: boolean;
  /** The contained run it belongs to: the pid of its outermost bwrap or contained-cli. */
  run?: number;
}

/** Runs `work`, calling `sample` every `everyMs` meanwhile. */
export async function sampledWhile<T>(work: () => Promise<T>, everyMs: number, sample: () => void): Promise<T> {
  const timer = setInterval(sample, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

const RUN_ROOT = /^\S*bwrap\b|contained-cli\.cjs/;
const BWRAP = /^\S*bwrap\b/;

/** Every process under `root` (not itself), each with the contained run it belongs to. */
export function processTree(root: number): Map<number, ProcInfo> {
  const stats = new Map<number, Omit<ProcInfo, 'pid' | 'command' | 'contained' | 'run'>>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = readStat(Number(entry));
    if (found) stats.set(Number(entry), found);
  }
  const commands = new Map<number, string>();
  const command = (pid: number) => commands.get(pid) ?? commands.set(pid, commandOf(pid)).get(pid)!;
  const tree = new Map<number, ProcInfo>();
  for (const [pid, stat] of stats) {
    const chain: number[] = [pid];
    for (let at = stat.ppid; at > 1 && at !== root; at = stats.get(at)?.ppid ?? 0) chain.push(at);
    if (stats.get(chain.at(-1)!)?.ppid !== root) continue;
    const run = [...chain].reverse().find((ancestor) => RUN_ROOT.test(command(ancestor)));
    tree.set(pid, { pid, ...stat, command: command(pid), contained: chain.slice(1).some((ancestor) => BWRAP.test(command(ancestor))), ...(run ? { run } : {}) });
  }
  return tree;
}

function readStat(pid: number): Omit<ProcInfo, 'pid' | 'command' | 'contained' | 'run'> | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
