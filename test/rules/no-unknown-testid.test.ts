import { describe, expect, it } from 'vitest';
import type { PageInventory } from '../../src/contracts.ts';
import { inTest, lint } from './harness.ts';

const RULE = 'no-unknown-testid';

function entry(testId: string, count = 1): PageInventory['testIds'][number] {
  return { testId, tag: 'div', role: null, text: null, label: null, count, visible: true };
}

const inventory: PageInventory = {
  url: 'http://127.0.0.1:4000/todos',
  title: 'Todos',
  testIdAttribute: 'data-testid',
  testIds: [entry('new-todo-input'), entry('add-todo-button'), entry('todo-list'), entry('todo-item', 3), entry('todo-toggle', 3), entry('todo-count')],
  roles: [],
  fields: [],
  headings: [],
  links: [],
  truncated: [],
  estimatedTokens: 100,
};

const check = (body: string, inv: PageInventory | undefined = inventory) => lint(RULE, inTest(body), { inventory: inv });

describe('no-unknown-testid: unknown ids', () => {
  it('reports a test id that is not on the page, with the nearest real ids', () => {
    const issues = check("await page.getByTestId('add-todo-btn').click();");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: RULE, severity: 'error', line: 4 });
    // Three suggestions (critic.yaml), nearest first.
    expect(issues[0]!.message).toContain('Test id "add-todo-btn" is not on the explored page (http://127.0.0.1:4000/todos)');
    expect(issues[0]!.message).toMatch(/did you mean "add-todo-button", "[^"]+", "[^"]+"\?$/);
  });

  it('accepts ids that are on the page', () => {
    expect(check("await page.getByTestId('add-todo-button').click();\nawait expect(page.getByTestId('todo-count')).toHaveText('1 item left');")).toEqual([]);
  });

  it('follows constants, templates, object properties and aliases of page', () => {
    const issues = check(
      [
        "const ids = { add: 'add-todo-buton' };",
        "const prefix = 'todo';",
        'const p = page;',
        'await p.getByTestId(ids.add).click();',
        'await page.getByTestId(`${prefix}-counter`).isVisible();',
        "await page.getByTestId(prefix + '-list').isVisible();",
      ].join('\n'),
    );
    expect(issues.map((i) => [i.line, i.message.split(' is ')[0]])).toEqual([
      [7, 'Test id "add-todo-buton"'],
      [8, 'Test id "todo-counter"'],
    ]);
  });

  it('treats unknown template parts as wildcards, and checks regular expressions', () => {
    const issues = check(
      [
        'const row = String(Date.now());',
        'await page.getByTestId(`todo-${row}`).isVisible();',
        'await page.getByTestId(`cart-${row}`).isVisible();',
        'await page.getByTestId(/^todo-(item|list)$/).count();',
        'await page.getByTestId(/^checkout/).count();',
      ].join('\n'),
    );
    expect(issues.map((i) => i.line)).toEqual([6, 8]);
    expect(issues[0]!.message).toContain('No test id on the explored page matches "cart-*"');
    expect(issues[1]!.message).toContain('matches "/^checkout/"');
  });

  it('reads test ids in CSS selectors, Playwright engine selectors and page-level actions', () => {
    const issues = check(
      [
        `await page.locator('[data-testid="todo-lst"]').isVisible();`,
        `await page.locator("ul[data-testid='todo-list'] li").count();`,
        `await page.locator('data-testid=todo-count').isVisible();`,
        `await page.click('[data-testid=add-todo]');`,
        `await page.locator('[data-testid^="todo-"]').count();`,
        `await page.locator('[data-testid^="cart-"]').count();`,
        `await page.locator('[data-test="whatever"]').count();`,
      ].join('\n'),
    );
    expect(issues.map((i) => i.line)).toEqual([4, 7, 9]);
    expect(issues[2]!.message).toContain('matches "[^=cart-]"');
  });

  it('skips lookups inside frames, whose elements the page inventory does not hold', () => {
    expect(check("await page.frameLocator('#payment').getByTestId('card-number').fill('4242');\nawait page.locator('iframe').contentFrame().getByTestId('pay').click();")).toEqual([]);
  });

  it('reports through page objects (this.page)', () => {
    const code = `import { test, type Page } from '@playwright/test';
class TodoPage {
  constructor(private readonly page: Page) {}
  async add() { await this.page.getByTestId('todo-adder').click(); }
}
test('case', async ({ page }) => { await new TodoPage(page).add(); });
`;
    const issues = lint(RULE, code, { inventory });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line).toBe(4);
  });

  it('only warns when the inventory was cut for size, since the id may exist', () => {
    const issues = check("await page.getByTestId('promo-banner').isVisible();", { ...inventory, truncated: ['120 test ids', '4 links'] });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.severity).toBe('warning');
    expect(issues[0]!.message).toContain('cut for size');
  });

  it('honours the number of suggestions', () => {
    const issues = lint(RULE, inTest("await page.getByTestId('todo-lst').click();"), { inventory, options: { suggestions: 1, ambiguous_severity: 'warning' } });
    expect(issues[0]!.message).toMatch(/did you mean "todo-list"\?$/);
  });

  it('does nothing without an inventory, or with one read for another attribute', () => {
    expect(lint(RULE, inTest("await page.getByTestId('nowhere').click();"))).toEqual([]);
    expect(check("await page.getByTestId('nowhere').click();", { ...inventory, testIdAttribute: 'data-qa' })).toEqual([]);
  });
});

