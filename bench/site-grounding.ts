/**
 * What site grounding costs, on the demo app: the site inventory's size in the prompt (estimated
 * tokens against the budget of agents/scribe.yaml), the time of exploring the start page alone against
 * the whole site within the configured bounds, and the time of one run-time read of a page's test ids
 * and named elements (what the Runner's evidence fixture does on each page load and at the end).
 * Timings are the median of 5.
 *
 *   npx tsx bench/site-grounding.ts
 */
import { chromium } from '@playwright/test';
import { readPageElements } from '../src/agents/runner/run-folder/scribe-page-elements.ts';
import { loadCriticConfig } from '../src/config/critic.ts';
import { loadExploreSettings } from '../src/config/explore.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { exploreUrl } from '../src/explore/inventory.ts';
import { renderSite } from '../src/explore/render.ts';
import { exploreSite } from '../src/explore/site.ts';
import { startDemoApp } from '../src/demo-app/server.ts';

const RUNS = 5;
const settings = loadExploreSettings();
const testIdAttribute = loadCriticConfig().testIdAttribute;
const [browser, app] = await Promise.all([chromium.launch(launchOptions()), startDemoApp()]);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

try {
  const site = await exploreSite(`${app.url}/`, { testIdAttribute, settings, browser });
  const pages = [site, ...(site.pages ?? [])];
  console.log(`budget: ${settings.max_tokens} tokens; bounds: ${settings.max_pages} pages, depth ${settings.max_depth}, ${settings.max_time_ms} ms`);
  console.log(`demo site: ${pages.length} pages explored (${pages.map((p) => new URL(p.url).pathname).join(', ')}), ${site.unexplored?.length ?? 0} left unexplored`);
  console.log(`site inventory in the prompt: ${renderSite(site).length} chars, ${site.estimatedTokens} estimated tokens, ${site.promptPages ?? 0} of ${pages.length - 1} other pages kept`);
  const onePage = await timed(() => exploreUrl(`${app.url}/`, { testIdAttribute, settings, browser }));
  const wholeSite = await timed(() => exploreSite(`${app.url}/`, { testIdAttribute, settings, browser }));
  console.log(`explore start page only: ${onePage.toFixed(0)} ms; whole site: ${wholeSite.toFixed(0)} ms (+${(wholeSite - onePage).toFixed(0)} ms) — median of ${RUNS}`);

  const context = await browser.newContext();
  // tsx compiles this bench with esbuild's keepNames, whose __name helper the function sent to the page calls.
  await context.addInitScript('globalThis.__name = (target) => target;');
  const page = await context.newPage();
  const reads: string[] = [];
  for (const path of ['/', '/todos', '/search']) {
    await page.goto(`${app.url}${path}`);
    const read = await timed(() => page.evaluate(readPageElements, testIdAttribute));
    reads.push(`${path} ${read.toFixed(1)} ms`);
  }
  console.log(`run-time read of one page (test ids + named elements): ${reads.join(', ')} — median of ${RUNS}`);
  await context.close();
} finally {
  await Promise.all([browser.close(), app.close()]);
}
