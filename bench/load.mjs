// What the speed benches share: the median of runs, and one core kept busy as CI's other jobs would keep it.
import { spawn } from 'node:child_process';

/** The middle value (the upper middle of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** One core kept busy by a node loop that ends by itself within the hour; call the result to stop it. */
export function busyCore() {
  const loop = spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end) {}'], { stdio: 'ignore' });
  return () => loop.kill();
}