describe('no-unknown-testid: ids several elements carry', () => {
  it('warns when an action or assertion uses the id without narrowing', () => {
    const issues = check(["await page.getByTestId('todo-item').click();", "await expect(page.getByTestId('todo-toggle')).toBeChecked();"].join('\n'));
    expect(issues.map((i) => [i.line, i.severity])).toEqual([
      [4, 'warning'],
      [5, 'warning'],
    ]);
    expect(issues[0]!.message).toContain('"todo-item" is carried by 3 elements');
    expect(issues[0]!.message).toContain('strict-mode violation');
  });

  it('follows the locator through a variable', () => {
    const issues = check("const items = page.getByTestId('todo-item');\nawait expect(items).toHaveCount(3);\nawait items.click();");
    expect(issues.map((i) => i.line)).toEqual([4]);
  });

  it('accepts narrowing, parent scopes and calls that work on all elements', () => {
    const code = [
      "await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).click();",
      "await page.getByTestId('todo-list').getByTestId('todo-item').filter({ hasText: 'x' }).click();",
      "await page.getByTestId('todo-item').locator('input').check();",
      "await expect(page.getByTestId('todo-item')).toHaveCount(3);",
      "await expect(page.getByTestId('todo-item')).toHaveText(['a', 'b', 'c']);",
      "const texts = await page.getByTestId('todo-item').allTextContents();",
      "const row = page.getByTestId('todo-list');",
      "await row.getByTestId('todo-toggle').isVisible();",
      "await page.locator('[data-testid=\"todo-item\"] input').count();",
    ].join('\n');
    expect(check(code)).toEqual([]);
  });

  it('uses the configured severity', () => {
    const issues = lint(RULE, inTest("await page.locator('[data-testid=\"todo-item\"]').click();"), { inventory, options: { suggestions: 3, ambiguous_severity: 'error' } });
    expect(issues.map((i) => i.severity)).toEqual(['error']);
  });
});

