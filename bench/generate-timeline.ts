/**
 * Where one whole `scribe generate` spends its wall time: the command of bench/generate-command.ts (the demo
 * app's login, the offline provider, the proof run included), run once untimed to warm the caches, then once
 * under bench/timeline.ts's sampler. Prints, on one clock from the command's start, each line the command
 * shows on the terminal (its stage marks) and each process of its tree (when it started, when it was last
 * seen, its CPU seconds), grouped per kind where a kind has many (Chromium's helpers), then the cores the
 * command and the whole machine used per second.
 *
 *   nice -n 15 node --import tsx bench/generate-timeline.ts [sample-ms=50]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { loadAverage } from './load.mjs';
import { sampleTimeline, type ProcessSpan } from './timeline.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const everyMs = Number(process.argv[2] ?? 50);
if (!Number.isInteger(everyMs) || everyMs < 10) throw new Error(`sample-ms must be a whole number of milliseconds, at least 10 (got ${process.argv[2]})`);

interface Mark {
  atMs: number;
  line: string;
}

/** Runs the command, its output lines stamped on arrival (Date.now, the sampler's clock). */
function generate(work: string, env: NodeJS.ProcessEnv, url: string): Promise<{ marks: Mark[]; exitedMs: number; code: number | null }> {
  const marks: Mark[] = [];
  const args = ['generate', 'log in with valid credentials and see the dashboard', '--url', url, '--feature', 'bench', '--provider', 'offline', '--force'];
  const child = spawn(process.execPath, [path.join(root, 'bin', 'scribe.js'), ...args], { cwd: work, env });
  const stamp = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) marks.push({ atMs: Date.now(), line: line.replace(/\x1b\[[0-9;]*m/g, '').slice(0, 110) });
  };
  child.stdout.on('data', stamp);
  child.stderr.on('data', stamp);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ marks, exitedMs: Date.now(), code })));
}

const app = await startDemoApp();
mkdirSync(path.join(root, 'bench', 'work'), { recursive: true });
const work = mkdtempSync(path.join(root, 'bench', 'work', 'timeline-'));
const env = { ...process.env, FORCE_COLOR: '0', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: path.join(work, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
try {
  writeFileSync(path.join(work, 'package.json'), '{ "type": "module" }\n');
  const warm = await generate(work, env, `${app.url}/login`);
  if (warm.code !== 0) throw new Error(`the warm-up generate failed (exit ${warm.code}):\n${warm.marks.map((m) => m.line).join('\n')}`);
  console.log(`load average at start ${loadAverage()}; sampling every ${everyMs} ms`);
  const timeline = await sampleTimeline(() => generate(work, env, `${app.url}/login`), everyMs);
  const { marks, exitedMs, code } = timeline.value;
  const t = (ms: number) => `${((ms - timeline.startMs) / 1000).toFixed(2).padStart(6)} s`;
  const events = [
    ...marks.map((mark) => ({ atMs: mark.atMs, text: `| ${mark.line}` })),
    // The kernel's start times are in 10 ms steps from a boot time in whole seconds: a process may show up to a second early.
    // Processes older than that are this bench's own (tsx's esbuild), not the command's.
    ...groupedSpans(timeline.processes.filter((span) => span.startMs > timeline.startMs - 1000)).map((span) => ({ atMs: span.startMs, text: `+ ${span.label.padEnd(44)} until ${t(span.lastSeenMs)}  ${span.cpuSeconds.toFixed(2)} CPU s` })),
    { atMs: exitedMs, text: `= the command exited (code ${code})` },
  ].sort((a, b) => a.atMs - b.atMs);
  console.log('time from start; | a line the command printed; + a process of its tree (start, last seen, CPU)');
  for (const event of events) console.log(`${t(event.atMs)}  ${event.text}`);
  console.log('cores used per second (the command’s tree / the whole machine):');
  const perSecond = new Map<number, { ours: number; machine: number; n: number }>();
  for (const busy of timeline.busy) {
    const second = Math.floor((busy.atMs - timeline.startMs) / 1000);
    const sum = perSecond.get(second) ?? { ours: 0, machine: 0, n: 0 };
    perSecond.set(second, { ours: sum.ours + busy.ours, machine: sum.machine + busy.machine, n: sum.n + 1 });
  }
  for (const [second, sum] of perSecond) console.log(`  ${String(second).padStart(3)}-${second + 1} s  ${(sum.ours / sum.n).toFixed(2)} / ${(sum.machine / sum.n).toFixed(2)}`);
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await app.close();
  rmSync(work, { recursive: true, force: true });
}

/** One line per process, but one per kind and run for kinds with several (Chromium's renderers, zygotes, utilities). */
function groupedSpans(spans: ProcessSpan[]): Array<{ label: string; startMs: number; lastSeenMs: number; cpuSeconds: number }> {
  const groups = new Map<string, ProcessSpan[]>();
  for (const span of spans) {
    const key = `${span.kind}|${span.run ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), span]);
  }
  return [...groups.values()].map((group) => ({
    label: group.length === 1 ? `${group[0]!.kind} (${group[0]!.pid})` : `${group[0]!.kind} ×${group.length}`,
    startMs: Math.min(...group.map((span) => span.startMs)),
    lastSeenMs: Math.max(...group.map((span) => span.lastSeenMs)),
    cpuSeconds: group.reduce((sum, span) => sum + span.cpuSeconds, 0),
  }));
}
