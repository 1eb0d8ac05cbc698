import { describe, expect, it } from 'vitest';
import { hasLiteral } from '../../src/rules/no-vague-assertions.ts';
import { loadCriticConfig, withPreset } from '../../src/config/critic.ts';
import { inTest, lint } from './harness.ts';

const RULE = 'no-vague-assertions';
const lines = (body: string[]) => lint(RULE, inTest(body.join('\n'))).map((i) => i.line);

describe('no-vague-assertions', () => {
  it('accepts assertions that say what the page must show, and negations of vague ones', () => {
    expect(
      lines([
        "  await expect(page.getByTestId('description')).toHaveText('A mug for coffee');",
        "  await expect(page.getByTestId('total')).toHaveText(/^\\$\\d+\\.\\d{2}$/);",
        "  await expect(page.getByTestId('status')).toContainText(/\\d+ results? for/);",
        "  await expect(page).toHaveURL(/\\/cart$/);",
        "  await expect(page.getByTestId('row')).toHaveCount(3);",
        "  expect(await page.getByTestId('row').count()).toBeGreaterThanOrEqual(2);",
        "  expect(await page.getByTestId('saved').isVisible()).toBeTruthy();",
        "  await expect(page.getByTestId('empty')).not.toHaveText(/.+/);",
        "  await expect(page.getByTestId('name')).toHaveAttribute('aria-invalid', /true/);",
        "  const total = 3;",
        "  expect(total).toBeTruthy();",
        "  await expect(page.getByTestId('x')).toHaveText(/[x]/);",
        "  await expect(page.getByTestId('item')).toHaveClass(/\\bdone\\b/);",
        "  await expect(page.getByTestId('search-input')).toHaveValue(/^$/);",
        "  await expect(page.getByTestId('note')).toHaveText(/^\\s*$/);",
        "  await expect(page.getByTestId('rows')).toHaveText(['Milk', /^Bread \\d+$/]);",
        "  await expect(page.getByTestId('menu')).toContainText(['File', 'Edit']);",
        "  await expect(page).toHaveURL(/\\/products(\\?page=2)?$/);",
        "  await expect(page).toHaveURL('/products');",
        "  await expect(page.getByTestId('item')).not.toHaveClass(/(done)?/);",
      ]),
    ).toEqual([]);
  });

  it('flags patterns whose every named part is optional, vague items of a list and URL predicates', () => {
    const issues = lint(
      RULE,
      inTest(
        [
          "  await expect(page.getByTestId('item')).toHaveClass(/^(done)?$/);",
          "  await expect(page.getByTestId('status')).toContainText(/Saved|/);",
          "  await expect(page.getByRole('status')).toContainText(['']);",
          "  await expect(page.getByTestId('rows')).toHaveText(['Milk', /.+/]);",
          "  const pattern = new RegExp('(Total: \\\\$8)?', 'i');",
          "  await expect(page.getByTestId('total')).toHaveText(pattern);",
          "  await expect(page).toHaveURL((url) => url.pathname === '/products' || url.pathname === '/');",
          "  await expect(page).toHaveURL(/\\/?$/);",
          "  await expect(page.getByTestId('link')).toHaveAttribute('class', /(active)?/);",
        ].join('\n'),
      ),
    );
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6, 7, 9, 10, 11, 12]);
    expect(issues[0]!.message).toContain('`toHaveClass(/^(done)?$/)` matches an empty text too (what the pattern names is optional)');
    expect(issues[2]!.message).toContain("is contained in every text");
    expect(issues[5]!.message).toContain('hides which addresses it accepts');
  });

  it('flags patterns any text matches, empty containment and any-value matchers', () => {
    const issues = lint(
      RULE,
      inTest(
        [
          "  await expect(page.getByTestId('description')).toContainText(/[A-Za-z]{3,}/);",
          "  await expect(page.getByTestId('a')).toHaveText(/.+/);",
          "  await expect(page.getByTestId('b')).toContainText(/\\w+/);",
          "  await expect(page.getByTestId('c')).toHaveText(/./);",
          "  await expect(page.getByTestId('d')).toHaveValue(/^\\S+$/i);",
          "  const anyText = /(?:.*)/;",
          "  await expect(page).toHaveTitle(anyText);",
          "  await expect(page.getByTestId('e')).toContainText('');",
          "  await expect(page.getByTestId('rows')).toHaveCount(expect.any(Number));",
          "  await expect(page.getByTestId('f')).toHaveText(new RegExp('.+'));",
          "  await expect(page.getByTestId('g')).toHaveAttribute('href', /.*/);",
        ].join('\n'),
      ),
    );
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6, 7, 8, 10, 11, 12, 13, 14]);
    expect(issues[0]!.message).toContain('`toContainText(/[A-Za-z]{3,}/)` matches any text, so it passes whatever the page shows');
    expect(issues.every((i) => i.severity === 'error')).toBe(true);
  });

  it('flags an expected value read from the page just before, with nothing done since; one read before acting is what was', () => {
    expect(
      lines([
        "  const total = page.getByTestId('cart-total');",
        '  const shown = await total.innerText();',
        '  await expect(total).toHaveText(shown);',
        "  const reported = parseInt(await page.getByTestId('search-status').innerText(), 10);",
        "  await expect(page.getByTestId('search-result')).toHaveCount(reported);",
        "  await expect(page.getByTestId('name')).toHaveValue(await page.getByTestId('name').inputValue());",
        "  const before = await page.getByTestId('todo-count').innerText();",
        "  await page.getByTestId('todo-toggle').check();",
        "  await expect(page.getByTestId('todo-count')).not.toHaveText(before);",
        "  const href = await page.getByTestId('docs-link').getAttribute('href');",
        "  await page.getByTestId('docs-link').click();",
        '  await expect(page).toHaveURL(href!);',
      ]),
    ).toEqual([6, 8, 9]);
  });

  it('flags bounds every count satisfies and truthiness of objects and pending promises', () => {
    expect(
      lines([
        "  expect(await page.getByTestId('row').count()).toBeGreaterThanOrEqual(0);",
        "  expect(await page.getByTestId('row').count()).toBeGreaterThan(-1);",
        "  expect(page.getByTestId('saved')).toBeTruthy();",
        "  const banner = page.getByRole('status');",
        '  expect(banner).toBeDefined();',
        "  expect(page.getByTestId('saved').isVisible()).toBeTruthy();",
        "  expect(await page.getByTestId('name').textContent()).toBeDefined();",
        "  expect(page.getByTestId('saved')).not.toBeNull();",
      ]),
    ).toEqual([4, 5, 6, 8, 9, 10, 11]);
  });

  it('flags .or() chains of guessed locators, in an assertion or an action', () => {
    const issues = lint(
      RULE,
      inTest(
        [
          "  await expect(page.getByRole('button', { name: 'Save' }).or(page.getByText('Submit'))).toBeVisible();",
          "  const done = page.getByText('Saved').or(page.getByText('Done')).or(page.getByRole('alert'));",
          '  await done.click();',
        ].join('\n'),
      ),
    );
    expect(issues.map((i) => i.line)).toEqual([4, 5, 5]);
    expect(issues[0]!.message).toContain('guessed elements');
  });

  it('tells a class of characters from a required one', () => {
    for (const vague of ['.+', '.*', '\\w+', '[A-Za-z]{3,}', '^\\S+$', '(?:.*)', '\\d+', '[\\s\\S]*', '(?<any>.+)']) expect(hasLiteral(vague), vague).toBe(false);
    for (const specific of ['Saved', '\\d+ items', '^\\$\\d', '\\.', 'a|b', '[x]', '\\/cart$']) expect(hasLiteral(specific), specific).toBe(true);
  });

  it('is an error for model-written code and off in the recommended preset', () => {
    const config = loadCriticConfig();
    expect(config.rules.find((r) => r.rule.id === RULE)?.severity).toBe('error');
    expect(withPreset(config, 'recommended')!.rules.some((r) => r.rule.id === RULE)).toBe(false);
  });
});
