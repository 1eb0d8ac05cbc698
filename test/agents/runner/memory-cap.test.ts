/**
 * Where a run's memory cap goes: the memory cgroup this process is in (v1 or v2 with memory delegated),
 * read from a cgroup tree made of real folders; and the caps and scratch folders a killed Scribe left,
 * removed by the next one. The cap at work (a process past it stopped by the kernel) is in
 * test/agents/runner-hostile.test.ts (15-memory-hog).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryCgroupOf, openMemoryCap, removeAbandonedCaps } from '../../../src/agents/runner/memory-cap.ts';
import { removeAbandonedScratch, scratchName } from '../../../src/agents/runner/run-folders.ts';
import { writeFiles } from '../../fixtures/files.ts';

/** Above Linux's largest pid (2^22): no process has it. */
const GONE_PID = 4_194_400;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function cgroupRoot(layout: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'scribe-cgroup-test-'));
  roots.push(root);
  writeFiles(root, layout);
  return root;
}

describe('memoryCgroupOf', () => {
  it('finds a v1 memory cgroup, its controller alone or joined with others', () => {
    const root = cgroupRoot({ 'memory/jobs/a1/memory.limit_in_bytes': '9223372036854771712\n' });
    expect(memoryCgroupOf({ root, membership: '9:name=systemd:/\n4:memory:/jobs/a1\n0::/\n' })).toEqual({ dir: path.join(root, 'memory/jobs/a1'), version: 1 });
    expect(memoryCgroupOf({ root, membership: '4:memory,hugetlb:/jobs/a1\n' })).toEqual({ dir: path.join(root, 'memory/jobs/a1'), version: 1 });
  });

  it('finds a v2 cgroup only where the memory controller is delegated to it', () => {
    const root = cgroupRoot({ 'user.slice/scribe/cgroup.subtree_control': 'cpu memory pids\n', 'user.slice/other/cgroup.subtree_control': 'cpu pids\n' });
    expect(memoryCgroupOf({ root, membership: '0::/user.slice/scribe\n' })).toEqual({ dir: path.join(root, 'user.slice/scribe'), version: 2 });
    expect(memoryCgroupOf({ root, membership: '0::/user.slice/other\n' })).toMatch(/memory controller is not delegated to .*other/);
  });

  it('says why there is none: no memory line, or no such folder', () => {
    const root = cgroupRoot({});
    expect(memoryCgroupOf({ root, membership: '1:cpu:/\n' })).toBe('this process is in no memory cgroup');
    expect(memoryCgroupOf({ root, membership: '4:memory:/gone\n' })).toMatch(/^no memory cgroup at /);
  });
});

describe('openMemoryCap', () => {
  it('falls back with the reason where no cgroup can be made', () => {
    expect(openMemoryCap('0badf00d', 1 << 30, undefined)).toEqual({ unavailable: 'no cgroups on this system' });
    const root = cgroupRoot({ 'user.slice/cgroup.subtree_control': 'cpu\n' });
    expect(openMemoryCap('0badf00d', 1 << 30, { root, membership: '0::/user.slice\n' })).toEqual({ unavailable: expect.stringMatching(/not delegated/) });
  });

  it('makes a capped cgroup named with this process, joined by the command before it execs', () => {
    const root = cgroupRoot({ 'memory/job/memory.limit_in_bytes': '0' });
    const outcome = openMemoryCap('0badf00d', 512 * 1024 * 1024, { root, membership: '4:memory:/job\n' });
    if (!('cap' in outcome)) throw new Error(outcome.unavailable);
    expect(path.basename(outcome.cap.dir)).toBe(`scribe-run-${process.pid}-0badf00d`);
    expect(outcome.cap.prefix.at(-1)).toBe(path.join(outcome.cap.dir, 'cgroup.procs'));
    expect(outcome.cap.oomKills()).toBe(0);
  });
});

describe('after a Scribe was killed', () => {
  it('removes the caps whose owner is gone, and only those', () => {
    const root = cgroupRoot({ 'memory/job/memory.limit_in_bytes': '0' });
    const dir = (name: string) => path.join(root, 'memory/job', name);
    for (const name of [`scribe-run-${GONE_PID}-0badf00d`, `scribe-run-${process.pid}-0badf00d`, `other-${GONE_PID}`]) mkdirSync(dir(name));
    removeAbandonedCaps({ root, membership: '4:memory:/job\n' });
    expect(existsSync(dir(`scribe-run-${GONE_PID}-0badf00d`))).toBe(false);
    expect(existsSync(dir(`scribe-run-${process.pid}-0badf00d`))).toBe(true);
    expect(existsSync(dir(`other-${GONE_PID}`))).toBe(true);
  });

  it("removes the network and temporary folders whose owner is gone, with what they hold", () => {
    const root = cgroupRoot({});
    const gone = scratchName('net', `20261125T201500-${GONE_PID}-0badf00d`);
    const live = scratchName('tmp', `20261125T201500-${process.pid}-0badf00d`);
    expect([gone, live]).toEqual([`scribe-net-${GONE_PID}-0badf00d`, `scribe-tmp-${process.pid}-0badf00d`]);
    for (const name of [gone, live, 'scribe-net-notes']) mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, gone, 'hosts'), '127.0.0.1 localhost\n');
    removeAbandonedScratch(root);
    expect(existsSync(path.join(root, gone))).toBe(false);
    expect(existsSync(path.join(root, live))).toBe(true);
    expect(existsSync(path.join(root, 'scribe-net-notes'))).toBe(true);
  });
});
