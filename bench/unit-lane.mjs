// The unit lane's cost: `npx vitest run --project unit`, its wall time, the CPU time it and its workers used
// (from /proc: cutime + cstime once it has exited) and the machine's load meanwhile. On a shared machine the wall
// time grows with the load; CPU seconds / 2 is what it would take on 2 idle cores.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TICKS = 100; // USER_HZ on Linux

function childCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat (cutime, cstime), counted from the state field (3).
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

const before = childCpuSeconds();
const loadBefore = loadavg()[0];
const started = performance.now();
const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', resolve);
});
const wall = (performance.now() - started) / 1000;
const cpu = childCpuSeconds() - before;
console.log(`vitest --project unit: exit ${code}`);
console.log(`  wall            ${wall.toFixed(1)} s`);
console.log(`  CPU (all procs) ${cpu.toFixed(1)} s  -> ${(cpu / 2).toFixed(1)} s on 2 idle cores`);
console.log(`  load average    ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after (${cpus().length} cores)`);
