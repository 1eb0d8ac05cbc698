import { describe, expect, it } from 'vitest';
import { lint } from './harness.ts';

const RULE = 'max-steps';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
const spec = (body: string) => `import { test, expect, type Page } from '@playwright/test';\n${body}`;
const clicks = (n: number, on = 'page') => Array.from({ length: n }, (_, i) => `  await ${on}.getByTestId('b${i}').click();`).join('\n');

describe('max-steps', () => {
  it('accepts a test with up to max steps; assertions and locators are not steps', () => {
    expect(lines(spec(`
test('ten', async ({ page }) => {
  await page.goto('/');
${clicks(9)}
  await expect(page.getByTestId('done')).toBeVisible();
  await expect(page).toHaveURL('/done');
  await page.screenshot();
});
`))).toEqual([]);
  });

  it('reports a test over the limit at the test, with the count and what to do', () => {
    const issues = lint(RULE, spec(`
test('eleven', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
${clicks(9)}
});
`));
    expect(issues.map((i) => i.line)).toEqual([3]);
    expect(issues[0]!.message).toContain('has 11 steps');
    expect(issues[0]!.message).toContain('more than the 10 allowed');
    expect(issues[0]!.message).toMatch(/split/);
  });

  it('counts steps in local helpers at every call, in page objects, through aliases, popups and computed members', () => {
    const code = spec(`
async function addToCart(page: Page, id: string) {
  await page.getByTestId(id).click();
  await page.getByTestId('add').click();
}
class Checkout {
  constructor(private readonly page: Page) {}
  async pay() { await this.page.getByTestId('card').fill('4242'); await this.page.getByTestId('pay').click(); }
}
test('helpers', async ({ page }) => {
  const p = page;
  await p.goto('/');
  for (const id of ['a', 'b', 'c']) await addToCart(page, id);
  await addToCart(page, 'd');
  await addToCart(page, 'e');
  await addToCart(page, 'f');
  await new Checkout(page).pay();
});
test('popup', async ({ page }) => {
  const popup = await page.waitForEvent('popup');
${clicks(6, 'popup')}
  await popup['goBack']();
${clicks(4)}
});
`);
    expect(lines(code)).toEqual([11, 20]);
  });

  it('takes the limit from the options', () => {
    const code = spec(`
test('three', async ({ page }) => {
${clicks(3)}
});
`);
    expect(lines(code, { max: 2 })).toEqual([3]);
    expect(lines(code, { max: 3 })).toEqual([]);
  });
});