describe('no-unknown-testid: a site, judged along the flow', () => {
  const page = (url: string, ids: string[]): PageInventory => ({ ...inventory, url, title: url, testIds: ids.map((id) => entry(id)) });
  const site: PageInventory = {
    ...page('http://127.0.0.1:4000/', ['username', 'password', 'login-button']),
    pages: [page('http://127.0.0.1:4000/products', ['product-card', 'add-to-cart']), page('http://127.0.0.1:4000/cart', ['cart-item', 'checkout-button'])],
    unexplored: [],
  };
  const checkSite = (body: string) => check(body, site);

  it('accepts ids of a later page after the spec goes there', () => {
    expect(checkSite("await page.goto('/cart');\nawait page.getByTestId('checkout-button').click();")).toEqual([]);
  });

  it('rejects, with that page\'s suggestions, an id missing from an explored page the spec went to', () => {
    const issues = checkSite("await page.goto('/cart');\nawait page.getByTestId('checkout-btn').click();");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'error' });
    expect(issues[0]!.message).toContain('(http://127.0.0.1:4000/cart); did you mean "checkout-button"');
  });

  it('still rejects an invented id on the start page before any action', () => {
    const issues = checkSite("await page.goto('/');\nawait page.getByTestId('user-name').fill('x');");
    expect(issues[0]).toMatchObject({ severity: 'error' });
    expect(issues[0]!.message).toContain('did you mean "username"');
  });

  it('rejects a later page\'s id used on the start page before anything navigates', () => {
    expect(checkSite("await page.goto('/');\nawait page.getByTestId('add-to-cart').click();")[0]).toMatchObject({ severity: 'error' });
  });

  it('accepts, after an action, an id some explored page carries', () => {
    expect(checkSite("await page.goto('/');\nawait page.getByTestId('login-button').click();\nawait page.getByTestId('add-to-cart').click();")).toEqual([]);
  });

  it('marks unverified (a warning, the run decides) an id on no explored page used after an action', () => {
    const issues = checkSite("await page.goto('/');\nawait page.getByTestId('login-button').click();\nawait page.getByTestId('add-to-basket').click();");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'warning' });
    expect(issues[0]!.message).toContain('unverified');
    expect(issues[0]!.message).toContain('"add-to-cart"');
  });

  it('marks unverified an id on a page the spec goes to that was not explored', () => {
    const issues = checkSite("await page.goto('/orders');\nawait expect(page.getByTestId('order-row')).toBeVisible();");
    expect(issues[0]).toMatchObject({ severity: 'warning' });
    expect(issues[0]!.message).toContain('on /orders, a page that was not explored');
  });

  it('knows the page again from toHaveURL, through a variable holding the path', () => {
    const issues = checkSite("const cart = '/cart';\nawait page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');\nawait page.getByTestId('login-button').click();\nawait expect(page).toHaveURL(cart);\nawait page.getByTestId('add-to-cart').click();");
    expect(issues[0]).toMatchObject({ severity: 'error' });
    expect(issues[0]!.message).toContain('(http://127.0.0.1:4000/cart)');
  });

  it('marks unverified an id missing from an explored page the spec goes to after it acted: its actions may have made it', () => {
    // The cart was explored empty; the line of the item the spec added is not in it.
    const added = "await page.goto('/products');\nawait page.getByTestId('add-to-cart').click();\nawait page.goto('/cart');\nawait expect(page.getByTestId('cart-line')).toHaveText('Lamp');";
    const issues = checkSite(added);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'warning' });
    expect(issues[0]!.message).toContain('"cart-line" is unverified: it is not on /cart as explored');
    expect(issues[0]!.message).toContain('(nearest there: "cart-item"');
    // Signing in changes nothing the exploration did not see (it signed in too): an invented id there is still an error.
    const signedIn = "await page.goto('/');\nawait page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');\nawait page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');\nawait page.getByTestId('login-button').click();\nawait page.goto('/cart');\nawait expect(page.getByTestId('cart-line')).toBeVisible();";
    expect(checkSite(signedIn)[0]).toMatchObject({ severity: 'error' });
    // An id the page has is judged as before, acted or not.
    expect(checkSite("await page.goto('/products');\nawait page.getByTestId('add-to-cart').click();\nawait page.goto('/cart');\nawait page.getByTestId('checkout-button').click();")).toEqual([]);
  });

  it('judges a locator where it is first used, not where it is declared', () => {
    // Declared at the top, first used after signing in: on the page the sign-in leads to.
    const declaredEarly = "const add = page.getByTestId('add-to-cart');\nawait page.goto('/');\nawait page.getByTestId('login-button').click();\nawait add.click();";
    expect(checkSite(declaredEarly)).toEqual([]);
    // Through a second variable, and narrowed on the way.
    const throughTwo = "const cart = page.getByTestId('checkout-button');\nconst first = cart.first();\nawait page.goto('/cart');\nawait first.click();";
    expect(checkSite(throughTwo)).toEqual([]);
    // Declared late but first used on the start page, before anything navigates: still the start page's.
    const usedEarly = "const add = page.getByTestId('add-to-cart');\nawait add.click();\nawait page.getByTestId('login-button').click();";
    expect(checkSite(usedEarly)[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('"add-to-cart" is not on the explored page (http://127.0.0.1:4000/)') });
    // An invented id declared early and used after an action: unverified, judged where it is used.
    const invented = "const sort = page.getByTestId('sort');\nawait page.getByTestId('login-button').click();\nawait sort.click();";
    expect(checkSite(invented)[0]).toMatchObject({ severity: 'warning' });
  });

  it("judges a page object's locators where the test reads its fields and calls its methods, not where the class is written", () => {
    const pageObject = (test: string) => `import { test, expect, type Locator, type Page } from '@playwright/test';

class CartPage {
  readonly lines: Locator;
  readonly checkout = this.page.getByTestId('checkout-button');

  constructor(private readonly page: Page) {
    this.lines = page.getByTestId('cart-item');
  }

  async open() {
    await this.page.goto('/cart');
  }

  get first() {
    return this.page.getByTestId('cart-item').first();
  }
}

test('cart', async ({ page }) => {
  const cart = new CartPage(page);
${test}
});
`;
    const lintSite = (code: string) => lint(RULE, code, { inventory: site });
    // Read after the method that goes to the cart: on the cart, where the ids are.
    expect(lintSite(pageObject("  await cart.open();\n  await expect(cart.lines).toHaveCount(1);\n  await expect(cart.first).toBeVisible();\n  await cart.checkout.click();"))).toEqual([]);
    // A call of a locator's method of the getter's name (`first()`) is no read of the getter.
    expect(lintSite(pageObject("  await page.getByTestId('username').first().click();\n  await cart.open();\n  await expect(cart.first).toBeVisible();"))).toEqual([]);
    // Read before it: on the start page, which has none of them.
    const early = lintSite(pageObject("  await expect(cart.lines).toHaveCount(1);\n  await cart.open();"));
    expect(early.map((i) => [i.line, i.severity])).toEqual([[8, 'error']]);
    expect(early[0]!.message).toContain('"cart-item" is not on the explored page (http://127.0.0.1:4000/)');
  });
});
