#!/usr/bin/env node
// bench/validate-speed.mjs at two git revisions, in turns (before, after, before, after, …), so a change's speed
// is compared at the same machine load: each revision is checked out in a temporary git worktree that shares
// this checkout's node_modules (so the two must have the same dependencies), and timed by this checkout's
// bench files, copied in, so both are measured the same way. Each round prints the revision and the load
// average it started at, then the bench's own table.
//
//   node bench/validate-speed-revisions.mjs <before> <after> [N=1000] [R=3] [--rounds=2] [--busy]
//
// e.g. node bench/validate-speed-revisions.mjs 626e4fa main 1000 3
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [before, after, count = '1000', runs = '3'] = positional;
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 2);
const busy = process.argv.includes('--busy');
if (!before || !after) {
  console.error('usage: node bench/validate-speed-revisions.mjs <before> <after> [N=1000] [R=3] [--rounds=2] [--busy]');
  process.exit(2);
}

/** The bench's own files, taken from this checkout into each worktree. */
const BENCH_FILES = ['validate-speed.mjs', 'load.mjs', 'eslint.config.mjs', path.join('fixtures', 'realistic.spec.ts')];

const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'scribe-speed-revisions-'));
const trees = [];
try {
  for (const [label, revision] of [['before', before], ['after', after]]) {
    const commit = git('rev-parse', '--verify', `${revision}^{commit}`);
    const dir = path.join(scratch, label);
    git('worktree', 'add', '--detach', dir, commit);
    trees.push({ label, revision, commit, dir });
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    for (const file of BENCH_FILES) copyFileSync(path.join(root, 'bench', file), path.join(dir, 'bench', file));
  }
  for (let round = 1; round <= rounds; round++) {
    for (const tree of trees) {
      const load = os.loadavg().map((n) => n.toFixed(2)).join(', ');
      console.log(`\n== round ${round}/${rounds}: ${tree.label} = ${tree.revision} (${tree.commit.slice(0, 10)}), load average ${load}`);
      const bench = spawnSync(process.execPath, [path.join('bench', 'validate-speed.mjs'), count, runs, ...(busy ? ['--busy'] : [])], { cwd: tree.dir, stdio: 'inherit' });
      if (bench.status !== 0) throw new Error(`the bench failed at ${tree.revision} (exit ${bench.status})`);
    }
  }
} finally {
  for (const tree of trees) git('worktree', 'remove', '--force', tree.dir);
  rmSync(scratch, { recursive: true, force: true });
}
