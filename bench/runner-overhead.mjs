#!/usr/bin/env node
// The Runner's overhead around Playwright: the same passing spec N times through runSpec (temporary
// folder, generated config, evidence fixture, JSON report, classification, screenshot copy, clean-up)
// and through a bare `npx playwright test` with the same config, interleaved so both see the same
// machine load. Prints the mean times and their ratio (target ≤ 1.3×). Usage: node bench/runner-overhead.mjs [N]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runSpec } = await import('../src/agents/runner.ts');
const { playwrightConfig, resolvePlaywright } = await import('../src/agents/runner/workspace.ts');
const { loadRunnerConfig } = await import('../src/config/runner.ts');
const { loadCriticConfig } = await import('../src/config/critic.ts');
const { launchOptions } = await import('../src/explore/browser.ts');
const { serveDirectory } = await import('../src/demo-app/static-server.ts');

const count = Number(process.argv[2] ?? 5);
const work = path.join(root, 'bench', 'work', 'runner-overhead');
const SPEC = `import { test, expect } from '@playwright/test';

test('greets the visitor', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');
  await page.getByTestId('greet').click();
  await expect(page.getByTestId('greeting')).toHaveText('Hello!');
  await page.screenshot({ path: 'screenshots/greeted.png' });
});
`;

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const server = await serveDirectory(path.join(root, 'test', 'fixtures', 'runner-app'));
const runner = loadRunnerConfig();
const settings = { baseURL: server.url, testIdAttribute: loadCriticConfig().testIdAttribute, launch: launchOptions(), runner };

// The bare run: the spec beside a config with the Runner's settings, Playwright's usual line reporter.
const specFile = path.join(work, 'greet.spec.ts');
writeFileSync(specFile, SPEC);
const bareConfig = { ...playwrightConfig({ specFile, outputDir: path.join(work, 'results'), reportFile: '' }, { sourceDir: work }, settings), reporter: 'line' };
const bareConfigFile = path.join(work, 'playwright.config.mjs');
writeFileSync(bareConfigFile, `export default ${JSON.stringify(bareConfig, null, 2)};\n`);
const env = { ...process.env, SCRIBE_HOME: path.join(work, 'home'), BASE_URL: server.url, FORCE_COLOR: '0' };

const timed = async (action) => {
  const start = performance.now();
  await action();
  return performance.now() - start;
};
const viaRunner = () =>
  timed(async () => {
    const report = await runSpec({ specText: SPEC, fileName: 'greet.spec.ts', sourceDir: work, baseURL: server.url, cwd: root, env, config: runner });
    if (report.status !== 'pass') throw new Error(`runSpec did not pass: ${report.error_message}`);
  });
// Asynchronous: the app is served from this very process, so a blocking call would starve it.
const bare = (command, args) => () => timed(() => promisify(execFile)(command, args, { cwd: work, env }));
const viaNpx = bare('npx', ['playwright', 'test', '--config', bareConfigFile]);
const viaCli = bare(process.execPath, [resolvePlaywright(root).cli, 'test', '--config', bareConfigFile]);

const samples = { runner: [], npx: [], cli: [] };
await viaRunner();
await viaNpx();
for (let i = 0; i < count; i++) {
  samples.runner.push(await viaRunner());
  samples.npx.push(await viaNpx());
  samples.cli.push(await viaCli());
}
await server.close();
rmSync(work, { recursive: true, force: true });

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const line = (label, values) => console.log(`${label.padEnd(50)} ${(mean(values) / 1000).toFixed(2)} s  (runs: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')})`);
console.log(`The same passing spec, ${count} runs each (after one warm-up), interleaved\n`);
line('runSpec (Scribe Runner)', samples.runner);
line('npx playwright test (same config)', samples.npx);
line('node <playwright cli> test (same config, no npx)', samples.cli);
console.log(`\nratio runSpec / npx playwright test: ${(mean(samples.runner) / mean(samples.npx)).toFixed(2)}× (target ≤ 1.3×)`);
console.log(`ratio runSpec / bare Playwright CLI: ${(mean(samples.runner) / mean(samples.cli)).toFixed(2)}×`);
