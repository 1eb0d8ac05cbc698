/**
 * What the proof run adds to a run: the Runner on the same good spec (demo app search: fill, click,
 * assert the result) with and without its proof, contained as in a generation (each run launches its browser inside its boundary),
 * alternating. Prints the medians, the added time and the ratio (goal: at most +25%), and the CPU seconds of
 * the run's processes (bench/process-cpu.ts: sampled, a lower bound), which the machine's load moves far less
 * than the wall time; the load average at the start and the end.
 *
 *   node --import tsx bench/proof-overhead.ts [runs=5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { loadAverage, median } from './load.mjs';
import { cpuByKind, SAMPLER } from './process-cpu.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { PROOF_BENCH_SPEC } from './proof-spec.ts';

const runs = Number(process.argv[2] ?? 5);
const app = await startDemoApp();
const work = mkdtempSync(path.join(tmpdir(), 'scribe-proof-bench-'));
try {
  console.log(`load average at start ${loadAverage()}`);
  const times = { plain: [] as number[], proof: [] as number[] };
  const cpu = { plain: [] as number[], proof: [] as number[] };
  const run = async (proof: boolean) => {
    const start = performance.now();
    const { value: report, seconds } = await cpuByKind(() => runSpec({ specText: PROOF_BENCH_SPEC, fileName: 'search.spec.ts', baseURL: app.url, cwd: work, untrusted: true, ...bundledRunTarget(), ...(proof ? { proof: {} } : {}) }));
    const ms = performance.now() - start;
    if (report.classification !== 'pass' || (proof && report.proof?.verdict !== 'proved')) throw new Error(`unexpected run: ${report.classification} ${report.proof?.verdict ?? ''} ${report.error_message ?? ''}`);
    // This process's own CPU is the bench's (and the sampling's), not the run's.
    seconds.delete('scribe (node, threads)');
    seconds.delete(SAMPLER);
    return { ms, cpu: [...seconds.values()].reduce((sum, n) => sum + n, 0) };
  };
  // One of each first, not timed: the browser and the file caches warm up.
  await run(false);
  await run(true);
  for (let i = 0; i < runs; i++) {
    for (const proof of [false, true]) {
      const measured = await run(proof);
      times[proof ? 'proof' : 'plain'].push(measured.ms);
      cpu[proof ? 'proof' : 'plain'].push(measured.cpu);
    }
  }
  const plain = median(times.plain);
  const proof = median(times.proof);
  console.log(`${runs} rounds, demo app search spec, contained; medians`);
  console.log(`run without proof   ${(plain / 1000).toFixed(2)} s   (runs: ${times.plain.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`);
  console.log(`run with proof      ${(proof / 1000).toFixed(2)} s   (runs: ${times.proof.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`);
  console.log(`added by the proof  ${((proof - plain) / 1000).toFixed(2)} s = +${(((proof - plain) / plain) * 100).toFixed(0)}% (goal <= +25%)`);
  const cpuPlain = median(cpu.plain);
  const cpuProof = median(cpu.proof);
  console.log(`CPU s of the run    ${cpuPlain.toFixed(2)} without, ${cpuProof.toFixed(2)} with: the proof adds ${(cpuProof - cpuPlain).toFixed(2)} CPU s (runs with: ${cpu.proof.map((s) => s.toFixed(2)).join(', ')})`);
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
