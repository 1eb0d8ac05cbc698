import { describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { estimateDuration, type MaxDurationOptions } from '../../src/analysis/duration.ts';
import { SpecModel } from '../../src/analysis/model.ts';
import { lint } from './harness.ts';

const RULE = 'max-duration';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
const spec = (body: string) => `import { test, expect, type Page } from '@playwright/test';\n${body}`;
const configured = loadCriticConfig().rules.find((r) => r.rule.id === RULE)!.options as MaxDurationOptions;
const costs = { navigation: 1500, action: 300, assertion: 200, screenshot: 400, other: 100 };

describe('estimateDuration', () => {
  it('adds per-call costs, explicit waits and the hooks that run around each test', () => {
    const model = SpecModel.fromText('/virtual/a.spec.ts', spec(`
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await page.goto('/seed');
});
test.beforeEach(async ({ page }) => { await page.goto('/'); });

test('a', async ({ page }) => {
  await page.getByTestId('q').fill('x');
  await page.getByTestId('go').click();
  await expect(page.getByTestId('r')).toBeVisible();
  await page.screenshot();
  await page.waitForTimeout(2000);
});

test.describe('group', () => {
  test.beforeEach(async ({ page }) => { await page.getByTestId('login').click(); });
  test('b', async ({ page }) => {
    await page.waitForSelector('#x', { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 2 * 500));
    const options = { timeout: 3000 };
    await page.getByTestId('x').waitFor(options);
  });
});
`));
    const estimate = estimateDuration(model, { max_ms: 60000, cost_ms: costs });
    expect(estimate.tests.map((t) => ({ title: t.title, line: t.line, ms: t.ms, waits: t.waits_ms, counts: t.counts }))).toEqual([
      { title: 'a', line: 9, ms: 1500 + 300 + 300 + 200 + 400 + 100 + 2000, waits: 2000, counts: { navigation: 1, action: 2, assertion: 1, screenshot: 1, other: 1 } },
      { title: 'b', line: 19, ms: 1500 + 300 + 100 + 5000 + 1000 + 100 + 3000, waits: 9000, counts: { navigation: 1, action: 1, assertion: 0, screenshot: 0, other: 2 } },
    ]);
    expect(estimate.total_ms).toBe(4800 + 11000 + 100 + 1500);
  });

  it('uses the costs it is given', () => {
    const model = SpecModel.fromText('/virtual/a.spec.ts', spec(`test('a', async ({ page }) => { await page.goto('/'); await page.getByTestId('x').click(); });`));
    expect(estimateDuration(model, { max_ms: 1, cost_ms: { ...costs, navigation: 10, action: 1 } }).total_ms).toBe(11);
  });
});

describe('max-duration', () => {
  it('accepts a short test', () => {
    expect(lines(spec(`
test('short', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('buy').click();
  await expect(page.getByTestId('done')).toBeVisible();
});
`))).toEqual([]);
  });

  it('reports a test estimated over the limit, with the estimate and its parts', () => {
    const issues = lint(RULE, spec(`
test('sleepy', async ({ page }) => {
  await page.goto('/');
  await page.waitForTimeout(61_000);
});
`));
    expect(issues.map((i) => i.line)).toEqual([3]);
    expect(issues[0]!.message).toContain('estimated at 62.6 s');
    expect(issues[0]!.message).toContain('61 s of explicit waits');
    expect(issues[0]!.message).toContain('over the 60 s limit');
  });

  it('follows helpers called twice, page objects, aliases, popups, computed members and constants', () => {
    const code = spec(`
const LONG = 25 * 1000;
async function settle(page: Page) { await page.waitForTimeout(LONG); }
class Slow {
  constructor(private readonly page: Page) {}
  async wait() { await this.page['waitForTimeout'](LONG); }
}
test('helper twice', async ({ page }) => { await settle(page); await settle(page); await settle(page); });
test('page object', async ({ page }) => { const slow = new Slow(page); await slow.wait(); await slow.wait(); await slow.wait(); });
test('alias', async ({ page }) => { const p = page; await p.waitForTimeout(LONG * 3); });
test('popup', async ({ page }) => {
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup.waitForURL('/done', { timeout: 70_000 });
});
test('fine', async ({ page }) => { await settle(page); });
`);
    expect(lines(code)).toEqual([9, 10, 11, 12]);
  });

  it('reads the limit from the options', () => {
    const code = spec(`test('a', async ({ page }) => { await page.goto('/'); await page.goto('/b'); });`);
    expect(lines(code, { ...configured, max_ms: 2999 })).toEqual([2]);
    expect(lines(code, { ...configured, max_ms: 3000 })).toEqual([]);
  });
});
