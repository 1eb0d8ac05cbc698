import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'prefer-web-first-assertions';
const messages = (code: string) => lint(RULE, code).map((i) => [i.line, i.message] as const);

describe('prefer-web-first-assertions', () => {
  it('accepts web-first assertions, expect.poll and reads of non-page values', () => {
    const code = inTest(
      [
        "  await expect(page.getByTestId('a')).toBeVisible();",
        "  await expect(page.getByTestId('t')).toHaveText('Hello');",
        "  await expect(page).toHaveURL(/dash/);",
        "  await expect.poll(() => page.getByTestId('rows').count()).toBeGreaterThan(2);",
        "  const response = await page.request.get('/api/health');",
        "  expect(response.url()).toContain('/api');",
        "  expect(await response.text()).toBe('ok');",
        "  const title = 'Home';",
        "  expect(title).toBe('Home');",
        "  const total = [1, 2].map((n) => n * 2).length;",
        '  expect(total).toBe(2);',
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags state reads and names the matcher for the asserted polarity', () => {
    const found = messages(
      inTest(
        [
          "  expect(await page.getByTestId('a').isVisible()).toBe(true);",
          "  expect(await page.getByTestId('a').isVisible()).toBe(false);",
          "  expect(await page.getByTestId('a').isEnabled()).toBeFalsy();",
          "  expect(await page.getByTestId('a').isChecked()).not.toBeTruthy();",
          "  expect(await page.getByTestId('a').isDisabled()).toBeTruthy();",
          "  expect(await page.getByTestId('a').isEditable()).toEqual(true);",
          "  expect(!(await page.getByTestId('a').isHidden())).toBe(true);",
        ].join('\n'),
      ),
    );
    expect(found.map(([line]) => line)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    const suggested = found.map(([, message]) => /use (await expect\(.*?\)\S*?\(\))/.exec(message)?.[1]);
    expect(suggested).toEqual([
      "await expect(page.getByTestId('a')).toBeVisible()",
      "await expect(page.getByTestId('a')).toBeHidden()",
      "await expect(page.getByTestId('a')).toBeDisabled()",
      "await expect(page.getByTestId('a')).not.toBeChecked()",
      "await expect(page.getByTestId('a')).toBeDisabled()",
      "await expect(page.getByTestId('a')).toBeEditable()",
      "await expect(page.getByTestId('a')).toBeVisible()",
    ]);
    expect(found[0]![1]).toMatch(/reads the value once and does not retry/);
  });

  it('flags text, value, attribute, count, title and url reads with the matching web-first matcher', () => {
    const found = messages(
      inTest(
        [
          "  expect(await page.textContent('#title')).toBe('Hello');",
          "  expect(await page.getByTestId('t').textContent()).toContain('Hel');",
          "  expect((await page.getByTestId('t').innerText()).trim()).not.toBe('x');",
          "  expect(await page.getByTestId('rows').count()).toBe(3);",
          "  expect(await page.getByTestId('in').inputValue()).toBe('ann');",
          "  expect(await page.getByTestId('l').getAttribute('href')).toBe('/home');",
          "  expect(await page.getByTestId('l').getAttribute('disabled')).toBeNull();",
          "  expect(await page.title()).toBe('Home');",
          "  expect(page.url()).toContain('/dash');",
          "  expect.soft(await page.getByTestId('items').allTextContents()).toEqual(['a', 'b']);",
        ].join('\n'),
      ),
    );
    expect(found.map(([line]) => line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const expected = [
      "await expect(page.locator('#title')).toHaveText('Hello')",
      "await expect(page.getByTestId('t')).toContainText('Hel')",
      "await expect(page.getByTestId('t')).not.toHaveText('x')",
      "await expect(page.getByTestId('rows')).toHaveCount(3)",
      "await expect(page.getByTestId('in')).toHaveValue('ann')",
      "await expect(page.getByTestId('l')).toHaveAttribute('href', '/home')",
      "await expect(page.getByTestId('l')).not.toHaveAttribute('disabled')",
      "await expect(page).toHaveTitle('Home')",
      'await expect(page).toHaveURL(/\\/dash/)',
      "await expect.soft(page.getByTestId('items')).toHaveText(['a', 'b'])",
    ];
    found.forEach(([, message], i) => expect(message).toContain(`use ${expected[i]}, which waits`));
  });

  it('offers expect.poll for comparisons no web-first matcher makes', () => {
    const [issue] = lint(RULE, inTest("  expect(await page.getByTestId('rows').count()).toBeGreaterThan(0);"));
    expect(issue!.message).toContain("toHaveCount(…) or, for this comparison, await expect.poll(() => page.getByTestId('rows').count()).toBeGreaterThan(0)");
  });

  it('follows a value read into a variable first and asserted later', () => {
    const found = messages(
      inTest(
        [
          "  const text = await page.getByTestId('t').textContent();",
          "  const visible = await page.getByTestId('banner').isVisible();",
          "  await page.getByTestId('next').click();",
          "  expect(text).toBe('Hi');",
          '  expect(visible).toBeTruthy();',
          '  const current = page.url();',
          "  expect(current).toMatch(/done/);",
        ].join('\n'),
      ),
    );
    expect(found.map(([line]) => line)).toEqual([7, 8, 10]);
    expect(found[0]![1]).toContain("`text` holds page.getByTestId('t').textContent() read once earlier");
    expect(found[0]![1]).toContain("await expect(page.getByTestId('t')).toHaveText('Hi')");
    expect(found[2]![1]).toContain('await expect(page).toHaveURL(/done/)');
  });

  it('follows values: aliases, popups, page objects, computed members, templates and conversions', () => {
    const code = [
      "import { test, expect, type Page, type Locator } from '@playwright/test';",
      'class Header {',
      '  readonly title: Locator;',
      "  constructor(private readonly page: Page) { this.title = page.getByTestId('title'); }",
      '  async text() { return this.title.textContent(); }',
      '}',
      "test('evasions', async ({ page }) => {",
      '  const p = page;',
      "  expect(await p.getByTestId('a').isVisible()).toBe(true);",
      "  const popup = await page.waitForEvent('popup');",
      '  expect(await popup.title()).toBe("Popup");',
      "  const method = 'is' + 'Checked';",
      "  expect(await page.getByTestId('box')[method]()).toBe(true);",
      "  expect(`${await page.getByTestId('t').textContent()}`).toBe('x');",
      "  expect(String(await page.getByTestId('in').inputValue())).toBe('y');",
      "  expect(Boolean(await page.getByTestId('a').isVisible())).toBe(true);",
      '  const header = new Header(page);',
      "  expect(await header.title.textContent()).toBe('Hi');",
      "  const [other] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('open').click()]);",
      "  expect(other.url()).toContain('/help');",
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([9, 11, 13, 14, 15, 16, 18, 20]);
  });

  it('never offers a fix (a fix never changes an assertion)', () => {
    expect(lint(RULE, inTest("  expect(await page.getByTestId('a').isVisible()).toBe(true);"))).toMatchObject([{ fixable: false }]);
  });

  it('a count that is not the page’s (a database’s, a collection’s) has no web-first form and is left alone', () => {
    const code = `import { test, expect } from '@playwright/test';
import { prisma } from './db';

test('t', async ({ page }) => {
  const orders = await prisma.order.count();
  expect(orders).toBe(0);
  expect(await prisma.user.count({ where: { active: true } })).toBeGreaterThan(1);
  expect(await page.getByTestId('rows').count()).toBe(3);
});
`;
    expect(lint(RULE, code).map((i) => i.line)).toEqual([8]);
  });

  it('leaves reads that toPass() or expect.poll retry, and follows a local helper that returns a read', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';
async function headingText(page: Page) {
  return await page.textContent('h1');
}
test('t', async ({ page }) => {
  await expect(async () => {
    expect(await page.getByTestId('status').textContent()).toBe('done');
  }).toPass();
  await expect.poll(async () => {
    const visible = await page.getByTestId('toast').isVisible();
    expect(visible).toBe(true);
    return visible;
  }).toBe(true);
  expect(await headingText(page)).toBe('Welcome');
});
`;
    expect(messages(code).map(([line]) => line)).toEqual([14]);
  });

  it('follows a page-object method and an untyped helper that return a read, as awaited where they are called', () => {
    const code = `import { test, expect } from '@playwright/test';
class Home {
  constructor(page) { this.page = page; }
  title() { return this.page.locator('h1').textContent(); }
  count() { return this.rows.length; }
}
const textOf = (page, selector) => page.textContent(selector);
test('t', async ({ page }) => {
  const home = new Home(page);
  expect(await home.title()).toBe('Welcome');
  expect(await textOf(page, '#status')).toBe('Saved');
  expect(home.count()).toBe(3);
  expect(textOf).toBeDefined();
});
`;
    expect(messages(code).map(([line]) => line)).toEqual([10, 11]);
  });
});
