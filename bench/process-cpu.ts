/**
 * Where the CPU of a piece of work goes: the process tree under this process, sampled from /proc every
 * `everyMs`, each process's user+system time kept at its last sample and summed by what it is. A process
 * that lives less than one interval is missed, and one's last interval before it exits is lost: a lower bound.
 * Linux only (it reads /proc).
 */
import { processTree, sampledWhile, TICKS_PER_SECOND } from './process-tree.ts';

/** CPU seconds by kind of process, while `work` ran; this process's own (its worker threads included) under 'scribe (node, threads)'. */
export async function cpuByKind<T>(work: () => Promise<T>, everyMs = 200): Promise<{ value: T; seconds: Map<string, number> }> {
  const ticks = new Map<number, { kind: string; ticks: number }>();
  const selfBefore = process.cpuUsage();
  const value = await sampledWhile(work, everyMs, () => {
    for (const proc of processTree(process.pid).values()) {
      // An exited process not yet reaped has no command line left: it keeps the kind it was first seen with.
      const kind = ticks.get(proc.pid)?.kind ?? (proc.command === '' ? 'exited before it was first seen' : kindOf(proc.command, proc.contained));
      ticks.set(proc.pid, { kind, ticks: proc.ticks });
    }
  });
  const seconds = new Map<string, number>();
  for (const { kind, ticks: used } of ticks.values()) seconds.set(kind, (seconds.get(kind) ?? 0) + used / TICKS_PER_SECOND);
  const self = process.cpuUsage(selfBefore);
  seconds.set('scribe (node, threads)', (self.user + self.system) / 1e6);
  return { value, seconds };
}

export function kindOf(command: string, contained: boolean): string {
  const where = contained ? 'contained run' : 'scribe';
  if (/^\S*bwrap\b/.test(command)) return 'contained run: bwrap';
  if (/chrom/i.test(command.split(' ')[0] ?? '')) return `${where}: chromium ${/--type=(\S+)/.exec(command)?.[1] ?? 'browser'}`;
  if (/tsgo|native-preview/.test(command)) return `${where}: native type checker`;
  if (/\bnode\b/.test(command.split(' ')[0] ?? '')) return `${where}: node ${/playwright|contained-cli|load-config|config/.exec(command)?.[0] ?? ''}`.trim();
  return `${where}: ${command.split(' ')[0]?.split('/').at(-1) ?? '?'}`;
}
