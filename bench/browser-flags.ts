/**
 * What Chromium's own switches do to the CPU a run's browser spends: the same work (a sign-in and a
 * search on the demo app, as bench/run-cpu.ts's spec does it, in two contexts at once as a spec and its
 * proof copy do) through a browser launched with Scribe's switches, and with each candidate added in turn,
 * alternating. Prints, per variant, the median CPU seconds of the browser's processes by type and the
 * median wall time, and checks that every variant's page sees the same (its user agent, viewport, WebGL).
 *
 *   node --import tsx bench/browser-flags.ts [runs=5]
 */
import { cpus } from 'node:os';
import { chromium, expect, type Browser } from '@playwright/test';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { cpuByKind, SAMPLER } from './process-cpu.ts';
import { seenByPage } from './page-sees.ts';
import { loadAverage, median, runsArgument } from './load.mjs';

const runs = runsArgument(5);
console.log(`machine: ${cpus().length} cores; load average at start ${loadAverage()}`);

const VARIANTS: Array<{ name: string; args: string[] }> = [
  { name: "Scribe's switches", args: [] },
  { name: '--in-process-gpu', args: ['--in-process-gpu'] },
  { name: '--disable-gpu', args: ['--disable-gpu'] },
  { name: '--no-zygote', args: ['--no-zygote'] },
  { name: '--in-process-gpu --no-zygote', args: ['--in-process-gpu', '--no-zygote'] },
];

const app = await startDemoApp();
const base = launchOptions();

async function signInAndSearch(browser: Browser): Promise<string> {
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('username-input').fill(DEMO_ACCOUNT.username);
  await page.getByTestId('password-input').fill(DEMO_ACCOUNT.password);
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await page.goto('/search');
  await page.getByTestId('search-input').fill('playwright');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-results')).toBeVisible();
  const seen = await page.evaluate(seenByPage);
  await context.close();
  return seen;
}

const once = async (args: string[]) => {
  const started = performance.now();
  const { value: seen, seconds } = await cpuByKind(async () => {
    const browser = await chromium.launch({ ...base, args: [...(base.args ?? []), ...args] });
    try {
      const [first] = await Promise.all([signInAndSearch(browser), signInAndSearch(browser)]);
      return first;
    } finally {
      await browser.close();
    }
  });
  seconds.delete('scribe (node, threads)');
  seconds.delete(SAMPLER);
  return { seen, cpu: seconds, wall: (performance.now() - started) / 1000 };
};

try {
  await once([]);
  const results = new Map(VARIANTS.map((v) => [v.name, [] as Array<Awaited<ReturnType<typeof once>>>]));
  for (let i = 0; i < runs; i++) for (const variant of VARIANTS) results.get(variant.name)!.push(await once(variant.args));
  const reference = results.get(VARIANTS[0]!.name)![0]!.seen;
  console.log(`two contexts signing in and searching at once, ${runs} runs of each variant after a warm-up, alternating (medians):`);
  for (const variant of VARIANTS) {
    const samples = results.get(variant.name)!;
    const total = (cpu: Map<string, number>) => [...cpu.values()].reduce((sum, n) => sum + n, 0);
    const kinds = [...new Set(samples.flatMap((s) => [...s.cpu.keys()]))];
    const byKind = kinds.map((kind): [string, number] => [kind, median(samples.map((s) => s.cpu.get(kind) ?? 0))]).sort((a, b) => b[1] - a[1]);
    const differs = samples.find((s) => s.seen !== reference);
    console.log(`  ${variant.name}: ${median(samples.map((s) => total(s.cpu))).toFixed(2)} CPU s, ${median(samples.map((s) => s.wall)).toFixed(2)} s wall${differs ? `; the page sees ${differs.seen}, not ${reference}` : ''}`);
    console.log(`    ${byKind.filter(([, s]) => s >= 0.02).map(([kind, s]) => `${kind} ${s.toFixed(2)}`).join(', ')}`);
  }
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await app.close();
}
