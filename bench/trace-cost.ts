/**
 * What keeping a Playwright trace of every run costs (agents/runner.yaml `artifacts.trace`, on by default):
 * the same passing spec (a sign-in, a search, six assertions on the demo app) through the contained run
 * (runSpec, untrusted, as a generation runs it) with the trace on and off, alternating so both see the same
 * load. Prints the median wall time of each, the added time, and the size of the kept trace.
 *
 *   node --import tsx bench/trace-cost.ts [runs=7]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { loadRunnerConfig } from '../src/config/runner.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { loadAverage, runsArgument } from './load.mjs';

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

const app = await startDemoApp();
const project = mkdtempSync(path.join(tmpdir(), 'scribe-trace-cost-'));
const env = { ...process.env, SCRIBE_HOME: path.join(project, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const runner = loadRunnerConfig();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const traceBytes: number[] = [];

const time = async (trace: boolean): Promise<number> => {
  const config = { ...runner, artifacts: { ...runner.artifacts, trace } };
  const started = performance.now();
  const report = await runSpec({
    specText: SPEC,
    fileName: 'trace-cost.spec.ts',
    baseURL: app.url,
    cwd: project,
    env,
    untrusted: true,
    allowedEnv: ['E2E_USERNAME', 'E2E_PASSWORD'],
    credentials: ['E2E_USERNAME', 'E2E_PASSWORD'],
    ...bundledRunTarget(config),
  });
  const ms = performance.now() - started;
  if (report.status !== 'pass') throw new Error(`the spec did not pass (trace ${trace ? 'on' : 'off'}): ${report.error_message}`);
  const traces = report.traces ?? [];
  if (trace !== traces.length > 0) throw new Error(`trace ${trace ? 'on' : 'off'}, yet ${traces.length} trace(s) kept`);
  traceBytes.push(...traces.map((file) => statSync(path.isAbsolute(file) ? file : path.join(project, file)).size));
  return ms;
};

try {
  // One warm-up of each: the first run pays for Playwright's and the sandbox's first start.
  await time(true);
  await time(false);
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < runs; i++) {
    on.push(await time(true));
    off.push(await time(false));
  }
  const [withTrace, without] = [median(on), median(off)];
  console.log(`the same passing spec, contained, ${runs} runs each after one warm-up, alternating`);
  console.log(`  trace on:  median ${(withTrace / 1000).toFixed(2)} s (runs: ${on.map((v) => (v / 1000).toFixed(2)).join(', ')})`);
  console.log(`  trace off: median ${(without / 1000).toFixed(2)} s (runs: ${off.map((v) => (v / 1000).toFixed(2)).join(', ')})`);
  console.log(`  added by the trace: ${((withTrace - without) / 1000).toFixed(2)} s (${(((withTrace - without) / without) * 100).toFixed(1)}%); kept trace ${Math.round(median(traceBytes) / 1024)} KB (median)`);
  console.log(`load average at the end ${load()}`);
} finally {
  await app.close();
  rmSync(project, { recursive: true, force: true });
}
