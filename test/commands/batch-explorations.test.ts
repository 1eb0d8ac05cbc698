/**
 * A batch explores each start page once, whichever worker asks (src/workflow/explored-pages.ts, shared with
 * the worker threads through threads.ts): `scribe generate --plan --workers 2` through the real CLI on the
 * signed-in suite app, the app counting every page load. Exploring is bounded to two pages, so an exploration
 * from /products reaches / and one from / reaches /products, and no other page: the scenarios on / and
 * /products share one exploration (the two workers ask for them at once), those on /cart and /about get
 * one each, and a second scenario on each page none. Nothing is run (`--no-run`): every page load is an
 * exploration's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchResult } from '../../src/workflow/batch.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSignedInSuiteProject } from '../fixtures/suite-project.ts';
import { runCli } from './harness.ts';

let app: SuiteApp;
let project: ScribeProject;

beforeAll(async () => {
  app = await startSuiteApp();
  project = makeSignedInSuiteProject(app.url, { 'explore.max_pages': 2 });
});
afterAll(async () => {
  project.remove();
  await app.close();
});

const scenario = (page: string, text: string) => ({ page, text, yaml: `  - request: open ${page} and see "${text}"\n    page: ${page}\n    expected: the page shows "${text}"\n` });

/** The test ids only one page of the suite app has (every signed-in page has the navigation's). */
const OWN_TEST_IDS: Record<string, RegExp> = {
  '/products': /^(products-title|product-list|product-\w+|product-link-\w+|price-\w+)$/,
  '/': /^(welcome|home-intro)$/,
  '/cart': /^(cart-title|cart-count|cart-empty)$/,
  '/about': /^(about-title|about-text|about-sign-in)$/,
};

describe('generate --plan with 2 workers', { timeout: 300_000 }, () => {
  it('explores each start page once for the whole batch: a page an exploration reached is not loaded again', async () => {
    const scenarios = [
      scenario('/products', '$4.20'),
      scenario('/', 'Fresh food, delivered.'),
      scenario('/cart', 'Your cart is empty.'),
      scenario('/about', 'A corner shop since 1990.'),
      scenario('/products', '$2.50'),
      scenario('/cart', '0 items'),
      scenario('/about', 'About the shop'),
    ];
    writeFileSync(path.join(project.dir, 'plan.yaml'), `version: 1\napp: ${app.url}\nplanner: offline\nscenarios:\n${scenarios.map((s) => s.yaml).join('')}`);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home };
    const run = await runCli(['generate', '--plan', 'plan.yaml', '--workers', '2', '--no-run', '--json'], { env, cwd: project.dir });
    const result = BatchResult.parse(JSON.parse(run.stdout));
    expect(result.workers).toBe(2);
    expect(result.scenarios).toHaveLength(7);

    const loads = (page: string) => app.loads.filter((loaded) => loaded === page).length;
    // Three explorations: one for / and /products, one from /cart, one from /about; each start page loaded once.
    expect({ products: loads('/products'), cart: loads('/cart'), about: loads('/about') }, app.loads.join(' ')).toEqual({ products: 1, cart: 1, about: 1 });
    // / is loaded again only by the exploration from /cart (its first link).
    expect(loads('/'), app.loads.join(' ')).toBeLessThanOrEqual(2);
    // Each scenario was grounded at its own page, reused or not: the offline generator used a test id only that page has.
    for (const [index, outcome] of result.scenarios.entries()) {
      expect(outcome.status, outcome.error ?? '').toBe('accepted');
      const spec = readFileSync(path.join(project.dir, outcome.testPath!), 'utf8');
      const ids = [...spec.matchAll(/getByTestId\('([^']+)'\)/g)].map((match) => match[1]!);
      expect(ids.filter((id) => OWN_TEST_IDS[scenarios[index]!.page]!.test(id)), `${outcome.request}: ${ids.join(', ')}`).not.toEqual([]);
    }
  });
});
