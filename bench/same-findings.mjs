#!/usr/bin/env node
// Whether a change kept `scribe validate` the same: the `--json` report of two commits, byte for byte, on this
// repository's test corpus (test/fixtures, bench/fixtures) and on the public suites of bench/corpus/sources.json
// found in FOLDER. Each report is taken twice per commit: with the default preset, and with --untrusted (the
// allow-list gate). The base commit runs from a temporary git worktree that shares this checkout's node_modules.
//
//   node bench/same-findings.mjs BASE_REF [--corpus FOLDER] [--no-type-check]
//
// Prints one line per report (same / DIFFERENT, its size, both wall times) and exits 1 when any report differs.
// A suite Scribe cannot load (exit 2, e.g. a Playwright config needing a package not installed) is compared by its
// exit code and first error line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const baseRef = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
if (!baseRef) {
  process.stderr.write('usage: node bench/same-findings.mjs BASE_REF [--corpus FOLDER] [--no-type-check]\n');
  process.exit(2);
}
const corpusFolder = option('corpus');
const typeCheck = args.includes('--no-type-check') ? ['--no-type-check'] : [];

const SPEC_FILE = /\.(spec|test)\.(c|m)?[jt]sx?$/;
const SKIPPED = new Set(['node_modules', '.git', 'test-results', 'playwright-report', '.scribe']);

/** Files under dir (relative to base) whose relative path the predicate takes, sorted. */
function filesUnder(dir, base, take) {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(full);
      } else if (take(path.relative(base, full))) found.push(path.relative(base, full));
    }
  };
  walk(dir);
  return found.sort();
}

/** Each corpus: where scribe runs and the spec files it is given by name (so no Playwright config selects them). */
function corpora() {
  const own = [{ name: 'scribe-fixtures', cwd: root, files: ['test/fixtures', 'bench/fixtures'].flatMap((d) => filesUnder(path.join(root, d), root, (f) => SPEC_FILE.test(f))) }];
  if (!corpusFolder) return own;
  const { sources } = JSON.parse(readFileSync(path.join(root, 'bench', 'corpus', 'sources.json'), 'utf8'));
  const suites = sources
    .filter((source) => existsSync(path.join(corpusFolder, source.name)))
    .map((source) => {
      const cwd = path.resolve(corpusFolder, source.name, source.cwd);
      const include = new RegExp(source.include);
      return { name: source.name, cwd, files: filesUnder(cwd, cwd, (f) => include.test(f)) };
    });
  return [...own, ...suites];
}

function git(...gitArgs) {
  const result = spawnSync('git', gitArgs, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${gitArgs.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Runs one checkout's scribe validate --json; its report (stdout) and wall time. Exit 0 or 1 only. */
function report(checkout, corpus, extra) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'scribe-same-findings-home-'));
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [path.join(checkout, 'bin', 'scribe.js'), 'validate', '--json', ...typeCheck, ...extra, ...corpus.files], {
    cwd: corpus.cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, SCRIBE_HOME: home },
  });
  rmSync(home, { recursive: true, force: true });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // A suite whose setup Scribe cannot load (exit 2) is compared too: the same exit and the same first line of error.
  const text = result.status === 0 || result.status === 1 ? result.stdout : `exit ${result.status}: ${result.stderr.split('\n')[0]}`;
  return { text, seconds, status: result.status };
}

const baseCommit = git('rev-parse', baseRef);
const baseCheckout = mkdtempSync(path.join(os.tmpdir(), 'scribe-same-findings-base-'));
git('worktree', 'add', '--detach', baseCheckout, baseCommit);
let differences = 0;
try {
  symlinkSync(path.join(root, 'node_modules'), path.join(baseCheckout, 'node_modules'));
  process.stdout.write(`base ${baseCommit.slice(0, 10)} (${baseRef}) against this checkout (${git('rev-parse', 'HEAD').slice(0, 10)}${git('status', '--porcelain', '--untracked-files=no') ? ', with uncommitted changes' : ''})\n`);
  for (const corpus of corpora()) {
    for (const extra of [[], ['--untrusted']]) {
      const before = report(baseCheckout, corpus, extra);
      const after = report(root, corpus, extra);
      const same = before.text === after.text;
      if (!same) differences++;
      const label = `${corpus.name}${extra.length ? ' ' + extra.join(' ') : ''}`;
      const size = after.status === 0 || after.status === 1 ? `${String(after.text.length).padStart(9)} bytes` : `   exit ${after.status}`;
      process.stdout.write(`${same ? 'same     ' : 'DIFFERENT'} ${label.padEnd(36)} ${String(corpus.files.length).padStart(5)} files ${size}  base ${before.seconds.toFixed(1)} s, now ${after.seconds.toFixed(1)} s\n`);
    }
  }
} finally {
  git('worktree', 'remove', '--force', baseCheckout);
}
process.stdout.write(differences === 0 ? 'every report byte-identical\n' : `${differences} report(s) differ\n`);
process.exit(differences === 0 ? 0 : 1);
