/**
 * What the exploring stage of `scribe generate` costs on its own: Scribe's browser launched, the demo app's
 * login explored signed in through its form (as generate explores it, with agents/scribe.yaml's settings),
 * the browser closed. Each round in a fresh browser. Prints the medians of the wall times (launch, explore,
 * close) and the CPU seconds of each kind of process (bench/process-cpu.ts, a lower bound), and what the
 * exploration found, so a change of flags or waits can be seen not to change the inventory.
 *
 *   nice -n 15 node --import tsx bench/explore-cost.ts [runs=5] [--args "--flag --other-flag"]
 *
 * --args adds Chromium flags to Scribe's own (to try one before it is made a default).
 */
import { chromium } from '@playwright/test';
import { loadAgents } from '../src/config/agents.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { renderSite } from '../src/explore/render.ts';
import { exploreSiteSigningIn } from '../src/explore/site.ts';
import { loadAverage, median } from './load.mjs';
import { cpuByKind, SAMPLER } from './process-cpu.ts';

const runs = Number(process.argv[2] ?? 5);
const argsAt = process.argv.indexOf('--args');
const extra = argsAt > 0 ? (process.argv[argsAt + 1] ?? '').split(/\s+/).filter(Boolean) : [];
const { scribe, critic } = loadAgents(process.cwd());
const app = await startDemoApp();
const times = { launch: [] as number[], explore: [] as number[], close: [] as number[] };
const cpu = new Map<string, number[]>();
const found = new Set<string>();
try {
  for (let i = 0; i < runs; i++) {
    const { seconds } = await cpuByKind(async () => {
      let at = performance.now();
      const lap = (list: number[]) => {
        const now = performance.now();
        list.push(now - at);
        at = now;
      };
      const options = launchOptions();
      const browser = await chromium.launch({ ...options, args: [...(options.args ?? []), ...extra] });
      lap(times.launch);
      const explored = await exploreSiteSigningIn(`${app.url}/login`, { browser, testIdAttribute: critic.testIdAttribute, settings: scribe.explore, formSignIn: DEMO_ACCOUNT });
      lap(times.explore);
      await browser.close();
      lap(times.close);
      found.add(`signed in: ${explored.signedInThroughForm}\n${renderSite(explored.inventory).replaceAll(app.url, 'APP')}`);
    }, 50);
    for (const [kind, used] of seconds) if (kind !== SAMPLER) cpu.set(kind, [...(cpu.get(kind) ?? []), used]);
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`${runs} rounds, demo app login signed in through its form${extra.length > 0 ? `, extra flags: ${extra.join(' ')}` : ''}; medians`);
  console.log(`launch ${s(median(times.launch))}, explore ${s(median(times.explore))}, close ${s(median(times.close))}   (explore runs: ${times.explore.map(s).join(', ')})`);
  const total = [...cpu.values()].reduce((sum, list) => sum + median(list), 0);
  console.log(`CPU seconds (medians by kind; total ${total.toFixed(2)}):`);
  for (const [kind, list] of [...cpu].sort((a, b) => median(b[1]) - median(a[1]))) console.log(`  ${kind.padEnd(36)} ${median(list).toFixed(2)}`);
  console.log(`load average at the end ${loadAverage()}`);
  // One exploration, the same every round: a change that alters what exploring finds shows here.
  console.log(found.size === 1 ? `every round found the same inventory:\n${[...found][0]}` : `the rounds found ${found.size} different inventories:\n${[...found].join('\n---\n')}`);
} finally {
  await app.close();
}
