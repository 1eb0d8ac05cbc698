// What the speed benches share: the median of runs, and one core kept busy as CI's other jobs would keep it.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

/** The middle value (the upper middle of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** One core kept busy by a node loop that ends by itself within the hour; call the result to stop it. */
export function busyCore() {
  const loop = spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end) {}'], { stdio: 'ignore' });
  return () => loop.kill();
}

/** The machine's load averages (1, 5, 15 minutes), as the benches print them beside their figures. */
export function loadAverage() {
  return loadavg().map((n) => n.toFixed(2)).join(' ');
}

/** The number of runs given as the bench's first argument, else the fallback: a whole number of at least 1. */
export function runsArgument(fallback) {
  const runs = Number(process.argv[2] ?? fallback);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs ${process.argv[2]}: a whole number of at least 1`);
  return runs;
}
