import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-element-handle';

describe('no-element-handle', () => {
  it('accepts locators, DOM queries in the browser and a waitForSelector used only as a wait', () => {
    const code = inTest(
      [
        "  await page.getByTestId('list').click();",
        "  await page.evaluate(() => document.querySelector('#x')?.remove());",
        "  await page.getByTestId('list').evaluate((el) => el.querySelectorAll('li').length);",
        "  await page.waitForSelector('#ready');",
        "  const $ = (s: string) => s;",
        "  $('not playwright');",
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags $, $$, elementHandle(s) and a waitForSelector whose handle is used', () => {
    const code = inTest(
      [
        "  const button = await page.$('#save');",
        "  const rows = await page.$$('tr');",
        "  const handle = await page.getByTestId('a').elementHandle();",
        "  const handles = await page.getByTestId('b').elementHandles();",
        "  const ready = await page.waitForSelector('#ready');",
        "  await (await page.waitForSelector('#go')).click();",
        "  const inner = await button!.$('span');",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(issues[0]!.message).toMatch(/page\.\$\(\) returns an ElementHandle.*use page\.locator\(selector\)/);
    expect(issues[4]!.message).toContain('toBeVisible');
  });

  it('follows values: aliases, popups, frames, page objects and computed members', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      'class List {',
      '  constructor(private readonly page: Page) {}',
      "  rows() { return this.page.$$('li'); }",
      '}',
      "test('evasions', async ({ page }) => {",
      '  const p = page;',
      "  await p.$('#a');",
      "  const popup = await page.waitForEvent('popup');",
      "  await popup['$$']('li');",
      "  const name = 'element' + 'Handle';",
      "  await page.locator('#b')[name]();",
      "  await page.mainFrame().$('#c');",
      "  const [el] = await Promise.all([page.waitForSelector('#d')]);",
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([4, 8, 10, 12, 13, 14]);
  });
});
