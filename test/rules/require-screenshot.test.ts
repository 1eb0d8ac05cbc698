import { describe, expect, it } from 'vitest';
import { lint } from './harness.ts';

const RULE = 'require-screenshot';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
const spec = (body: string) => `import { test, expect, type Page } from '@playwright/test';\n${body}`;

describe('require-screenshot', () => {
  it('accepts page and locator screenshots and toHaveScreenshot', () => {
    expect(lines(spec(`
test('page', async ({ page }) => { await page.screenshot({ path: 'shots/home.png' }); });
test('locator', async ({ page }) => { await page.getByTestId('cart').screenshot(); });
test('matcher', async ({ page }) => { await expect(page).toHaveScreenshot('home.png'); });
`))).toEqual([]);
  });

  it('reports a test without a screenshot, saying how many and what to add', () => {
    const issues = lint(RULE, spec(`
test('no evidence', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('title')).toBeVisible();
});
`));
    expect(issues.map((i) => i.line)).toEqual([3]);
    expect(issues[0]!.message).toContain('takes 0 screenshots, fewer than the 1 required');
    expect(issues[0]!.message).toContain('toHaveScreenshot');
  });

  it('counts screenshots in local helpers and page objects, through aliases and popups', () => {
    const code = spec(`
async function snap(page: Page, name: string) { await page.screenshot({ path: name }); }
class Home {
  constructor(private readonly page: Page) {}
  async capture() { await this.page['screenshot'](); }
}
test('helper', async ({ page }) => { await snap(page, 'a.png'); });
test('page object', async ({ page }) => { await new Home(page).capture(); });
test('alias', async ({ page }) => { const p = page; await p.screenshot(); });
test('popup', async ({ page }) => {
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup.screenshot();
});
test('not a page', async ({ page }) => { const camera = { screenshot() {} }; camera.screenshot(); });
`);
    expect(lines(code)).toEqual([16]);
  });

  it('takes the minimum from the options', () => {
    const code = spec(`
async function snap(page: Page) { await page.screenshot(); }
test('two', async ({ page }) => { await snap(page); await snap(page); });
test('one', async ({ page }) => { await page.screenshot(); });
`);
    expect(lines(code, { min_per_test: 2 })).toEqual([5]);
    expect(lines(code, { min_per_test: 0 })).toEqual([]);
  });
});
