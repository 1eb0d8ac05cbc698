import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-generated-css-class';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);

describe('no-generated-css-class', () => {
  it('accepts hand-written classes, BEM names and test ids', () => {
    expect(lines(inTest(`
  await page.locator('.btn-primary').click();
  await page.locator('.card__title').click();
  await page.locator('.menu__link--active').click();
  await page.locator('.block__element').click();
  await page.getByTestId('css-1x2y3z').click();
  await expect(page.getByTestId('banner')).toHaveClass(/css-1x2y3z/);`))).toEqual([]);
  });

  it('reports CSS-in-JS, styled-components, styled-jsx, CSS Modules and hex-hashed classes', () => {
    const issues = lint(RULE, inTest(`
  await page.locator('.css-1x2y3z').click();
  await page.locator('div.sc-bdVaJa > span').click();
  await page.locator('.jsx-2718281828').click();
  await page.locator('.Button_primary__3xQ9z').click();
  await page.locator('.header-a1b2c3d4').click();`));
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7, 8, 9]);
    expect(issues[0]).toMatchObject({ severity: 'error', fixable: false });
    expect(issues[0]!.message).toContain('".css-1x2y3z"');
    expect(issues[0]!.message).toContain('getByTestId');
  });

  it('sees generated classes in class attribute selectors', () => {
    expect(lines(inTest(`
  await page.locator('[class*="css-1x2y3z"]').click();
  await page.locator("div[class~='sc-bdVaJa']").click();`))).toEqual([5, 6]);
  });

  it('follows selectors in variables, constants objects, templates and concatenation', () => {
    expect(lines(inTest(`
  const SEL = { submit: '.css-9f8e7d button' };
  await page.locator(SEL.submit).click();
  const hash = computeHash();
  await page.locator(\`.css-\${hash}\`).click();
  const prefix = '.css-';
  await page.locator(prefix + 'abc123').click();`))).toEqual([6, 8, 10]);
  });

  it('follows page aliases, popups, page-object fields and page-level actions', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';

class Checkout {
  private readonly payButton = '.css-pay42x';
  constructor(private readonly page: Page) {}
  async pay() { await this.page.locator(this.payButton).click(); }
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.locator('.css-abc123').click();
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup.click('.sc-fGHiJk');
  await new Checkout(page).pay();
  await page['locator']('.jsx-123').click();
});
`;
    expect(lines(code)).toEqual([6, 11, 14, 16]);
  });

  it('uses only the patterns configured', () => {
    const code = inTest(`
  await page.locator('.css-1x2y3z').click();
  await page.locator('.emotion-7').click();`);
    expect(lines(code, { patterns: ['\\.emotion-\\d+'] })).toEqual([6]);
  });
});
