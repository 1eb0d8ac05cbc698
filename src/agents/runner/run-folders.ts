/**
 * The Runner's temporary run folders: named by time, the owning process's pid and a random tag, so a
 * later Scribe (the next run, a restarted server) removes those whose process died before it could
 * clean up. Light on purpose: the server imports it when it starts.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../util/fs.ts';

/** `<stamp>-<pid>-<random>`: sortable by time, and the pid says whether its owner still runs. */
const RUN_ID = /^\d{8}T\d{6}-(\d+)-([0-9a-f]{8})$/;
const RUN_DIR_PREFIX = 'run-';

export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${stamp}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * The run's folder. The temp root is created and taken by its real path, because Playwright reports
 * real paths and the Runner compares them with the spec's.
 */
export function workspaceDir(tempRoot: string, id: string): string {
  mkdirSync(tempRoot, { recursive: true });
  return path.join(realpathSync(tempRoot), `${RUN_DIR_PREFIX}${id}`);
}

/**
 * Whether `file` is a regular file inside `dir`: not a link, and not reached through a linked folder. What a
 * run wrote is read or copied only then, since code in the run can link a name Scribe reads (its report, a
 * screenshot, the error context) to any file of this machine, which Scribe would read with its own rights.
 */
export function regularFileInside(dir: string, file: string): boolean {
  try {
    return lstatSync(file).isFile() && isInside(realpathSync(dir), realpathSync(file));
  } catch {
    return false;
  }
}

export function removeWorkspace(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
}

/**
 * Run folders left by a Scribe process that no longer exists (killed before it could clean up); with
 * `includingOwn`, this process's too (it is exiting without waiting for its runs).
 */
export function removeAbandonedRuns(tempRoot: string, includingOwn = false): void {
  let entries: string[];
  try {
    entries = readdirSync(tempRoot);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = entry.startsWith(RUN_DIR_PREFIX) ? RUN_ID.exec(entry.slice(RUN_DIR_PREFIX.length))?.[1] : undefined;
    if (pid !== undefined && ((includingOwn && Number(pid) === process.pid) || !isAlive(Number(pid)))) removeWorkspace(path.join(tempRoot, entry));
  }
}

/** A contained run's scratch folders outside its run folder (its network folder, its TMPDIR without the OS sandbox). */
export type ScratchKind = 'net' | 'tmp';
const SCRATCH = /^scribe-(?:net|tmp)-(\d+)-[0-9a-f]{8}$/;

/** `scribe-<kind>-<pid>-<random>` of the run `id`: short (a socket's path may not be long), and its owner's pid in it. */
export function scratchName(kind: ScratchKind, id: string): string {
  const [, pid, tag] = RUN_ID.exec(id) ?? [];
  return `scribe-${kind}-${pid ?? process.pid}-${tag ?? randomBytes(4).toString('hex')}`;
}

/** Scratch folders in `dir` left by a Scribe process that no longer exists (killed with SIGKILL, say). */
export function removeAbandonedScratch(dir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = SCRATCH.exec(entry)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) removeWorkspace(path.join(dir, entry));
  }
}

export function isRunId(name: string): boolean {
  return RUN_ID.test(name);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
