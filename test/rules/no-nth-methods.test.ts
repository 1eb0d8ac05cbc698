import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-nth-methods';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);

describe('no-nth-methods', () => {
  it('accepts locators narrowed by test id, text or filter', () => {
    expect(lint(RULE, inTest(`
  await page.getByTestId('cart-item-apple').click();
  await page.getByTestId('cart').filter({ hasText: 'Apple' }).click();
  await page.locator('[data-testid="row"]:has-text("Apple")').click();
  const names = ['a', 'b'];
  console.log(names[0], [1, 2].at(-1));
  for (const row of await page.getByTestId('row').all()) await expect(row).toBeVisible();`))).toEqual([]);
  });

  it('reports nth, first and last on locators, with a message that says what to do instead', () => {
    const issues = lint(RULE, inTest(`
  await page.getByTestId('row').nth(2).click();
  await page.locator('li').first().click();
  await page.getByRole('listitem').last().click();`));
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7]);
    expect(issues[0]).toMatchObject({ rule: RULE, severity: 'error', fixable: false });
    expect(issues[0]!.message).toContain('nth()');
    expect(issues[0]!.message).toMatch(/getByTestId|filter/);
  });

  it('reports >> nth=, :nth-match, positional CSS and XPath indexes in selector strings', () => {
    expect(lines(inTest(`
  await page.locator('li >> nth=1').click();
  await page.locator('ul > li:nth-child(2)').click();
  await page.locator('tr:nth-of-type(3) td').click();
  await page.locator('li:last-child').click();
  await page.locator(':nth-match(button, 2)').click();
  await page.click('ul li:first-of-type');
  await page.locator('xpath=(//li)[2]').click();
  await page.locator('//ul/li[last()]').click();
  await page.frameLocator('iframe >> nth=0').getByTestId('pay').click();`))).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('does not mistake attribute values or plain XPath predicates for positions', () => {
    expect(lines(inTest(`
  await page.locator('//input[@name="q"]').fill('x');
  await page.locator('[data-testid="nth-child"]').click();`))).toEqual([]);
  });

  it('follows an alias of page, a popup page and a page object with this.page', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';

class Cart {
  constructor(private readonly page: Page) {}
  firstItem() { return this.page.getByTestId('item').first(); }
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.getByTestId('row').last().click();
  const popupPromise = page.waitForEvent('popup');
  await page.getByTestId('open').click();
  const popup = await popupPromise;
  await popup.locator('li').nth(0).click();
  await new Cart(page).firstItem().click();
});
`;
    expect(lines(code)).toEqual([5, 10, 14]);
  });

  it('sees computed members, selectors in variables and templates, and locators in variables', () => {
    expect(lines(inTest(`
  const rows = page.getByTestId('row');
  await rows['first']().click();
  const pick = 'nth';
  await rows[pick](3).click();
  const selector = 'li:nth-child(2)';
  await page.locator(selector).click();
  const index = 4;
  await page.locator(\`li >> nth=\${index}\`).click();
  await page.locator('li' + ':last-child').click();`))).toEqual([6, 8, 10, 12, 13]);
  });

  it('reports indexing into locator.all(), the way around nth()', () => {
    expect(lines(inTest(`
  const items = await page.getByTestId('item').all();
  await items[0].click();
  await (await page.getByTestId('item').all())[1].click();
  await items.at(-1)!.click();`))).toEqual([6, 7, 8]);
  });

  it('takes the methods from the options', () => {
    const code = inTest(`
  await page.getByTestId('row').first().click();
  await page.getByTestId('row').nth(1).click();`);
    expect(lines(code, { methods: ['nth'] })).toEqual([6]);
  });
});
