import { describe, expect, it } from 'vitest';
import { fix, inTest, lint } from './harness.ts';

const RULE = 'no-networkidle';

describe('no-networkidle', () => {
  it('accepts other load states and waitUntil values', () => {
    const code = inTest(
      [
        "  await page.goto('/');",
        "  await page.waitForLoadState('domcontentloaded');",
        "  await page.waitForLoadState();",
        "  await page.goto('/a', { waitUntil: 'load' });",
        "  await page.reload({ waitUntil: 'commit' });",
        "  const label = 'networkidle';",
        "  await expect(page.getByTestId('state')).toHaveText(label);",
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it("flags waitForLoadState('networkidle') and waitUntil: 'networkidle' on navigations", () => {
    const code = inTest(
      [
        "  await page.goto('/', { waitUntil: 'networkidle' });",
        "  await page.waitForLoadState('networkidle');",
        "  await page.reload({ waitUntil: 'networkidle' });",
        "  await page.waitForURL('**/done', { waitUntil: 'networkidle' });",
        "  await page.goBack({ waitUntil: 'networkidle' });",
        "  await page.setContent('<p>x</p>', { waitUntil: 'networkidle' });",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(issues[1]!.message).toContain("page.waitForLoadState('networkidle')");
    expect(issues[1]!.message).toContain('toBeVisible');
    expect(issues[0]!.message).toContain('page.goto()');
  });

  it('follows values: aliases, popups, page objects, computed members, states and options in variables', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      'class Home {',
      '  constructor(private readonly page: Page) {}',
      "  async open() { await this.page.goto('/', { waitUntil: 'networkidle' }); }",
      '}',
      "test('evasions', async ({ page }) => {",
      '  const p = page;',
      "  const state = 'network' + 'idle';",
      '  await p.waitForLoadState(state);',
      "  const popup = await page.waitForEvent('popup');",
      "  await popup['waitForLoadState'](`networkidle`);",
      "  const options = { waitUntil: 'networkidle' as const };",
      "  await page.goto('/a', options);",
      "  await page.reload({ ...options, timeout: 100 });",
      "  const mode = 'networkidle' as const;",
      "  await page.goto('/b', { waitUntil: mode });",
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[4, true], [9, true], [11, true], [13, false], [14, false], [16, true]]);
    expect(issues[3]!.message).toContain('options object passed here');
  });

  it('removes a standalone wait statement and an inline waitUntil property', () => {
    const code = inTest(
      [
        "  await page.goto('/', { waitUntil: 'networkidle' });",
        "  await page.waitForLoadState('networkidle');",
        "  await page.goto('/a', { timeout: 5000, waitUntil: 'networkidle' });",
        "  await expect(page.getByTestId('title')).toBeVisible();",
      ].join('\n'),
    );
    expect(fix(RULE, code)).toBe(
      inTest(
        [
          "  await page.goto('/');",
          "  await page.goto('/a', { timeout: 5000 });",
          "  await expect(page.getByTestId('title')).toBeVisible();",
        ].join('\n'),
      ),
    );
  });

  it('does not remove a wait that is part of a larger expression', () => {
    const code = inTest("  await Promise.all([page.waitForLoadState('networkidle'), page.getByTestId('go').click()]);");
    expect(lint(RULE, code)).toMatchObject([{ line: 4, fixable: false }]);
    expect(fix(RULE, code)).toBe(code);
  });
});
