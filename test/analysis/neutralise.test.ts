import { describe, expect, it } from 'vitest';
import { neutraliseActions, neutraliseGroups } from '../../src/analysis/neutralise.ts';
import { SpecModel } from '../../src/analysis/model.ts';

const wrap = (body: string, header = '') => `import { test, expect } from '@playwright/test';\n${header}\ntest('case', async ({ page }) => {\n${body}\n});\n`;

/** Signs in with the declared credentials, then changes a setting through a helper. */
const SETTINGS = wrap(
  `  await page.goto('/login');
  await page.getByLabel('Username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByLabel('Password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.goto('/settings');
  await rename(page);
  await page.getByRole('button', {
    name: 'Save' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('status'),
  ).toHaveText('ok');`,
  "async function rename(page) { await page.getByLabel('Name').fill('Ann'); }",
);

describe('neutraliseActions', () => {
  it('makes the last group of actions an assertion follows no-ops, through helpers, and keeps the sign-in', () => {
    const result = neutraliseActions(SETTINGS);
    const [test] = result.tests;
    expect(test!.actions.map((a) => a.source)).toEqual(["page.keyboard.press('Escape')"]);
    expect(test!.signIn).toEqual(["page.getByLabel('Username').fill(process.env.E2E_USERNAME ?? '')", "page.getByLabel('Password').fill(process.env.E2E_PASSWORD ?? '')", "page.getByRole('button', { name: 'Sign in' }).click()"]);
    expect(result.text).toContain("await page.getByRole('button', { name: 'Sign in' }).click();");
    expect(result.text).not.toContain("press('Escape')");
  });

  it('takes the actions before the final assertions when nothing checks between them, helpers included', () => {
    const result = neutraliseActions(SETTINGS.replace("  await expect(page.getByText('Settings saved')).toBeVisible();\n", ''));
    expect(result.tests[0]!.actions.map((a) => a.source)).toEqual(["page.getByLabel('Name').fill('Ann')", "page.getByRole('button', { name: 'Save' }).click()", "page.keyboard.press('Escape')"]);
    expect(result.text).toContain('async function rename(page) { await Promise.resolve(); }');
    expect(result.text).toContain("await page.getByLabel('Password').fill(process.env.E2E_PASSWORD ?? '');");
  });

  it('keeps every line where it was, and the result parses', () => {
    const result = neutraliseActions(SETTINGS.replace("  await expect(page.getByText('Settings saved')).toBeVisible();\n", ''));
    expect(result.text.split('\n')).toHaveLength(SETTINGS.split('\n').length - 1);
    expect(result.text.split('\n')[9]).toBe('  await Promise.resolve(');
    expect(SpecModel.fromText('proof.spec.ts', result.text).syntaxDiagnostics()).toEqual([]);
  });

  it('lists the lines after the first neutralised action as the checks whose failure proves it', () => {
    const [test] = neutraliseActions(SETTINGS).tests;
    expect(test!.checkLines).toEqual([14, 15, 16]);
  });

  it('marks the checks that compare with a snapshot file, which the copy never has: a screenshot, a value, an ARIA tree without its template (not one given inline)', () => {
    const shots = wrap(`  await page.goto('/products');
  await page.getByRole('button', { name: 'Add Lamp' }).click();
  await expect(page).toHaveScreenshot('cart.png');
  expect(await page.getByTestId('cart-total').textContent()).toMatchSnapshot('total.txt');
  await expect(page.getByRole('list')).toMatchAriaSnapshot();
  await expect(page.getByRole('list')).toMatchAriaSnapshot('- listitem: Lamp');
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');`);
    const [test] = neutraliseActions(shots).tests;
    expect(test!.checkLines).toEqual([6, 7, 8, 9, 10]);
    expect(test!.snapshotLines).toEqual([6, 7, 8]);
  });

  it('takes with the actions an assertion that only echoes what they set on the same element: the typed value, the ticked box', () => {
    const typed = neutraliseActions(
      wrap(`  await page.goto('/search');\n  const box = page.getByTestId('search-input');\n  await box.fill('locators');\n  await page.getByTestId('search-button').click();\n  await expect(page.getByTestId('search-input')).toHaveValue("locators");\n  await expect(page.getByTestId('search-status')).toBeVisible();`),
    );
    expect(typed.tests[0]!.actions.map((a) => a.source)).toEqual(["box.fill('locators')", "page.getByTestId('search-button').click()"]);
    expect(typed.text).not.toContain('toHaveValue');
    // The echo's line is no check whose failure proves anything: the status is.
    expect(typed.tests[0]!.checkLines).toEqual([9]);
    const ticked = neutraliseActions(wrap(`  await page.goto('/todos');\n  const done = page.getByTestId('todo-toggle');\n  await done.check();\n  await expect(done).toBeChecked();`));
    expect(ticked.text).not.toContain('toBeChecked');
    expect(ticked.tests[0]!.checkLines).toEqual([]);
    const unticked = neutraliseActions(wrap(`  await page.goto('/todos');\n  await page.getByTestId('todo-toggle').uncheck();\n  await expect(page.getByTestId('todo-toggle')).not.toBeChecked();`));
    expect(unticked.text).not.toContain('toBeChecked');
  });

  it('knows the echoes a pattern, a property or a read of the field spells: /^zebra$/, checked: true, expect.poll of inputValue', () => {
    const search = (assertion: string) => wrap(`  await page.goto('/search');\n  await page.getByTestId('search-input').fill('zebra');\n  await page.getByTestId('search-input').press('Enter');\n  await expect(page.getByTestId('search-results')).toBeEmpty();\n  ${assertion}`);
    for (const echo of [
      "await expect(page.getByTestId('search-input')).toHaveValue(/^zebra$/);",
      "await expect(page.getByTestId('search-input')).toHaveJSProperty('value', 'zebra');",
      "await expect.poll(() => page.getByTestId('search-input').inputValue()).toBe('zebra');",
      "expect(await page.getByTestId('search-input').inputValue()).toMatch(/zeb/);",
    ]) expect(neutraliseActions(search(echo)).tests[0]!.checkLines, echo).toEqual([7]);
    // What the app made of it, or another field, is no echo.
    for (const kept of [
      "await expect(page.getByTestId('search-input')).toHaveValue(/^ZEBRA$/);",
      "await expect.poll(() => page.getByTestId('search-status').innerText()).toBe('zebra');",
      "await expect.poll(() => page.getByTestId('other-input').inputValue()).toBe('zebra');",
    ]) expect(neutraliseActions(search(kept)).tests[0]!.checkLines, kept).toEqual([7, 8]);
    // An ARIA snapshot whose only content is the field's value echoes it; one that shows a result does not.
    const snapshot = (lines: string) => search(`await expect(page.getByTestId('search-form')).toMatchAriaSnapshot(\`\n    ${lines}\n  \`);`);
    expect(neutraliseActions(snapshot('- form:\n      - searchbox "Search": zebra\n      - button "Search"')).tests[0]!.checkLines).toEqual([7]);
    expect(neutraliseActions(snapshot('- searchbox "Search": zebra\n    - listitem: No results for zebra')).tests[0]!.checkLines).toContain(8);
    expect(neutraliseActions(snapshot('- searchbox "Search": zebra\n    - heading "No results"')).tests[0]!.checkLines).toContain(8);
    const tick = (assertion: string) => wrap(`  await page.goto('/todos');\n  await page.getByTestId('todo-toggle').check();\n  ${assertion}`);
    for (const echo of ["await expect(page.getByTestId('todo-toggle')).toHaveJSProperty('checked', true);", "expect(await page.getByTestId('todo-toggle').isChecked()).toBe(true);", "await expect.poll(() => page.getByTestId('todo-toggle').isChecked()).toBeTruthy();"]) {
      expect(neutraliseActions(tick(echo)).tests[0]!.checkLines, echo).toEqual([]);
    }
    expect(neutraliseActions(tick("await expect(page.getByTestId('todo-toggle')).toHaveJSProperty('checked', false);")).tests[0]!.checkLines).toEqual([6]);
    // A click on the box toggles it: its ticked state, either way, is the spec's doing.
    const clicked = (assertion: string) => wrap(`  await page.goto('/todos');\n  await page.getByTestId('todo-toggle').click();\n  ${assertion}`);
    expect(neutraliseActions(clicked("await expect(page.getByTestId('todo-toggle')).toBeChecked();")).tests[0]!.checkLines).toEqual([]);
    expect(neutraliseActions(clicked("await expect(page.getByTestId('todo-toggle')).not.toBeChecked();")).tests[0]!.checkLines).toEqual([]);
    expect(neutraliseActions(clicked("await expect(page.getByTestId('todo-item')).toHaveClass(/done/);")).tests[0]!.checkLines).toEqual([6]);
  });

  it('keeps an assertion on the same element that checks what the app made of the action', () => {
    const formatted = neutraliseActions(wrap(`  await page.goto('/phone');\n  await page.getByLabel('Phone').fill('1234567890');\n  await page.getByLabel('Phone').blur();\n  await expect(page.getByLabel('Phone')).toHaveValue('(123) 456-7890');`));
    expect(formatted.text).toContain("toHaveValue('(123) 456-7890')");
    const other = neutraliseActions(wrap(`  await page.goto('/todos');\n  await page.getByTestId('todo-toggle').check();\n  await expect(page.getByTestId('todo-toggle')).not.toBeChecked();\n  await expect(page.getByTestId('other-toggle')).toBeChecked();`));
    expect(other.text).toContain('not.toBeChecked()');
    expect(other.text).toContain("expect(page.getByTestId('other-toggle')).toBeChecked()");
  });

  it('takes the actions of a beforeEach hook when the test itself only asserts', () => {
    const code = `import { test, expect } from '@playwright/test';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email address').fill('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
});

test('subscribes', async ({ page }) => {
  await expect(page.getByRole('status')).toHaveText('Subscribed reader@example.com');
});
`;
    const result = neutraliseActions(code);
    expect(result.tests[0]!.actions.map((a) => a.source)).toEqual(["page.getByLabel('Email address').fill('reader@example.com')", "page.getByRole('button', { name: 'Subscribe' }).click()"]);
    expect(result.tests[0]!.checkLines).toEqual([10]);
    expect(result.text).toContain("await page.goto('/');");
    expect(result.text).not.toContain('.click()');
  });

  it("takes the actions of a test.extend fixture the test asks for, up to where it hands its value over", () => {
    const code = `import { test as base, expect } from '@playwright/test';

const test = base.extend<{ searched: string }>({
  searched: async ({ page }, use) => {
    await page.goto('/search');
    await page.getByTestId('search-input').fill('locators');
    await page.getByTestId('search-button').click();
    await use('locators');
    await page.getByTestId('search-input').clear();
  },
});

test('search', async ({ page, searched }) => {
  await expect(page.getByTestId('search-result')).toHaveText([searched]);
});
`;
    const result = neutraliseActions(code);
    expect(result.tests[0]!.actions.map((a) => a.source)).toEqual(["page.getByTestId('search-input').fill('locators')", "page.getByTestId('search-button').click()"]);
    expect(result.text).toContain('.clear()');
    // A fixture the test does not ask for does nothing for it.
    expect(neutraliseActions(code.replace('{ page, searched }', '{ page }').replace('[searched]', "['locators']")).tests[0]!.actions).toEqual([]);
  });

  it('makes a copy per group of actions an assertion follows, the last first: a trailing action with its own check does not carry the proof', () => {
    const code = wrap(`  await page.goto('/products');
  await page.getByTestId('product-link-lamp').click();
  await page.getByTestId('add-to-cart').click();
  await page.goto('/cart');
  await expect(page.getByTestId('cart-total')).toBeVisible();
  await page.getByTestId('nav-products').click();
  await expect(page.getByTestId('products-heading')).toHaveText('Products');`);
    const copies = neutraliseGroups(code, 'spec.ts', {}, 3);
    expect(copies.map((copy) => copy.tests[0]!.actions.map((a) => a.source))).toEqual([
      ["page.getByTestId('nav-products').click()"],
      ["page.getByTestId('product-link-lamp').click()", "page.getByTestId('add-to-cart').click()"],
    ]);
    expect(copies[1]!.text).toContain("await page.getByTestId('nav-products').click();");
    expect(copies[1]!.tests[0]!.checkLines).toEqual([7, 8, 9, 10]);
    expect(neutraliseGroups(code, 'spec.ts', {}, 1)).toHaveLength(1);
    expect(neutraliseGroups(wrap(`  await page.goto('/');\n  await page.getByTestId('go').click();\n  await expect(page.getByTestId('done')).toBeVisible();`), 'spec.ts', {}, 3)).toHaveLength(1);
  });

  it('proves the groups that name what the request does before the others further back: more groups after the adding do not push it out of reach', () => {
    const code = wrap(`  await page.goto('/todos');
  await page.getByTestId('new-todo-input').fill('Pay rent');
  await page.getByTestId('add-todo-button').click();
  await expect(page.getByTestId('todo-list')).toBeVisible();
  const milk = page.getByTestId('todo-item').filter({ hasText: 'Buy milk' });
  await milk.getByTestId('todo-toggle').check();
  await expect(milk).toHaveClass(/done/);
  await milk.getByTestId('todo-toggle').uncheck();
  await expect(milk).not.toHaveClass(/done/);
  await milk.getByTestId('todo-toggle').check();
  await expect(milk).toHaveClass(/done/);`);
    const provedLines = (words: string[]) => neutraliseGroups(code, 'spec.ts', { requestWords: words }, 3).map((copy) => copy.tests[0]!.actions.map((a) => a.line));
    // Without the request's words the adding (lines 5-6) is a fourth group from the end, never made a no-op.
    expect(provedLines([])).toEqual([[13], [11], [9]]);
    expect(provedLines(['adding'])).toEqual([[13], [5, 6], [11]]);
    // A word is matched whole, at camelCase humps and past its ending: "address" is not "add".
    expect(provedLines(['dress'])).toEqual([[13], [11], [9]]);
    expect(neutraliseGroups(code.replace('add-todo-button', 'addressTodo'), 'spec.ts', { requestWords: ['add'] }, 3).map((copy) => copy.tests[0]!.actions.map((a) => a.line))).toEqual([[13], [11], [9]]);
    expect(neutraliseGroups(code.replace('add-todo-button', 'addTodo'), 'spec.ts', { requestWords: ['adds'] }, 3).map((copy) => copy.tests[0]!.actions.map((a) => a.line))).toEqual([[13], [5, 6], [11]]);
  });

  it("takes a hook's actions only into the tests of the describe block it is written in", () => {
    const code = `import { test, expect } from '@playwright/test';

test.describe('subscribed', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Subscribe' }).click();
  });
  test('shows the status', async ({ page }) => {
    await expect(page.getByRole('status')).toHaveText('Subscribed');
  });
});

test('searches', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('searchbox').fill('milk');
  await expect(page.getByRole('status')).toHaveText('1 result');
});
`;
    const [inside, outside] = neutraliseActions(code).tests;
    expect(inside!.actions.map((a) => a.source)).toEqual(["page.getByRole('button', { name: 'Subscribe' }).click()"]);
    expect(outside!.actions.map((a) => a.source)).toEqual(["page.getByRole('searchbox').fill('milk')"]);
  });

  it('proves the adding, not the cart page opened afterwards', () => {
    const cart = wrap(`  await page.goto('/products');
  await page.getByRole('button', { name: 'Add Lamp' }).click();
  await page.goto('/cart');
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');`);
    const [test] = neutraliseActions(cart).tests;
    expect(test!.actions.map((a) => a.source)).toEqual(["page.getByRole('button', { name: 'Add Lamp' }).click()"]);
    expect(test!.checkLines).toEqual([6, 7]);
  });

  it('sets aside the checks the test moves on from after the last group: it must end on what the actions change', () => {
    const flash = wrap(`  await page.goto('/products');
  await page.getByRole('button', { name: 'Add Lamp' }).click();
  await expect(page.getByText('Added to your cart')).toBeVisible();
  await expect(page).toHaveURL(/lamp/);
  await page.goto('/cart');
  await expect(page.getByTestId('cart-total')).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');
  await page.screenshot({ path: 'cart.png' });`);
    const result = neutraliseActions(flash);
    const [test] = result.tests;
    expect(test!.setAside).toEqual([6, 7]);
    expect(test!.checkLines).toEqual([8, 9, 10, 11]);
    expect(result.text).not.toContain('Added to your cart');
    expect(result.text).toContain("toHaveText('Total: $25')");
    expect(result.text.split('\n').length).toBe(flash.split('\n').length);
  });

  it('sets aside the checks before a reload and before a later action, and nothing when the test does not move on', () => {
    const reload = wrap(`  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveTitle('Sign in');
  await page.reload();
  await expect(page.getByRole('form')).toBeVisible();`);
    expect(neutraliseActions(reload).tests[0]!.setAside).toEqual([5]);
    const trailing = wrap(`  await page.getByRole('button', { name: 'Add Lamp' }).click();
  await expect(page.getByText('Added')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('link', { name: 'Home' }).click();`);
    expect(neutraliseActions(trailing).tests[0]!.setAside).toEqual([]);
  });

  it('sets aside only in the copy of the last group: an earlier group is proved by the checks that close it', () => {
    const two = wrap(`  await page.getByLabel('New todo').fill('Pay rent');
  await page.getByLabel('New todo').press('Enter');
  await expect(page.getByText('Pay rent')).toBeVisible();
  await page.getByRole('button', { name: 'Delete Pay rent' }).click();
  await expect(page.getByText('Pay rent')).toBeHidden();`);
    const copies = neutraliseGroups(two, 'spec.ts', {}, 3);
    expect(copies.map((copy) => copy.tests[0]!.setAside)).toEqual([[], []]);
    expect(copies[1]!.text).toContain("toBeVisible()");
  });

  it('names the assertion that retries an action under test, and none for an action in a step', () => {
    const retried = wrap(`  await page.goto('/search');
  await expect(async () => {
    await page.getByRole('searchbox').fill('milk');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('search-status')).toHaveText('1 result', { timeout: 1000 });
  }).toPass();`);
    expect(neutraliseActions(retried).tests[0]!.retriedAt).toEqual([5]);
    const stepped = retried.replace('await expect(async () => {', "await test.step('search', async () => {").replace('}).toPass();', '});');
    expect(neutraliseActions(stepped).tests[0]!.retriedAt).toEqual([]);
  });

  it('held-out evasions: focus and a filled field as echoes, a wait and a helper\'s navigation as what the test moves on from', () => {
    const focus = wrap(`  await page.goto('/search');
  await page.getByTestId('search-input').fill('zebra');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-button')).toBeFocused();
  await expect(page.getByTestId('search-input')).not.toBeEmpty();
  await expect(page.getByTestId('search-input')).not.toHaveValue('');`);
    const copy = neutraliseActions(focus);
    expect(copy.tests[0]!.checkLines).toEqual([]);
    expect(copy.text).not.toContain('toBeFocused');
    const waited = wrap(`  await page.getByTestId('add-to-cart').click();
  await page.getByTestId('added-message').waitFor();
  await openCart(page);
  await expect(page.getByTestId('cart-total')).toBeVisible();`, "async function openCart(tab) { await tab.goto('/cart'); }");
    expect(neutraliseActions(waited).tests[0]!.setAside).toEqual([5]);
  });

  it("knows an echo through a page object: the focus of the field its method typed into, read through the same method", () => {
    const pageObject = (assertion: string) => `import { test, expect } from '@playwright/test';
class TodoPage {
  constructor(readonly page) {}
  input() {
    return this.page.getByTestId('new-todo-input');
  }
  async add(title: string) {
    await this.input().fill(title);
    await this.input().press('Enter');
  }
}
test('add', async ({ page }) => {
  const todos = new TodoPage(page);
  await page.goto('/todos');
  await todos.add('Pay rent');
  ${assertion}
});
`;
    const focused = neutraliseActions(pageObject('await expect(todos.input()).toBeFocused();'));
    expect(focused.tests[0]!.actions.map((a) => a.line)).toEqual([8, 9]);
    expect(focused.tests[0]!.checkLines).not.toContain(16);
    // What the app made of it is no echo, through the page object or not.
    const listed = neutraliseActions(pageObject("await expect(page.getByTestId('todo-title')).toContainText(['Pay rent']);"));
    expect(listed.tests[0]!.checkLines).toContain(16);
    // Another element read through a member of the same name in another class is not the same field.
    const twoClasses = pageObject('await expect(todos.input()).toBeFocused();').replace("test('add'", "class Other { constructor(readonly page) {} input() { return this.page.getByTestId('other'); } }\ntest('add'");
    expect(neutraliseActions(twoClasses).tests[0]!.checkLines).toContain(17);
  });

  it('gives a test that only signs in nothing to prove, unless the request is about signing in', () => {
    const login = wrap(`  await page.goto('/login');
  await page.getByLabel('Username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByLabel('Password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByLabel('Password').press('Enter');
  await page.goto('/settings');
  await expect(page.getByRole('heading')).toHaveText('Settings');`);
    expect(neutraliseActions(login).tests[0]!.actions).toEqual([]);
    expect(neutraliseActions(login).text).toBe(login);
    expect(neutraliseActions(login, 'spec.ts', { signInUnderTest: true }).tests[0]!.actions).toHaveLength(3);
  });

  it('leaves actions no assertion follows, and methods of the same names on objects that are not Playwright\'s', () => {
    const own = wrap(`  await page.goto('/');
  const form = { fill: (v: string) => v };
  form.fill('x');
  await expect(page).toHaveTitle('x');
  await page.getByRole('button', { name: 'Log out' }).click();`);
    expect(neutraliseActions(own)).toEqual({ text: own, tests: [{ title: 'case', line: 3, actions: [], checkLines: [], snapshotLines: [], signIn: [], setAside: [], retriedAt: [] }] });
  });

  it("takes an action on a locator of a fixture the project's fixtures module provides; not one on a fixture the spec defines, nor on a helper's parameter", () => {
    const viaProject = `import { test, expect } from '../fixtures';

test('search', async ({ products, page }) => {
  await products.search.fill('tea');
  await expect(page.getByRole('cell', { name: 'Green Teapot' })).toBeVisible();
});
`;
    expect(neutraliseActions(viaProject).tests[0]!.actions.map((a) => a.source)).toEqual(["products.search.fill('tea')"]);
    // What the spec makes itself could be anything: its "click" may be what the assertion depends on.
    const ownFixture = `import { test as base, expect } from '@playwright/test';

const test = base.extend<{ cart: { add: { click: () => Promise<void> } } }>({
  cart: async ({ page }, use) => {
    await use({ add: { click: async () => { await page.goto('/cart'); } } });
  },
});

test('adds', async ({ cart, page }) => {
  await cart.add.click();
  await expect(page.getByRole('heading', { name: 'Cart' })).toBeVisible();
});
`;
    expect(neutraliseActions(ownFixture).tests[0]!.actions).toEqual([]);
    const parameter = wrap(`  await act({ click: async () => page.goto('/cart') });
  await expect(page.getByRole('heading', { name: 'Cart' })).toBeVisible();`, 'async function act(target: { click: () => Promise<unknown> }) { await target.click(); }');
    expect(neutraliseActions(parameter).tests[0]!.actions).toEqual([]);
  });
});
