import { describe, expect, it } from 'vitest';
import { fix, inTest, lint } from './harness.ts';

const RULE = 'no-force-option';
const lines = (code: string) => lint(RULE, code).map((i) => i.line);

describe('no-force-option', () => {
  it('accepts actions without force, force: false and unrelated objects', () => {
    const code = inTest(
      [
        "  await page.getByTestId('save').click();",
        "  await page.getByTestId('save').click({ force: false, timeout: 5000 });",
        "  await page.fill('#name', 'Ann', { timeout: 1000 });",
        '  const settings = { force: true };',
        "  await page.getByTestId('name').press('Enter', settings);",
        '  expect({ force: true }).toEqual({ force: true });',
        '  const fake = { click: (options: object) => options };',
        '  fake.click({ force: true });',
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags force: true written inline on page, locator and element actions', () => {
    const code = inTest(
      [
        "  await page.click('#save', { force: true });",
        "  await page.getByTestId('agree').check({ force: true });",
        "  await page.getByTestId('menu').hover({ timeout: 500, force: true });",
        "  await page.dragAndDrop('#a', '#b', { force: true });",
        "  await page.getByTestId('name').fill('Ann', { force: true });",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[4, true], [5, true], [6, true], [7, true], [8, true]]);
    expect(issues[0]!.message).toContain('page.click()');
    expect(issues[0]!.message).toMatch(/skip the actionability checks.*remove it/);
  });

  it('follows values: aliases, popups, page objects, computed members, options in variables and spreads', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      'class Checkout {',
      '  constructor(private readonly page: Page) {}',
      "  async pay() { await this.page.getByTestId('pay').click({ force: true }); }",
      '}',
      "test('evasions', async ({ page, context }) => {",
      '  const p = page;',
      "  await p.locator('#a').click({ force: true });",
      "  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('open').click()]);",
      "  await popup.getByTestId('ok')['click']({ force: true });",
      '  const options = { force: true };',
      "  await page.getByTestId('b').click(options);",
      "  await page.getByTestId('c').dblclick({ ...options, timeout: 100 });",
      '  const yes = true;',
      "  await page.getByTestId('d').uncheck({ force: yes });",
      "  const method = 'tap';",
      "  await page.getByTestId('e')[method]({ force: true });",
      '  const other = await context.newPage();',
      "  await other.getByTestId('f').selectOption('x', { force: true });",
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([
      [4, true], [8, true], [10, true], [12, false], [13, false], [15, true], [17, true], [19, true],
    ]);
    expect(issues[3]!.message).toContain('options object passed here');
  });

  it('removes the property, and the options argument when it becomes empty', () => {
    const code = inTest(
      [
        "  await page.click('#save', { force: true });",
        "  await page.getByTestId('a').click({ force: true });",
        "  await page.getByTestId('b').click({ force: true, timeout: 500 });",
        "  await page.getByTestId('c').click({ timeout: 500, force: true });",
        "  await page.getByTestId('d').click({ force: true },);",
        "  await page.getByTestId('e').click({\n    timeout: 500,\n    force: true,\n  });",
      ].join('\n'),
    );
    expect(fix(RULE, code)).toBe(
      inTest(
        [
          "  await page.click('#save');",
          "  await page.getByTestId('a').click();",
          "  await page.getByTestId('b').click({ timeout: 500 });",
          "  await page.getByTestId('c').click({ timeout: 500 });",
          "  await page.getByTestId('d').click();",
          "  await page.getByTestId('e').click({\n    timeout: 500,\n  });",
        ].join('\n'),
      ),
    );
  });

  it('leaves an options object held in a variable to a person', () => {
    const code = inTest("  const options = { force: true };\n  await page.getByTestId('b').click(options);");
    expect(fix(RULE, code)).toBe(code);
    expect(lines(code)).toEqual([5]);
  });
});
