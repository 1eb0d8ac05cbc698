import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-wait-for-navigation';

describe('no-wait-for-navigation', () => {
  it('accepts waitForURL and toHaveURL', () => {
    const code = inTest("  await page.getByTestId('go').click();\n  await page.waitForURL('**/done');\n  await expect(page).toHaveURL(/done/);");
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags waitForNavigation and names the replacement, with the url when one is given', () => {
    const code = inTest(
      [
        "  await Promise.all([page.waitForNavigation(), page.getByTestId('go').click()]);",
        "  const nav = page.waitForNavigation({ url: '**/done' });",
        "  await page.getByTestId('go').click();",
        '  await nav;',
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5]);
    expect(issues[0]!.message).toMatch(/deprecated.*page\.waitForURL\('\/expected-path'\).*expect\(page\)\.toHaveURL/);
    expect(issues[1]!.message).toContain("page.waitForURL('**/done')");
  });

  it('follows values: aliases, popups, frames, page objects and computed members', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      'class Login {',
      '  constructor(private readonly page: Page) {}',
      '  async submitted() { await this.page.waitForNavigation(); }',
      '}',
      "test('evasions', async ({ page }) => {",
      '  const p = page;',
      '  await p.waitForNavigation();',
      "  const popup = await page.waitForEvent('popup');",
      "  await popup['waitForNavigation']();",
      '  await page.mainFrame().waitForNavigation();',
      "  const name = 'waitFor' + 'Navigation';",
      '  await page[name]();',
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([4, 8, 10, 11, 13]);
  });
});
