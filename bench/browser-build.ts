/**
 * Which system Chromium build a run's browser should be: Debian's full `chromium` against its
 * `chromium-headless-shell` (the build Playwright itself runs headless tests in). The same work through each, in
 * turns: launch, two contexts one after the other (a spec and its proof copy), each signing in on the demo app
 * and taking a screenshot, close. Prints per build the median CPU seconds of its processes by type and the median
 * wall time, and what its page sees (user agent, viewport, WebGL, hover), so a difference a test could notice shows.
 *
 *   node --import tsx bench/browser-build.ts [runs=5]
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { chromium, expect } from '@playwright/test';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { CHROMIUM_ARGS } from '../src/explore/browser.ts';
import { cpuByKind } from './process-cpu.ts';
import { seenByPage } from './page-sees.ts';
import { loadAverage, median, runsArgument } from './load.mjs';

const runs = runsArgument(5);
const BUILDS = [
  { name: 'chromium (full)', executablePath: '/usr/bin/chromium' },
  { name: 'chromium-headless-shell', executablePath: '/usr/bin/chromium-headless-shell' },
];
const missing = BUILDS.filter((build) => !existsSync(build.executablePath));
if (missing.length > 0) throw new Error(`not installed: ${missing.map((build) => build.executablePath).join(', ')} (apt-get install chromium chromium-headless-shell)`);
console.log(`machine: ${cpus().length} cores; load average at start ${loadAverage()}`);

const app = await startDemoApp();
try {
  const results = new Map(BUILDS.map((build) => [build.name, { wall: [] as number[], cpu: new Map<string, number[]>(), seen: '' }]));
  for (let i = 0; i < runs + 1; i++) {
    for (const build of BUILDS) {
      const start = performance.now();
      let seen = '';
      const { seconds } = await cpuByKind(async () => {
        const browser = await chromium.launch({ executablePath: build.executablePath, args: CHROMIUM_ARGS, headless: true });
        for (let copy = 0; copy < 2; copy++) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${app.url}/login`);
          await page.getByTestId('username-input').fill(DEMO_ACCOUNT.username);
          await page.getByTestId('password-input').fill(DEMO_ACCOUNT.password);
          await page.getByTestId('login-button').click();
          await expect(page.getByTestId('dashboard-heading')).toBeVisible();
          await page.screenshot();
          seen = await page.evaluate(seenByPage);
          await context.close();
        }
        await browser.close();
      }, 50);
      // The first round of each warms the file cache: not counted.
      if (i === 0) continue;
      const result = results.get(build.name)!;
      result.wall.push(performance.now() - start);
      result.seen = seen;
      for (const [kind, used] of seconds) {
        if (!kind.includes('chromium')) continue;
        const type = kind.replace(/^.*chromium /, '');
        result.cpu.set(type, [...(result.cpu.get(type) ?? []), used]);
      }
    }
  }
  console.log(`${runs} runs of each build, alternating (medians):`);
  for (const [name, result] of results) {
    const total = [...result.cpu.values()].reduce((sum, values) => sum + median(values), 0);
    const types = [...result.cpu].map(([type, values]) => `${type} ${median(values).toFixed(2)}`).join(', ');
    console.log(`  ${name.padEnd(24)} ${total.toFixed(2)} CPU s, ${(median(result.wall) / 1000).toFixed(2)} s wall   (${types})`);
    console.log(`  ${''.padEnd(24)} the page sees ${result.seen}`);
  }
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await app.close();
}
