/**
 * A cap on a contained run's whole memory (the browser's processes, Playwright's, the test's worker):
 * a memory cgroup of its own, a child of the one Scribe runs in, that the run joins before anything of
 * it starts. The JS heap flags cap only V8's heaps; Buffers, images, the GPU process and every renderer
 * are outside them, and RLIMIT_AS breaks Chromium (it reserves far more address space than it uses).
 * Where no memory cgroup can be made (cgroup v2 without the memory controller delegated to Scribe's
 * group, a read-only /sys/fs/cgroup, not Linux) there is no cap, and the run's report says so.
 *
 * A cgroup's name carries the owning Scribe's pid, so a later Scribe removes those a killed one left.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './run-folders.ts';

export interface MemoryCap {
  /** The cgroup's folder. */
  dir: string;
  bytes: number;
  /** Runs a command in the cgroup: it joins first, then execs the command, so nothing of the run starts outside. */
  prefix: string[];
  /** How many times the kernel killed a process of the run for going past the cap. */
  oomKills(): number;
  /** Removes the cgroup once its processes are gone. */
  close(): Promise<void>;
}

export type MemoryCapOutcome = { cap: MemoryCap } | { unavailable: string };

/** Where cgroups are, and which this process is in: parameters so tests can point them elsewhere. */
export interface CgroupHost {
  root: string;
  /** The text of /proc/self/cgroup. */
  membership: string;
}

const CAP_NAME = /^scribe-run-(\d+)-[0-9a-f]{8}$/;

export function hostCgroups(): CgroupHost | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return { root: '/sys/fs/cgroup', membership: readFileSync('/proc/self/cgroup', 'utf8') };
  } catch {
    return undefined;
  }
}

/** The memory cgroup this process is in, v2 (unified, memory delegated) or v1 (the memory controller's own hierarchy). */
export function memoryCgroupOf(host: CgroupHost): { dir: string; version: 1 | 2 } | string {
  const lines = host.membership.split('\n').map((line) => line.split(':'));
  const v1 = lines.find(([, controllers]) => controllers?.split(',').includes('memory'));
  if (v1) {
    const dir = path.join(host.root, 'memory', v1.slice(2).join(':'));
    return existsSync(path.join(dir, 'memory.limit_in_bytes')) ? { dir, version: 1 } : `no memory cgroup at ${dir}`;
  }
  const v2 = lines.find(([hierarchy, controllers]) => hierarchy === '0' && controllers === '');
  if (!v2) return 'this process is in no memory cgroup';
  const dir = path.join(host.root, v2.slice(2).join(':'));
  const delegated = readOr(path.join(dir, 'cgroup.subtree_control'), '').split(/\s+/).includes('memory');
  return delegated ? { dir, version: 2 } : `the memory controller is not delegated to ${dir} (cgroup.subtree_control)`;
}

/** A cgroup capped at `bytes` for one run named `tag` (8 hex digits), or why there is none here. */
export function openMemoryCap(tag: string, bytes: number, host: CgroupHost | undefined): MemoryCapOutcome {
  if (host === undefined) return { unavailable: 'no cgroups on this system' };
  const parent = memoryCgroupOf(host);
  if (typeof parent === 'string') return { unavailable: parent };
  const dir = path.join(parent.dir, `scribe-run-${process.pid}-${tag}`);
  try {
    mkdirSync(dir);
  } catch (error) {
    return { unavailable: `cannot make a cgroup under ${parent.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    if (parent.version === 1) {
      writeFileSync(path.join(dir, 'memory.limit_in_bytes'), String(bytes));
      // With swap accounting, swap counts too: the cap is memory and swap together.
      if (existsSync(path.join(dir, 'memory.memsw.limit_in_bytes'))) writeFileSync(path.join(dir, 'memory.memsw.limit_in_bytes'), String(bytes));
    } else {
      writeFileSync(path.join(dir, 'memory.max'), String(bytes));
      if (existsSync(path.join(dir, 'memory.swap.max'))) writeFileSync(path.join(dir, 'memory.swap.max'), '0');
    }
  } catch (error) {
    removeCgroup(dir);
    return { unavailable: `cannot set the memory limit of ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  const procs = path.join(dir, 'cgroup.procs');
  return {
    cap: {
      dir,
      bytes,
      prefix: ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', procs],
      oomKills: () => (parent.version === 1 ? v1OomKills(dir) : counter(readOr(path.join(dir, 'memory.events'), ''), 'oom_kill')),
      close: () => closeCgroup(dir),
    },
  };
}

/** Caps left by Scribe processes that no longer run (killed before they could remove theirs). */
export function removeAbandonedCaps(host: CgroupHost | undefined): void {
  const parent = host && memoryCgroupOf(host);
  if (parent === undefined || typeof parent === 'string') return;
  let entries: string[];
  try {
    entries = readdirSync(parent.dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = CAP_NAME.exec(entry)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) removeCgroup(path.join(parent.dir, entry));
  }
}

function v1OomKills(dir: string): number {
  // oom_kill in memory.oom_control is there from Linux 4.13; before it, a hit on the limit is the sign.
  const control = readOr(path.join(dir, 'memory.oom_control'), '');
  return /\boom_kill\b/.test(control) ? counter(control, 'oom_kill') : Number(readOr(path.join(dir, 'memory.failcnt'), '0')) > 0 ? 1 : 0;
}

function counter(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

/** The run's processes may take a moment to leave after its tree was killed; a cgroup with members cannot be removed. */
async function closeCgroup(dir: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!removeCgroup(dir) && Date.now() < deadline) await sleep(25);
}

function removeCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
