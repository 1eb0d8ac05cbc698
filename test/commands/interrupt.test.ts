/**
 * Stopping Scribe mid-work, through the real binary: `scribe generate` on SIGTERM, a batch of two
 * generations at once (each in its worker thread) on SIGTERM, and `scribe serve` stopped with two signals
 * and started again. Every generation ends with exactly one outcome in the
 * statistics, no run folder is left behind, and a restarted server still answers for its jobs.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { DEFAULT_RUNNER_PATH } from '../../src/config/runner.ts';
import type { JobView } from '../../src/contracts.ts';
import { StatsLog } from '../../src/stats/log.ts';
import type { StatsEvent } from '../../src/stats/events.ts';
import { readBatches } from '../../src/workflow/batch.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { startSlowApp, type SlowApp } from '../fixtures/slow-app.ts';
import { runCli } from './harness.ts';

const BIN = fileURLToPath(new URL('../../bin/scribe.js', import.meta.url));

let project: ScribeProject;
let app: SlowApp;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  project = makeScribeProject();
  app = await startSlowApp();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await app.close();
  project.remove();
});

/** The real binary, offline provider, with the project's Scribe home. */
function scribe(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: project.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home } });
  children.push(child);
  return child;
}

function runFolders(): string[] {
  const temp = path.join(project.home, 'tmp');
  return existsSync(temp) ? readdirSync(temp).filter((name) => name.startsWith('run-')) : [];
}

function outcomes(): Array<Extract<StatsEvent, { type: 'success' | 'give_up' }>> {
  return new StatsLog(project.home).read().filter((e): e is Extract<StatsEvent, { type: 'success' | 'give_up' }> => e.type === 'success' || e.type === 'give_up');
}

async function until(predicate: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('scribe generate: SIGTERM during a run', () => {
  it('stops the run, exits 143, records one interrupted outcome and leaves no run folder', async () => {
    const child = scribe(['generate', 'see the reports page', '--url', app.url, '--provider', 'offline']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    // Explored while the app answers; the Runner's page load is then held, so the run stays under way.
    await until(() => /test ids? on \d+ page/.test(stderr), 'the page explored');
    app.hold();
    await until(() => app.held() > 0 && runFolders().length > 0, 'the Runner loading the page');

    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(143);
    expect(stderr).toContain('stopped by SIGTERM');
    expect(runFolders()).toEqual([]);
    expect(outcomes()).toEqual([expect.objectContaining({ type: 'give_up', reason: 'interrupted', error: 'stopped by SIGTERM' })]);
    const stats = JSON.parse((await runCli(['stats', '--json'], { cwd: project.dir, env: { SCRIBE_HOME: project.home } })).stdout);
    expect(stats).toMatchObject({ generations: 1, generations_succeeded: 0, generations_gave_up: 1 });
  });
});

describe('scribe generate --plan: SIGTERM while its worker threads run', { timeout: 300_000 }, () => {
  it('stops every generation, exits 143 saying so, leaves no run folder and records no batch', async () => {
    // A grace a loaded machine cannot run out of: a thread in the middle of a type check sees the abort only
    // after it. A thread that ignored the abort would hold its run on the held page past it (runner run_ms).
    const runner = parseDocument(readFileSync(DEFAULT_RUNNER_PATH, 'utf8'));
    runner.setIn(['timeouts', 'kill_grace_ms'], 30_000);
    writeFileSync(path.join(project.dir, 'agents', 'runner.yaml'), runner.toString());
    const scenario = (request: string) => ({ request, page: '/', steps: [], expected: 'the reports page shows it' });
    const plan = { version: 1, app: app.url, planner: 'offline', scenarios: [scenario('see the reports page'), scenario('refresh the reports page')] };
    writeFileSync(path.join(project.dir, 'plan.json'), JSON.stringify(plan));
    const child = scribe(['generate', '--plan', 'plan.json', '--workers', '2']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    // Both scenarios under way in their threads; once a Runner has its run folder, every page load is held.
    await until(() => /\[2\/2\] worker \d/.test(stderr) && runFolders().length > 0, 'both scenarios started, a run under way', 240_000);
    app.hold();

    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code, stderr).toBe(143);
    expect(stderr).toContain('stopped by SIGTERM');
    expect(runFolders()).toEqual([]);
    expect(readBatches(project.home)).toEqual([]);
  });
});

describe('scribe serve: stopped hard, then started again', () => {
  it('answers for a finished job as it ended and a running one as interrupted; outcomes once; run folders gone', async () => {
    const first = scribe(['serve', '--port', '0']);
    const url = String((await nextLog(first, 'listening')).url);
    const post = async (body: unknown) => (await (await fetch(`${url}/v1/generate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { id: string };
    const job = async (base: string, id: string) => (await (await fetch(`${base}/v1/jobs/${id}`)).json()) as JobView;

    const finished = await post({ description: 'see the reports page', url: app.url, run: false, provider: 'offline' });
    await until(async () => (await job(url, finished.id)).status === 'done', 'the first job done');
    const running = await post({ description: 'refresh the reports', url: app.url, provider: 'offline' });
    await until(async () => (await job(url, running.id)).stages.some((s) => s.stage === 'explore' && s.status === 'done'), 'the second job explored');
    app.hold();
    await until(() => app.held() > 0 && runFolders().length > 0, 'the second job running its spec');

    // The first signal starts a graceful stop (30 s of grace); the second exits at once.
    first.kill('SIGTERM');
    await nextLog(first, 'shutting down');
    first.kill('SIGTERM');
    const [code] = (await once(first, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(runFolders()).toEqual([]);

    const second = scribe(['serve', '--port', '0']);
    const again = String((await nextLog(second, 'listening')).url);
    expect(await job(again, finished.id)).toMatchObject({ status: 'done', exit_code: 0, result: { success: true } });
    const interrupted = await job(again, running.id);
    expect(interrupted).toMatchObject({ status: 'failed', interrupted: true, error: 'the server stopped before the job finished (it was running)' });
    expect(interrupted.stages.some((s) => s.stage === 'explore')).toBe(true);
    expect((await fetch(`${again}/v1/jobs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).status).toBe(404);

    const ended = outcomes();
    expect(ended.map((e) => [e.generation, e.type, 'reason' in e ? e.reason : null])).toEqual([
      [finished.id, 'success', null],
      [running.id, 'give_up', 'interrupted'],
    ]);
    second.kill('SIGTERM');
    expect((await once(second, 'exit'))[0]).toBe(0);
  });
});

/** Waits for the child's next JSON log line with that msg. */
async function nextLog(child: ChildProcessWithoutNullStreams, msg: string): Promise<Record<string, unknown>> {
  const lines = createInterface({ input: child.stdout });
  try {
    for await (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.msg === msg) return entry;
    }
  } finally {
    lines.close();
  }
  throw new Error(`scribe exited before logging "${msg}"`);
}
