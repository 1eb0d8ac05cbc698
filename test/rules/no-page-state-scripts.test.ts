import { describe, expect, it } from 'vitest';
import { lint } from './harness.ts';

const RULE = 'no-page-state-scripts';
const spec = (body: string) => `import { test, expect } from '@playwright/test';\n\ntest('x', async ({ page }) => {\n${body}\n});\n`;
const lines = (body: string) => lint(RULE, spec(body)).map((issue) => issue.line);

describe('no-page-state-scripts: a page function may read the page, not change it', () => {
  it('accepts reads: properties, storage, the DOM, computing with its own variables, and a route of the app’s data', () => {
    const body = [
      "  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('shop-cart') ?? '[]'));",
      "  const titles = await page.locator('li').evaluateAll((items) => items.map((item) => item.textContent?.trim()));",
      "  const width = await page.getByTestId('panel').evaluate((el) => getComputedStyle(el).getPropertyValue('width'));",
      '  const count = await page.evaluate(() => { let n = 0; const seen = {}; for (const row of document.querySelectorAll("tr")) { n += 1; seen[row.id] = true; } return n; });',
      "  const text = await page.evaluate(() => { let all = ''; for (const li of document.querySelectorAll('li')) all = all + li.textContent; return all; });",
      "  const host = await page.evaluate(() => new URL(location.href).host);",
      "  await page.route('**/api/items', (route) => route.fulfill({ json: [] }));",
      "  await page.route('**/*.js', (route) => route.continue());",
      "  await expect(page.getByTestId('cart-total')).toHaveText('Total: $8');",
      '  void [cart, titles, width, count, host, text];',
    ].join('\n');
    expect(lines(body)).toEqual([]);
  });

  it.each([
    ['writes storage', "  await page.evaluate(() => localStorage.setItem('shop-cart', JSON.stringify(['lamp'])));"],
    ['writes the DOM', "  await page.evaluate(() => { document.querySelector('[data-testid=\"todo-count\"]')!.textContent = '1 item left'; });"],
    ['writes an element handed in', "  await page.getByTestId('total').evaluate((el) => { el.textContent = 'Total: $8'; });"],
    ['clicks or submits from the page', "  await page.getByTestId('search-form').evaluate((form) => (form as HTMLFormElement).requestSubmit());"],
    ['changes a global', '  await page.addInitScript(() => { window.featureFlag = true; });'],
    ['counts up a global', '  await page.evaluate(() => { (window as any).clicks++; });'],
    ['deletes', '  await page.evaluate(() => { delete (window as any).app; });'],
    ['constructs an event', "  await page.evaluate(() => document.dispatchEvent(new Event('load')));"],
    ['a script as text', "  await page.evaluate('localStorage.clear()');"],
    ['a helper of the spec that writes, handed in by name', "  const fill = () => { document.title = 'x'; };\n  await page.evaluate(fill);"],
    ['writes an element held in a variable of its own', "  await page.evaluate(() => { const el = document.querySelector('#status')!; el.textContent = 'Saved'; });"],
    ['writes an element handed in, through an alias', "  await page.getByTestId('row').evaluate((row) => { const item = row; item.className = 'done'; });"],
    ['writes an element it stored in a variable after declaring it', "  await page.evaluate(() => { let el; el = document.querySelector('#status'); el.textContent = 'Saved'; });"],
    ['writes an element of a loop over the page', "  await page.evaluate(() => { for (const li of document.querySelectorAll('li')) li.hidden = false; });"],
    ['moves the page by script', "  await page.evaluate(() => location.replace('/products'));"],
    ['moves back in history', '  await page.evaluate(() => window.history.back());'],
    ['calls a method as a tagged template', '  await page.getByRole(\'status\').evaluate((region) => region.append`Subscribed`);'],
  ])('flags a page function that %s', (_, body) => {
    expect(lint(RULE, spec(body))).toHaveLength(1);
  });

  it("flags a route that fulfills the app's own script, page or style, or everything", () => {
    for (const pattern of ["'**/shop.js'", "'**/*.js'", "'/index.html'", '/shop\\.js$/', "'**/*'"]) {
      expect(lint(RULE, spec(`  await page.route(${pattern}, (route) => route.fulfill({ contentType: 'text/javascript', body: 'void 0' }));`)), pattern).toHaveLength(1);
    }
  });

  it('flags a route of any path that fulfills a page or a script of its own; data stays allowed', () => {
    for (const fulfill of [
      "{ contentType: 'text/html', body: page }",
      "{ body: '<!doctype html><p data-testid=\"order-confirmation\">Thanks</p>' }",
      "{ headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: html }",
      "{ path: 'stubs/checkout.html' }",
    ]) {
      expect(lint(RULE, spec(`  await page.route('**/checkout', (route) => route.fulfill(${fulfill}));`)), fulfill).toHaveLength(1);
    }
    for (const fulfill of ["{ json: { total: 8 } }", "{ status: 500, body: 'Internal error' }", "{ contentType: 'application/json', body: '[]' }", "{ path: 'fixtures/items.json' }"]) {
      expect(lint(RULE, spec(`  await page.route('**/api/items', (route) => route.fulfill(${fulfill}));`)), fulfill).toEqual([]);
    }
  });

  it('leaves a method of the same name on an object that is not Playwright’s alone', () => {
    expect(lines("  const store = { evaluate: (fn: () => void) => fn() };\n  store.evaluate(() => { localStorage.clear(); });")).toEqual([]);
  });
});
