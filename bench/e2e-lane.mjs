// The e2e lane's cost: `npx vitest run --project e2e [files…] [-- vitest options]`, its wall time, the CPU time
// of every process it started and each file's duration, slowest first, with the machine's load meanwhile.
// The CPU time comes from a cpuacct cgroup of its own where this process may make one (root on cgroup v1): that
// counts the processes a run orphans too (a browser's helpers, a sandbox's children). Elsewhere it is the
// reaped children's cutime + cstime, a lower bound. CPU seconds / cores is the lane's wall time on idle cores
// if it kept them all busy: far below the wall time, the lane waits rather than computes, and more workers help.
//   node bench/e2e-lane.mjs                                     the whole lane
//   node bench/e2e-lane.mjs test/agents/runner.test.ts -- --maxWorkers=3
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage } from './load.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TICKS = 100; // USER_HZ on Linux
const CPUACCT = '/sys/fs/cgroup/cpuacct';

const separator = process.argv.indexOf('--');
const files = process.argv.slice(2, separator === -1 ? undefined : separator);
const options = separator === -1 ? [] : process.argv.slice(separator + 1);

function childCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat (cutime, cstime), counted from the state field (3).
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

/** A cpuacct cgroup for the run, or undefined where this process may not make one. */
function cgroup() {
  const dir = path.join(CPUACCT, `scribe-e2e-lane-${process.pid}`);
  try {
    mkdirSync(dir);
    return dir;
  } catch {
    return undefined;
  }
}

const group = cgroup();
const output = mkdtempSync(path.join(tmpdir(), 'scribe-e2e-lane-'));
const report = path.join(output, 'report.json');
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...options, ...files];
// The shell joins the cgroup before it becomes vitest, so every process vitest starts is counted.
const command = group ? ['/bin/sh', ['-c', `echo $$ > ${group}/cgroup.procs && exec "$@"`, 'sh', process.execPath, ...vitest]] : [process.execPath, vitest];

const before = childCpuSeconds();
const loadBefore = loadAverage();
const started = performance.now();
const code = await new Promise((resolve) => {
  const child = spawn(command[0], command[1], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', resolve);
});
const wall = (performance.now() - started) / 1000;
const cpu = group ? Number(readFileSync(path.join(group, 'cpuacct.usage'), 'utf8')) / 1e9 : childCpuSeconds() - before;
const left = group ? readFileSync(path.join(group, 'cgroup.procs'), 'utf8').trim().split('\n').filter(Boolean) : [];
if (group && left.length === 0) rmdirSync(group);

const durations = JSON.parse(readFileSync(report, 'utf8')).testResults.map((file) => ({ file: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000, tests: file.assertionResults.length }));
rmSync(output, { recursive: true, force: true });
const cores = cpus().length;
console.log(`\nvitest --project e2e ${[...options, ...files].join(' ')}: exit ${code}`);
console.log(`  wall            ${wall.toFixed(1)} s`);
console.log(`  CPU             ${cpu.toFixed(1)} s (${group ? 'cgroup' : 'reaped children'})  -> ${(cpu / cores).toFixed(1)} s on ${cores} idle cores; ${(cpu / wall).toFixed(2)} cores busy on average`);
console.log(`  file time       ${durations.reduce((sum, file) => sum + file.seconds, 0).toFixed(1)} s over ${durations.length} files`);
console.log(`  load average    ${loadBefore} before, ${loadAverage()} after`);
if (left.length > 0) console.log(`  left running    ${left.length} processes in ${group}`);
for (const file of durations.sort((a, b) => b.seconds - a.seconds)) console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.file} (${file.tests})`);
process.exitCode = code === 0 ? 0 : 1;
