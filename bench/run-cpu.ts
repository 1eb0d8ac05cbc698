/**
 * Where one contained run spends the machine's CPU: the same passing spec (a sign-in, a search, six
 * assertions on the demo app) through runSpec as a generation runs it (untrusted, with its proof), with
 * the trace's screencast added (as Scribe recorded it before), with Playwright's ESM loader kept where the
 * project does without it (project/esm-loading.ts), and with each optional part left out in turn (the
 * trace of every run, the proof copy in a second worker, the code cache its processes read: its files are set
 * aside for that variant's runs and put back), alternating. Prints, per variant, the median CPU
 * seconds of the run's processes by kind (bench/process-cpu.ts) and the median wall time. CPU seconds,
 * unlike wall time, hardly move with the machine's load: what a batch of N workers on N cores can at best
 * do is its CPU seconds over N.
 *
 *   node --import tsx bench/run-cpu.ts [runs=3]
 */
import { existsSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { runCodeCacheStamp } from '../src/agents/runner/run-code-cache.ts';
import { loadRunnerConfig, type RunnerConfig } from '../src/config/runner.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { projectEsmLoading } from '../src/project/esm-loading.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { cpuByKind, SAMPLER } from './process-cpu.ts';
import { loadAverage, runsArgument } from './load.mjs';

const runs = runsArgument(3);
const load = loadAverage;
console.log(`machine: ${cpus().length} cores; load average at start ${load()}`);

const SPEC = `import { test, expect } from '@playwright/test';

test('signs in, then searches', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME!);
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD!);
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(process.env.E2E_USERNAME!);
  await page.goto('/search');
  await expect(page.getByTestId('search-heading')).toBeVisible();
  await page.getByTestId('search-input').fill('playwright');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-results')).toBeVisible();
  await expect(page.getByTestId('search-status')).not.toBeEmpty();
});
`;

interface Variant {
  name: string;
  trace: boolean;
  /** The trace's screencast (artifacts.trace_screenshots; Scribe's trace has none). */
  screencast?: boolean;
  proof: boolean;
  untrusted: boolean;
  /** Keep Playwright's ESM loader whatever the project needs (as every run did before). */
  esmLoader?: true;
  /** Run without the code cache of the contained runs (runner/run-code-cache.ts). */
  noCodeCache?: true;
}
const VARIANTS: Variant[] = [
  { name: 'as a generation runs it (contained, trace, proof)', trace: true, proof: true, untrusted: true },
  { name: 'the same with the ESM loader', trace: true, proof: true, untrusted: true, esmLoader: true },
  { name: "without the run's code cache", trace: true, proof: true, untrusted: true, noCodeCache: true },
  { name: "with the trace's screencast (Scribe's trace before it left it out)", trace: true, screencast: true, proof: true, untrusted: true },
  { name: 'without the trace', trace: false, proof: true, untrusted: true },
  { name: 'without the proof', trace: true, proof: false, untrusted: true },
  { name: 'neither', trace: false, proof: false, untrusted: true },
  { name: 'not contained (trusted: the browser in the test worker), neither', trace: false, proof: false, untrusted: false },
];

const app = await startDemoApp();
const project = mkdtempSync(path.join(tmpdir(), 'scribe-run-cpu-'));
// As loadProject reads it for a generation: this project loads nothing as an ES module.
const esmLoading = projectEsmLoading([project]);
console.log(`the project ${esmLoading.needed ? `needs Playwright's ESM loader: ${esmLoading.because}` : "needs no ESM loader"}`);
const env = { ...process.env, SCRIBE_HOME: path.join(project, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const runner = loadRunnerConfig();
// The stamp of the runs' code cache for this checkout's Playwright and the runner's heap limit; the cache files sit beside it.
const { stamp: codeCacheStamp } = runCodeCacheStamp(realpathSync(path.dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json'))), runner.containment.limits.worker_heap_mb)!;

/** Waits (at most 30 s) for the stamp of the runs' code cache, which a maker started after a run writes. */
async function codeCacheMade(): Promise<void> {
  for (let waited = 0; !existsSync(codeCacheStamp); waited += 100) {
    if (waited > 30_000) throw new Error(`the runs' code cache was not made (no ${codeCacheStamp})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The contained runs' code cache files (made after the warm-up run), moved into a folder of their own while `work` runs. */
async function withoutCodeCache<T>(work: () => Promise<T>): Promise<T> {
  const folder = path.dirname(codeCacheStamp);
  const aside = mkdtempSync(path.join(tmpdir(), 'scribe-run-cpu-cache-'));
  const files = readdirSync(folder).filter((name) => name.includes(`-heap${runner.containment.limits.worker_heap_mb}-`) && name.endsWith('.v8-cache'));
  if (files.length === 0) throw new Error(`no code cache for the runs in ${folder}: the warm-up run should have made it`);
  for (const name of files) renameSync(path.join(folder, name), path.join(aside, name));
  try {
    return await work();
  } finally {
    for (const name of files) renameSync(path.join(aside, name), path.join(folder, name));
    rmSync(aside, { recursive: true, force: true });
  }
}

const once = async (variant: Variant): Promise<{ wall: number; cpu: Map<string, number> }> => {
  if (variant.noCodeCache) return withoutCodeCache(() => once({ ...variant, noCodeCache: undefined }));
  const config: RunnerConfig = { ...runner, artifacts: { ...runner.artifacts, trace: variant.trace, trace_screenshots: variant.screencast === true } };
  const started = performance.now();
  const { value: report, seconds } = await cpuByKind(() =>
    runSpec({
      specText: SPEC,
      fileName: 'run-cpu.spec.ts',
      baseURL: app.url,
      cwd: project,
      env,
      untrusted: variant.untrusted,
      allowedEnv: ['E2E_USERNAME', 'E2E_PASSWORD'],
      credentials: ['E2E_USERNAME', 'E2E_PASSWORD'],
      ...(variant.proof ? { proof: { signInUnderTest: false } } : {}),
      ...bundledRunTarget(config),
      esmLoader: variant.esmLoader ?? esmLoading.needed,
    }),
  );
  if (report.status !== 'pass') throw new Error(`the spec did not pass (${variant.name}): ${report.error_message}`);
  if (variant.proof !== (report.proof !== undefined)) throw new Error(`${variant.name}: proof ${variant.proof ? 'asked for' : 'not asked for'}, yet ${report.proof ? 'one' : 'none'} in the report`);
  // This process's own CPU is the bench's (and the sampling's), not the run's.
  seconds.delete('scribe (node, threads)');
  seconds.delete(SAMPLER);
  return { wall: (performance.now() - started) / 1000, cpu: seconds };
};

try {
  // One warm-up: the first run pays for the sandbox's and Playwright's first start (files into the page cache),
  // and starts the making of the runs' code cache, which is waited for.
  await once(VARIANTS[0]!);
  await codeCacheMade();
  const results = new Map(VARIANTS.map((v) => [v.name, [] as Array<{ wall: number; cpu: Map<string, number> }>]));
  for (let i = 0; i < runs; i++) for (const variant of VARIANTS) results.get(variant.name)!.push(await once(variant));
  console.log(`one passing spec, ${runs} runs of each variant after a warm-up, alternating (medians):`);
  for (const variant of VARIANTS) {
    const samples = results.get(variant.name)!;
    const total = (cpu: Map<string, number>) => [...cpu.values()].reduce((sum, n) => sum + n, 0);
    const kinds = [...new Set(samples.flatMap((s) => [...s.cpu.keys()]))];
    const byKind = kinds.map((kind): [string, number] => [kind, median(samples.map((s) => s.cpu.get(kind) ?? 0))]).sort((a, b) => b[1] - a[1]);
    console.log(`  ${variant.name}: ${median(samples.map((s) => total(s.cpu))).toFixed(2)} CPU s, ${median(samples.map((s) => s.wall)).toFixed(2)} s wall`);
    console.log(`    ${byKind.filter(([, s]) => s >= 0.05).map(([kind, s]) => `${kind} ${s.toFixed(2)}`).join(', ')}`);
  }
  console.log(`load average at the end ${load()}`);
} finally {
  await app.close();
  rmSync(project, { recursive: true, force: true });
}
