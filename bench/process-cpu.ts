/**
 * Where the CPU of a piece of work goes: the process tree under this process, sampled from /proc every
 * `everyMs`, each process's user+system time kept at its last sample and summed by what it is. A process
 * that lives less than one interval is missed, and one's last interval before it exits is lost: a lower bound.
 * Linux only (it reads /proc).
 */
import { readFileSync } from 'node:fs';
import { processTree, sampledWhile, TICKS_PER_SECOND } from './process-tree.ts';

/** The kind under which the sampler's own CPU is given: the bench's, not the work's. */
export const SAMPLER = 'bench: its /proc sampler';

const EXITED = 'exited before it was first seen';

/**
 * CPU seconds by kind of process, while `work` ran; this process's own (its worker threads included) under
 * 'scribe (node, threads)', less what the sampling itself took (reading /proc for every process of the
 * machine, several times a second: on a busy machine seconds of CPU), which is under SAMPLER.
 */
export async function cpuByKind<T>(work: () => Promise<T>, everyMs = 200): Promise<{ value: T; seconds: Map<string, number> }> {
  const ticks = new Map<number, { kind: string; ticks: number }>();
  const selfBefore = process.cpuUsage();
  // The sampler runs on this process's main thread: its time there, read before and after each sample.
  let samplerTicks = 0;
  const value = await sampledWhile(work, everyMs, () => {
    const before = mainThreadTicks();
    for (const proc of processTree(process.pid).values()) {
      // A process takes the kind of what it runs now: one started as a launcher script (Debian's
      // /usr/bin/chromium is a shell script) becomes what it execs. An exited one not yet reaped has no
      // command line left: it keeps the kind it had.
      const had = ticks.get(proc.pid)?.kind;
      const kind = proc.command === '' ? (had ?? EXITED) : kindOf(proc.command, proc.contained);
      ticks.set(proc.pid, { kind, ticks: proc.ticks });
    }
    samplerTicks += mainThreadTicks() - before;
  });
  const seconds = new Map<string, number>();
  for (const { kind, ticks: used } of ticks.values()) seconds.set(kind, (seconds.get(kind) ?? 0) + used / TICKS_PER_SECOND);
  const self = process.cpuUsage(selfBefore);
  const sampler = samplerTicks / TICKS_PER_SECOND;
  seconds.set('scribe (node, threads)', Math.max(0, (self.user + self.system) / 1e6 - sampler));
  seconds.set(SAMPLER, sampler);
  return { value, seconds };
}

/** This process's main thread's CPU ticks (its task's stat: the thread whose id is the process's). */
function mainThreadTicks(): number {
  try {
    const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export function kindOf(command: string, contained: boolean): string {
  const where = contained ? 'contained run' : 'scribe';
  if (/^\S*bwrap\b/.test(command)) return 'contained run: bwrap';
  if (/chrom/i.test(command.split(' ')[0] ?? '')) return `${where}: chromium ${/--type=(\S+)/.exec(command)?.[1] ?? 'browser'}`;
  if (/tsgo|native-preview/.test(command)) return `${where}: native type checker`;
  if (/\bnode\b/.test(command.split(' ')[0] ?? '')) return `${where}: node ${/playwright|contained-cli|load-config|config/.exec(command)?.[0] ?? ''}`.trim();
  return `${where}: ${command.split(' ')[0]?.split('/').at(-1) ?? '?'}`;
}
