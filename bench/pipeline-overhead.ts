/**
 * The pipeline's cost around Playwright: `generateSpec` (explore, generate with the offline provider —
 * no model time —, validate with type-check, Critic, Runner, write) against a bare `npx playwright test`
 * of the same final spec, on the demo app. Prints the mean of each, the ratio, and the time by stage.
 *
 *   node --import tsx bench/pipeline-overhead.ts [runs]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptions } from '../src/explore/browser.ts';
import { generateSpec, type PipelineEvent } from '../src/workflow/pipeline.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../test/fixtures/demo-app/server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const app = await startDemoApp();
// Inside the repository, so the bare run's spec resolves @playwright/test like a project's would.
mkdirSync(path.join(root, 'bench', 'work'), { recursive: true });
const work = mkdtempSync(path.join(root, 'bench', 'work', 'pipeline-'));
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: path.join(work, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
const request = { description: 'log in with valid credentials and see the dashboard', feature: 'bench', url: `${app.url}/login`, force: true };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

try {
  const pipeline: number[] = [];
  const stageTotals = new Map<string, number>();
  let specFile = '';
  for (let i = 0; i < runs; i++) {
    const events: PipelineEvent[] = [];
    const start = performance.now();
    const { document } = await generateSpec(request, { cwd: work, env, onEvent: (e) => events.push(e) });
    pipeline.push(performance.now() - start);
    if (!document.success || !document.testPath) throw new Error(`the pipeline failed: ${document.error}`);
    specFile = path.join(work, document.testPath);
    for (const [stage, ms] of stageTimes(events, start)) stageTotals.set(stage, (stageTotals.get(stage) ?? 0) + ms);
  }

  // The same spec, run bare: Playwright's CLI through npx with an equivalent config.
  const config = path.join(work, 'playwright.config.mjs');
  writeFileSync(
    config,
    `export default { testDir: ${JSON.stringify(path.dirname(specFile))}, workers: 1, reporter: 'line', use: { baseURL: ${JSON.stringify(app.url)}, testIdAttribute: 'data-testid', launchOptions: ${JSON.stringify(launchOptions())} } };\n`,
  );
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    // Asynchronous: this process serves the demo app the run talks to.
    await promisify(execFile)('npx', ['playwright', 'test', '--config', config], { cwd: root, env });
    bare.push(performance.now() - start);
  }

  console.log(`${runs} runs each, demo app login request, offline provider (no model time)\n`);
  console.log(`generateSpec (whole pipeline)   ${(mean(pipeline) / 1000).toFixed(2)} s`);
  console.log(`npx playwright test (bare)      ${(mean(bare) / 1000).toFixed(2)} s`);
  console.log(`ratio                           ${(mean(pipeline) / mean(bare)).toFixed(2)}x (target <= 1.3x)\n`);
  console.log('pipeline time by stage (mean):');
  for (const [stage, ms] of stageTotals) console.log(`  ${stage.padEnd(10)} ${(ms / runs / 1000).toFixed(2)} s`);
} finally {
  await app.close();
  rmSync(work, { recursive: true, force: true });
}

/** How long each stage took: from an event to the next one, attributed to the stage that was running. */
function stageTimes(events: PipelineEvent[], start: number): Map<string, number> {
  const times = new Map<string, number>();
  let previous = start;
  let stage = 'setup';
  for (const event of events) {
    const at = Date.parse(event.at) - (Date.now() - performance.now());
    times.set(stage, (times.get(stage) ?? 0) + Math.max(0, at - previous));
    previous = at;
    stage = event.status === 'started' ? event.stage : stage;
  }
  return times;
}
