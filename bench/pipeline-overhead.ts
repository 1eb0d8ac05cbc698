/**
 * The pipeline's cost around Playwright: `generateSpec` (explore, generate with the offline provider —
 * no model time —, validate with type-check, Critic, Runner, write) against a bare `npx playwright test`
 * of the same final spec, on the demo app, run side by side (one of each per round). Prints the median of
 * each, the ratio, and the median time of each stage (the result's timings_ms). The pipeline runs in this
 * process, with no start-up of its own, and the bare run pays npx's: the ratio flatters the pipeline. What a user
 * waits for, the whole commands started alike, is bench/generate-command.ts's.
 *
 *   node --import tsx bench/pipeline-overhead.ts [runs=5] [--busy]
 *
 * --busy keeps one core busy meanwhile (a bounded node loop in a child process).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptions } from '../src/explore/browser.ts';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { busyCore, median } from './load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 5);
const busy = process.argv.includes('--busy');
const app = await startDemoApp();
// Inside the repository, so the bare run's spec resolves @playwright/test like a project's would.
mkdirSync(path.join(root, 'bench', 'work'), { recursive: true });
const work = mkdtempSync(path.join(root, 'bench', 'work', 'pipeline-'));
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: path.join(work, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const request = { description: 'log in with valid credentials and see the dashboard', feature: 'bench', url: `${app.url}/login`, force: true };
const stopBusy = busy ? busyCore() : () => {};

try {
  const pipeline: number[] = [];
  const bare: number[] = [];
  const stages = new Map<string, number[]>();
  const config = path.join(work, 'playwright.config.mjs');
  // A first generation, not timed, writes the spec the bare runs use (and warms the file caches both read).
  const first = await generateSpec(request, { cwd: work, env });
  if (!first.document.success || !first.document.testPath) throw new Error(`the pipeline failed: ${first.document.error}`);
  const specFile = path.join(work, first.document.testPath);
  writeFileSync(
    config,
    `export default { testDir: ${JSON.stringify(path.dirname(specFile))}, workers: 1, reporter: 'line', use: { baseURL: ${JSON.stringify(app.url)}, testIdAttribute: 'data-testid', launchOptions: ${JSON.stringify(launchOptions())} } };\n`,
  );
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const { document } = await generateSpec(request, { cwd: work, env });
    pipeline.push(performance.now() - start);
    if (!document.success) throw new Error(`the pipeline failed: ${document.error}`);
    for (const [stage, ms] of Object.entries(document.timings_ms ?? {})) stages.set(stage, [...(stages.get(stage) ?? []), ms]);

    // The same spec, run bare: Playwright's CLI through npx with an equivalent config. Asynchronous: this
    // process serves the demo app the run talks to.
    const bareStart = performance.now();
    await promisify(execFile)('npx', ['playwright', 'test', '--config', config], { cwd: root, env });
    bare.push(performance.now() - bareStart);
  }

  console.log(`${runs} rounds, demo app login request, offline provider (no model time)${busy ? ', one core kept busy' : ''}; medians\n`);
  console.log(`generateSpec (whole pipeline)   ${(median(pipeline) / 1000).toFixed(2)} s   (runs: ${pipeline.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`);
  console.log(`npx playwright test (bare)      ${(median(bare) / 1000).toFixed(2)} s   (runs: ${bare.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`);
  console.log(`ratio                           ${(median(pipeline) / median(bare)).toFixed(2)}x (target <= 1.3x)\n`);
  console.log('pipeline time by stage (timings_ms, median):');
  for (const [stage, times] of stages) console.log(`  ${stage.padEnd(10)} ${(median(times) / 1000).toFixed(2)} s`);
} finally {
  stopBusy();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
