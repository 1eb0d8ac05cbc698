/**
 * What keeping a Playwright trace of every run costs (agents/runner.yaml `artifacts.trace`, on by default):
 * the same passing spec (a sign-in, a search, six assertions on the demo app) through the contained run
 * (runSpec, untrusted, as a generation runs it) with the trace as Scribe records it (DOM snapshots), with
 * its screencast added (`artifacts.trace_screenshots`), and with none, alternating so all see the same
 * load. Prints the median CPU seconds of the run's processes and wall time of each, and of the kept trace
 * its size and what it holds (recorded calls, DOM snapshots, screencast frames).
 *
 *   node --import tsx bench/trace-cost.ts [runs=7]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { loadRunnerConfig } from '../src/config/runner.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { cpuByKind, SAMPLER } from './process-cpu.ts';
import { loadAverage, median, runsArgument } from './load.mjs';

const runs = runsArgument(7);
const load = loadAverage;
console.log(`machine: ${cpus().length} cores; load average at start ${load()}`);

const SPEC = `import { test, expect } from '@playwright/test';

test('signs in, then searches', async ({ page }) => {
  await test.step('sign in', async () => {
    await page.goto('/login');
    await page.getByTestId('username-input').fill(process.env.E2E_USERNAME!);
    await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD!);
    await page.getByTestId('login-button').click();
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await expect(page.getByTestId('current-user')).toContainText(process.env.E2E_USERNAME!);
  });
  await test.step('search', async () => {
    await page.goto('/search');
    await expect(page.getByTestId('search-heading')).toBeVisible();
    await page.getByTestId('search-input').fill('playwright');
    await page.getByTestId('search-button').click();
    await expect(page.getByTestId('search-results')).toBeVisible();
    await expect(page.getByTestId('search-status')).not.toBeEmpty();
  });
});
`;

interface Variant {
  name: string;
  trace: boolean;
  screenshots: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'trace as Scribe records it (DOM snapshots)', trace: true, screenshots: false },
  { name: 'trace with its screencast (artifacts.trace_screenshots)', trace: true, screenshots: true },
  { name: 'no trace', trace: false, screenshots: false },
];

interface Sample {
  wall: number;
  cpu: number;
  trace?: { bytes: number; actions: number; snapshots: number; frames: number };
}

/** What a kept trace holds: its size, the actions recorded, their DOM snapshots and the screencast's frames. */
function traceContents(file: string): Sample['trace'] {
  const unzip = (...args: string[]) => execFileSync('unzip', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  // Each of the trace's .trace files (the test runner's, each context's) is a JSON line per event.
  const events = unzip('-Z1', file)
    .split('\n')
    .filter((name) => name.endsWith('.trace'))
    .flatMap((name) => unzip('-p', file, name).split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type?: string });
  const count = (type: string) => events.filter((event) => event.type === type).length;
  return { bytes: statSync(file).size, actions: count('before'), snapshots: count('frame-snapshot'), frames: count('screencast-frame') };
}

const app = await startDemoApp();
const project = mkdtempSync(path.join(tmpdir(), 'scribe-trace-cost-'));
const env = { ...process.env, SCRIBE_HOME: path.join(project, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const runner = loadRunnerConfig();

const once = async (variant: Variant): Promise<Sample> => {
  const config = { ...runner, artifacts: { ...runner.artifacts, trace: variant.trace, trace_screenshots: variant.screenshots } };
  const started = performance.now();
  const { value: report, seconds } = await cpuByKind(() =>
    runSpec({
      specText: SPEC,
      fileName: 'trace-cost.spec.ts',
      baseURL: app.url,
      cwd: project,
      env,
      untrusted: true,
      allowedEnv: ['E2E_USERNAME', 'E2E_PASSWORD'],
      credentials: ['E2E_USERNAME', 'E2E_PASSWORD'],
      ...bundledRunTarget(config),
    }),
  );
  const wall = (performance.now() - started) / 1000;
  if (report.status !== 'pass') throw new Error(`the spec did not pass (${variant.name}): ${report.error_message}`);
  const traces = report.traces ?? [];
  if (variant.trace !== traces.length > 0) throw new Error(`${variant.name}, yet ${traces.length} trace(s) kept`);
  // This process's own CPU is the bench's (and the sampling's), not the run's.
  seconds.delete('scribe (node, threads)');
  seconds.delete(SAMPLER);
  const cpu = [...seconds.values()].reduce((sum, n) => sum + n, 0);
  const kept = traces[0] && (path.isAbsolute(traces[0]) ? traces[0] : path.join(project, traces[0]));
  return { wall, cpu, ...(kept ? { trace: traceContents(kept) } : {}) };
};

try {
  // One warm-up: the first run pays for Playwright's and the sandbox's first start.
  await once(VARIANTS[0]!);
  const results = new Map(VARIANTS.map((v) => [v.name, [] as Sample[]]));
  for (let i = 0; i < runs; i++) for (const variant of VARIANTS) results.get(variant.name)!.push(await once(variant));
  console.log(`the same passing spec, contained, ${runs} runs of each variant after one warm-up, alternating (medians):`);
  for (const variant of VARIANTS) {
    const samples = results.get(variant.name)!;
    const of = (pick: (trace: NonNullable<Sample['trace']>) => number) => median(samples.map((s) => (s.trace ? pick(s.trace) : 0)));
    const holds = variant.trace ? `; trace ${Math.round(of((t) => t.bytes) / 1024)} KB: ${of((t) => t.actions)} recorded calls, ${of((t) => t.snapshots)} DOM snapshots, ${of((t) => t.frames)} screencast frames` : '';
    console.log(`  ${variant.name}: ${median(samples.map((s) => s.cpu)).toFixed(2)} CPU s, ${median(samples.map((s) => s.wall)).toFixed(2)} s wall${holds}`);
  }
  console.log(`load average at the end ${load()}`);
} finally {
  await app.close();
  rmSync(project, { recursive: true, force: true });
}
