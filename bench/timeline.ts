/**
 * When each process of a piece of work ran, and how busy the machine was meanwhile: the process tree under
 * this process sampled from /proc every `everyMs` (each process's start, from the kernel, and when it was
 * last seen), the cores this process and its tree used in each interval, and the cores the whole machine
 * used (/proc/stat), whoever used them. With a batch's stage lines (bench/suite.ts --timeline) it shows
 * where a worker waits: for a stage of its own, or for a core the other worker or the rest of the machine holds.
 * Linux only (it reads /proc).
 */
import { readFileSync } from 'node:fs';
import { kindOf } from './process-cpu.ts';
import { processTree, sampledWhile, TICKS_PER_SECOND } from './process-tree.ts';

export interface ProcessSpan {
  pid: number;
  kind: string;
  /** Epoch milliseconds: the kernel's start time (10 ms steps), and the last sample that saw it alive. */
  startMs: number;
  lastSeenMs: number;
  cpuSeconds: number;
  /** The contained run it belongs to: the pid of its bwrap (in the OS sandbox) or of its contained-cli. */
  run?: number;
}

/** Cores in use over one sampling interval: by this process and its tree, and by the whole machine. */
export interface Busy {
  atMs: number;
  ours: number;
  machine: number;
}

export interface Timeline<T> {
  value: T;
  startMs: number;
  endMs: number;
  processes: ProcessSpan[];
  busy: Busy[];
}

export async function sampleTimeline<T>(work: () => Promise<T>, everyMs = 100): Promise<Timeline<T>> {
  const boot = bootTimeMs();
  const spans = new Map<number, ProcessSpan>();
  const busy: Busy[] = [];
  let last = { atMs: Date.now(), machineTicks: machineBusyTicks(), oursTicks: 0, self: process.cpuUsage() };
  const sample = () => {
    const atMs = Date.now();
    // An exited process not yet reaped has no command line to name it by: its span ends at its last sighting.
    const tree = [...processTree(process.pid).values()].filter((proc) => proc.command !== '');
    let oursTicks = 0;
    for (const proc of tree) {
      const known = spans.get(proc.pid);
      const span = known ?? { pid: proc.pid, kind: kindOf(proc.command, proc.contained), startMs: boot + (proc.startTicks / TICKS_PER_SECOND) * 1000, lastSeenMs: atMs, cpuSeconds: 0, ...(proc.run ? { run: proc.run } : {}) };
      // A process may exec another program after it is first seen (a wrapper, bwrap's child): its last program names it.
      span.kind = kindOf(proc.command, proc.contained);
      span.lastSeenMs = atMs;
      span.cpuSeconds = proc.ticks / TICKS_PER_SECOND;
      spans.set(proc.pid, span);
    }
    for (const span of spans.values()) oursTicks += span.cpuSeconds * TICKS_PER_SECOND;
    const self = process.cpuUsage();
    const selfSeconds = (self.user - last.self.user + self.system - last.self.system) / 1e6;
    const machineTicks = machineBusyTicks();
    const seconds = (atMs - last.atMs) / 1000;
    if (seconds > 0) busy.push({ atMs, ours: ((oursTicks - last.oursTicks) / TICKS_PER_SECOND + selfSeconds) / seconds, machine: (machineTicks - last.machineTicks) / TICKS_PER_SECOND / seconds });
    last = { atMs, machineTicks, oursTicks, self };
  };
  const startMs = Date.now();
  const value = await sampledWhile(work, everyMs, sample);
  return { value, startMs, endMs: Date.now(), processes: [...spans.values()], busy };
}

function bootTimeMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('btime '));
  return Number(line?.split(' ')[1] ?? 0) * 1000;
}

/** The machine's busy time, all cores, in ticks: everything but idle and I/O wait. */
function machineBusyTicks(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}
