/**
 * Where the proof copy's time goes: one contained run of bench/proof-overhead.ts's spec with its proof, as a
 * generation runs it (trace on), after one untimed warm-up. Playwright's runner logs every message between it
 * and its two workers (DEBUG=pw:test:protocol, let into the contained run for this bench only); from them, on one
 * clock from runSpec's call, each worker's start, its tests' steps (hooks, fixtures, actions, assertions) and its
 * end, the spec's worker beside the copy's; then each process of the run (start, last seen, CPU seconds) and
 * when runSpec returned.
 *
 *   nice -n 15 node --import tsx bench/proof-timeline.ts [sample-ms=50]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { loadRunnerConfig } from '../src/config/runner.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { loadAverage } from './load.mjs';
import { PROOF_BENCH_SPEC } from './proof-spec.ts';
import { sampleTimeline } from './timeline.ts';

const everyMs = Number(process.argv[2] ?? 50);
if (!Number.isInteger(everyMs) || everyMs < 10) throw new Error(`sample-ms must be a whole number of milliseconds, at least 10 (got ${process.argv[2]})`);

interface Message {
  atMs: number;
  direction: 'SEND' | 'RECV';
  method: string;
  params: Record<string, unknown>;
}

/** The runner's protocol log lines (`<ISO time> <namespace> ◀ RECV {…}` / `SEND ► {…}`), dispatched calls unwrapped. */
function messagesOf(output: string): Message[] {
  const messages: Message[] = [];
  for (const line of output.split('\n')) {
    const match = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) .*?(◀ RECV|SEND ►) (\{.*\})$/.exec(line);
    if (!match) continue;
    const body = JSON.parse(match[3]!) as { method: string; params?: { method?: string; params?: Record<string, unknown> } & Record<string, unknown> };
    const dispatched = body.method === '__dispatch__' && body.params?.method !== undefined;
    messages.push({
      atMs: Date.parse(match[1]!),
      direction: match[2]!.includes('RECV') ? 'RECV' : 'SEND',
      method: dispatched ? body.params!.method! : body.method,
      params: (dispatched ? body.params!.params : body.params) ?? {},
    });
  }
  return messages;
}

interface Event {
  atMs: number;
  worker: string;
  text: string;
}

/** Per worker: its start (ready), each hook's and top-level step's span, the test's end and the worker's done. */
function eventsOf(messages: Message[]): Event[] {
  const fileOfTest = new Map<string, string>();
  const label = (file: string) => (file.includes('.proof.') ? 'copy' : 'spec');
  const workerFiles: string[] = [];
  const steps = new Map<string, { testId: string; title: string; category: string; parentStepId?: string; startMs: number }>();
  const events: Event[] = [];
  let readies = 0;
  for (const message of messages) {
    const p = message.params;
    if (message.method === 'ready') readies++;
    if (message.method === 'runTestGroup') {
      const file = String(p.file);
      workerFiles.push(file);
      for (const entry of p.entries as Array<{ testId: string }>) fileOfTest.set(entry.testId, file);
      events.push({ atMs: message.atMs, worker: label(file), text: `worker ${readies} ready, given ${file}` });
    }
    const worker = typeof p.testId === 'string' ? label(fileOfTest.get(p.testId) ?? '?') : '';
    if (message.method === 'testBegin') events.push({ atMs: Number(p.startWallTime), worker, text: 'test begins' });
    if (message.method === 'stepBegin') {
      steps.set(String(p.stepId), { testId: String(p.testId), title: `${String(p.title)}${p.subtitle ? ` ${String(p.subtitle)}` : ''}`, category: String(p.category), ...(p.parentStepId ? { parentStepId: String(p.parentStepId) } : {}), startMs: Number(p.wallTime) });
    }
    if (message.method === 'stepEnd') {
      const step = steps.get(String(p.stepId));
      if (!step) continue;
      const parent = step.parentStepId ? steps.get(step.parentStepId) : undefined;
      // The test's own lines and what the hooks do (fixtures set up and torn down); not every call inside a fixture.
      if (parent && parent.category !== 'hook') continue;
      const failed = p.error ? ' FAILED' : '';
      events.push({ atMs: step.startMs, worker, text: `${parent ? '  ' : ''}${step.category.padEnd(8)} ${step.title.slice(0, 60)}  ${Number(p.wallTime) - step.startMs} ms${failed}` });
    }
    if (message.method === 'attach') events.push({ atMs: message.atMs, worker, text: `attach ${String(p.name).replace(/-[0-9a-f]{24}$/, '-…')}` });
    if (message.method === 'testEnd') events.push({ atMs: message.atMs, worker, text: `test ends: ${String(p.status)} (${String(p.duration)} ms)` });
    if (message.method === 'done') events.push({ atMs: message.atMs, worker: '', text: 'a worker is done' });
    if (message.method === '__stop__') events.push({ atMs: message.atMs, worker: '', text: 'the runner stops a worker' });
  }
  return events;
}

const app = await startDemoApp();
const work = mkdtempSync(path.join(tmpdir(), 'scribe-proof-timeline-'));
const runner = loadRunnerConfig();
// The protocol log is long: all of it is kept in the report's output.
const config = { ...runner, report: { ...runner.report, max_output_chars: 5_000_000 } };
const run = (env: NodeJS.ProcessEnv) =>
  runSpec({ specText: PROOF_BENCH_SPEC, fileName: 'search.spec.ts', baseURL: app.url, cwd: work, untrusted: true, env, allowedEnv: ['DEBUG'], ...bundledRunTarget(config), proof: {} });
try {
  await run(process.env);
  console.log(`load average at start ${loadAverage()}; sampling every ${everyMs} ms`);
  const timeline = await sampleTimeline(() => run({ ...process.env, DEBUG: 'pw:test:protocol' }), everyMs);
  const report = timeline.value;
  if (report.classification !== 'pass' || report.proof?.verdict !== 'proved') throw new Error(`unexpected run: ${report.classification} ${report.proof?.verdict ?? ''} ${report.error_message ?? ''}`);
  const t = (ms: number) => `${((ms - timeline.startMs) / 1000).toFixed(2).padStart(6)} s`;
  const events = eventsOf(messagesOf(report.segment?.content ?? ''));
  console.log('time from runSpec\'s call; [spec] / [copy]: its worker\'s events (step start, duration); + a process of the run (start, last seen, CPU)');
  const lines = [
    ...events.map((e) => ({ atMs: e.atMs, text: `${e.worker ? `[${e.worker}]` : '      '} ${e.text}` })),
    ...timeline.processes.filter((span) => span.startMs > timeline.startMs - 1000).map((span) => ({ atMs: span.startMs, text: `+ ${span.kind.padEnd(40)} until ${t(span.lastSeenMs)}  ${span.cpuSeconds.toFixed(2)} CPU s` })),
    { atMs: timeline.endMs, text: `= runSpec returned (proof ${report.proof.verdict})` },
  ].sort((a, b) => a.atMs - b.atMs);
  for (const line of lines) console.log(`${t(line.atMs)}  ${line.text}`);
  const contained = timeline.processes.filter((span) => span.kind.startsWith('contained run'));
  const byKind = new Map<string, number>();
  for (const span of contained) byKind.set(span.kind, (byKind.get(span.kind) ?? 0) + span.cpuSeconds);
  console.log(`contained run CPU s: ${[...byKind].sort((a, b) => b[1] - a[1]).map(([kind, s]) => `${kind.replace('contained run: ', '')} ${s.toFixed(2)}`).join(', ')}`);
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
