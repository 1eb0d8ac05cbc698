import { describe, expect, it } from 'vitest';
import { fix, inTest, lint } from './harness.ts';

const RULE = 'missing-playwright-await';
const lines = (code: string) => lint(RULE, code).map((i) => i.line);

describe('missing-playwright-await', () => {
  it('accepts awaited, returned, combined, stored-then-awaited and expect-wrapped promises', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      "function open(page: Page) { return page.goto('/'); }",
      "const openArrow = (page: Page) => page.goto('/a');",
      "test('ok', async ({ page }) => {",
      "  await page.goto('/');",
      "  await Promise.all([page.waitForURL('**/done'), page.getByTestId('go').click()]);",
      "  const popupPromise = page.waitForEvent('popup');",
      "  await page.getByTestId('open').click();",
      '  const popup = await popupPromise;',
      "  await expect(popup.getByTestId('title')).toBeVisible();",
      "  await expect(page.getByTestId('title').textContent()).resolves.toBe('Hi');",
      "  await page.getByTestId('x').click().then(() => undefined);",
      "  await test.step('login', async () => { await page.getByTestId('login').click(); });",
      "  expect(page.url()).toContain('/');",
      "  expect(1).toBe(1);",
      "  page.on('dialog', (dialog) => dialog.accept());",
      '  await open(page);',
      '  await openArrow(page);',
      '});',
    ].join('\n');
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags un-awaited actions, navigations, async matchers, expect.poll and test.step', () => {
    const code = inTest(
      [
        "  page.goto('/');",
        "  page.getByTestId('save').click();",
        "  expect(page.getByTestId('done')).toBeVisible();",
        "  expect.poll(() => page.getByTestId('rows').count()).toBe(3);",
        "  test.step('check', async () => {});",
        "  expect.soft(page).toHaveURL(/done/);",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[4, true], [5, true], [6, true], [7, true], [8, true], [9, true]]);
    expect(issues[0]!.message).toBe("page.goto() returns a promise that is not awaited; add `await` so the test waits for it.");
    expect(issues[2]!.message).toContain('The matcher toBeVisible()');
    expect(issues[4]!.message).toContain('test.step()');
  });

  it('flags a promise stored and never awaited, and one discarded with void', () => {
    const code = inTest("  const clicked = page.getByTestId('a').click();\n  void page.getByTestId('b').click();\n  const later = clicked;");
    expect(lint(RULE, code)).toMatchObject([
      { line: 4, fixable: false },
      { line: 5, fixable: false },
    ]);
  });

  it('follows values: aliases, popups, new pages, page objects with this.page and computed members', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      'class Login {',
      '  constructor(private readonly page: Page) {}',
      "  async submit() { this.page.getByTestId('submit').click(); }",
      '}',
      "test('evasions', async ({ page, context }) => {",
      '  const p = page;',
      "  p.getByTestId('a').fill('x');",
      "  const popup = await page.waitForEvent('popup');",
      "  popup.getByTestId('b').check();",
      '  const other = await context.newPage();',
      "  other.goto('/other');",
      "  const action = 'click';",
      "  page.getByTestId('c')[action]();",
      "  page['goto']('/x');",
      '  page.keyboard.press("Enter");',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([4, 8, 10, 12, 14, 15, 16]);
  });

  it('adds `await` where the call is a statement of its own in an async function', () => {
    const code = inTest("  page.goto('/');\n  expect(page.getByTestId('done')).toBeVisible();");
    expect(fix(RULE, code)).toBe(inTest("  await page.goto('/');\n  await expect(page.getByTestId('done')).toBeVisible();"));
  });

  it('does not add `await` outside an async function', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      "function go(page: Page) { page.goto('/'); }",
      "test('x', async ({ page }) => { go(page); });",
    ].join('\n');
    expect(lint(RULE, code)).toMatchObject([{ line: 2, fixable: false }]);
    expect(fix(RULE, code)).toBe(code);
  });

  it('flags an un-awaited async matcher the file adds with expect.extend, on the extended expect or the mutated one; a sync one is not a promise', () => {
    const code = `import { test, expect as baseExpect } from '@playwright/test';
export const expect = baseExpect.extend({
  async toHaveAmount(locator, expected) { return { pass: true, message: () => '' }; },
  toBeWithin: async (value, low, high) => ({ pass: value >= low && value <= high, message: () => '' }),
  toBeEven(value) { return { pass: value % 2 === 0, message: () => '' }; },
});
baseExpect.extend({ async toHaveBadge(locator) { return { pass: true, message: () => '' }; } });
test('x', async ({ page }) => {
  expect(page.getByTestId('cart')).toHaveAmount(3);
  await expect(page.getByTestId('cart')).toHaveAmount(3);
  expect(5).toBeWithin(1, 10);
  expect(4).toBeEven();
  baseExpect(page.getByTestId('cart')).not.toHaveBadge();
});
`;
    expect(lines(code)).toEqual([9, 11, 13]);
  });
});
