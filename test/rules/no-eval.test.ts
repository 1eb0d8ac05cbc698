import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-eval';

describe('no-eval', () => {
  it('accepts locator.evaluate and unrelated $eval methods', () => {
    const code = inTest(
      [
        "  await page.getByTestId('a').evaluate((el) => el.id);",
        "  const query = { $eval: (s: string) => s.length };",
        "  query.$eval('x');",
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags $eval and $$eval on pages, frames and handles', () => {
    const code = inTest(
      [
        "  await page.$eval('#a', (el) => el.textContent);",
        "  await page.$$eval('li', (els) => els.length);",
        "  await page.mainFrame().$eval('#b', (el) => el.id);",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6]);
    expect(issues[0]!.message).toMatch(/page\.\$eval\(\) runs a script.*toHaveText/);
    expect(issues[1]!.message).toContain('toHaveCount');
  });

  it('follows values: aliases, popups, page objects and computed members', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      'class Table {',
      '  constructor(private readonly page: Page) {}',
      "  count() { return this.page.$$eval('tr', (rows) => rows.length); }",
      '}',
      "test('evasions', async ({ page, context }) => {",
      '  const p = page;',
      "  await p.$eval('#a', (el) => el.id);",
      "  const popup = await context.waitForEvent('page');",
      "  await popup['$eval']('#b', (el) => el.id);",
      "  const method = '$$' + 'eval';",
      "  await page[method]('li', (els) => els.length);",
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([4, 8, 10, 12]);
  });
});
