/**
 * How large the page inventory a prompt carries gets: on the demo app's pages and on a page with
 * 2,000 elements, in characters and estimated tokens (characters / chars_per_token, agents/scribe.yaml).
 *
 *   npx tsx bench/inventory-size.ts
 */
import { chromium } from '@playwright/test';
import { loadCriticConfig } from '../src/config/critic.ts';
import { loadExploreSettings } from '../src/config/explore.ts';
import { launchOptions } from '../src/explore/browser.ts';
import { exploreUrl } from '../src/explore/inventory.ts';
import { renderInventory } from '../src/explore/render.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { serveLargePage } from '../test/fixtures/large-page.ts';

const LARGE_PAGE_ELEMENTS = 2000;

const settings = loadExploreSettings();
const testIdAttribute = loadCriticConfig().testIdAttribute;
const [browser, app, large] = await Promise.all([chromium.launch(launchOptions()), startDemoApp(), serveLargePage(LARGE_PAGE_ELEMENTS)]);

try {
  const pages = [
    { name: 'demo /', url: `${app.url}/` },
    { name: 'demo /login', url: `${app.url}/login` },
    { name: 'demo /todos', url: `${app.url}/todos` },
    { name: 'demo /search', url: `${app.url}/search` },
    { name: `${LARGE_PAGE_ELEMENTS} elements`, url: `${large.url}/` },
  ];
  console.log(`budget: ${settings.max_tokens} tokens (${settings.max_tokens * settings.chars_per_token} chars at ${settings.chars_per_token} chars/token)\n`);
  console.log(['page'.padEnd(16), 'chars'.padStart(6), 'tokens'.padStart(7), 'test ids'.padStart(9), '  cut'].join(' '));
  for (const page of pages) {
    const inventory = await exploreUrl(page.url, { testIdAttribute, settings, browser });
    const chars = renderInventory(inventory).length;
    console.log(
      [page.name.padEnd(16), String(chars).padStart(6), String(inventory.estimatedTokens).padStart(7), String(inventory.testIds.length).padStart(9), ` ${inventory.truncated.join(', ') || '-'}`].join(' '),
    );
  }
} finally {
  await Promise.all([browser.close(), app.close(), large.close()]);
}
