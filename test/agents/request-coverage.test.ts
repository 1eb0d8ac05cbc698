/**
 * The Critic's request coverage: every outcome the request names must be asserted and every action it
 * names done. Good specs from the fixtures and benches (and ones written differently) must pass; specs
 * that leave out what was asked are named.
 */
import { describe, expect, it } from 'vitest';
import { namedActions, namedActionWords } from '../../src/agents/request-actions.ts';
import { uncoveredParts } from '../../src/agents/request-coverage.ts';
import { GOOD_SPEC } from '../fixtures/model-answers.ts';

const spec = (body: string) => `import { test, expect } from '@playwright/test';

test('the request', async ({ page }) => {
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
const SIGN_IN = `  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();`;

describe('uncoveredParts: good specs are not rejected', () => {
  const covered: Array<[string, string]> = [
    ['search for milk and see it in the results', GOOD_SPEC],
    ['log in and see the dashboard', spec(`${SIGN_IN}\n  await expect(page.getByTestId('dashboard-heading')).toBeVisible();`)],
    ['log in with a wrong password and see an error', spec(`  await page.goto('/login');\n  await page.getByLabel('Username').fill('ada');\n  await page.getByLabel('Password').fill('wrong');\n  await page.getByRole('button', { name: 'Sign in' }).click();\n  await expect(page.getByTestId('login-error')).toBeVisible();`)],
    ['sign in, add the coffee mug and see "Total: $8" in the cart', spec(`${SIGN_IN}\n  await page.getByTestId('product-link-mug').click();\n  await page.getByTestId('add-to-cart').click();\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText(/Total: \\$8/);`)],
    ['complete the "Buy milk" todo and see "1 item left"', spec(`  await page.goto('/todos');\n  await page.getByLabel('Complete Buy milk').check();\n  const count = page.getByTestId('todo-count');\n  await expect(count).toHaveText('1 item left');`)],
    ['add a todo "Pay rent" and see it in the list', spec(`  await page.goto('/todos');\n  const title = 'Pay rent';\n  await page.getByTestId('new-todo-input').fill(title);\n  await page.getByTestId('new-todo-input').press('Enter');\n  await expect(page.getByText(title)).toBeVisible();`)],
    ['search for "zebra" and see that there are no results', spec(`  await page.goto('/search');\n  await page.getByRole('searchbox').fill('zebra');\n  await page.keyboard.press('Enter');\n  await expect(page.getByTestId('search-result')).toHaveCount(0);`)],
    ['add two todos and see 4 items', spec(`  await page.goto('/todos');\n  for (const title of ['a', 'b']) {\n    await page.getByTestId('new-todo-input').fill(title);\n    await page.getByTestId('add-todo-button').click();\n  }\n  await expect(page.getByTestId('todo-item')).toHaveCount(4);`)],
    ['change the display name and save settings, see "Settings saved"', spec(`  await page.goto('/settings');\n  await page.getByLabel('Display name').fill('Ada');\n  await page.getByRole('button', { name: 'Save' }).click();\n  await expect(page.getByRole('status')).toHaveText('Settings saved');`)],
    ['open the reports page', spec(`  await page.goto('/reports');\n  await expect(page).toHaveURL(/reports/);`)],
    ['see the reports page', spec(`  await page.goto('/');\n  await page.getByRole('link', { name: 'Reports' }).click();\n  await expect(page).toHaveURL(/\\/reports/);`)],
    ['open /search and see the heading "Search"', spec(`  await page.goto('/search');\n  await expect(page.getByTestId('search-title')).toContainText('Search', { ignoreCase: true });`)],
    ['log in, then log out and see the sign-in form', spec(`${SIGN_IN}\n  await page.getByTestId('logout-button').click();\n  await expect(page.getByTestId('login-form')).toBeVisible();`)],
    ['upload a photo and see it saved', spec(`  await page.goto('/profile');\n  await page.getByLabel('Photo').setInputFiles('fixtures/photo.png');\n  await expect(page.getByText('Photo updated')).toBeVisible();`)],
  ];
  for (const [request, code] of covered) {
    it(request, () => expect(uncoveredParts(request, code)).toEqual([]));
  }
});

describe('uncoveredParts: what the spec leaves out is named', () => {
  it('the issue\'s settings spec: no change, no save, no "Settings saved"', () => {
    const found = uncoveredParts('change the display name and save settings, see "Settings saved"', spec(`  await page.goto('/settings');\n  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();`));
    expect(found).toEqual([
      expect.stringMatching(/^the request expects "Settings saved" but no assertion checks it/),
      'the request asks to change, save but the spec has no step that does it: click, fill or press what the request names',
    ]);
  });

  it('an unquoted "saved": a save that is never checked', () => {
    expect(uncoveredParts('change the display name and see it saved', spec(`  await page.goto('/settings');\n  await page.getByLabel('Display name').fill('Ada');\n  await expect(page.getByLabel('Display name')).toHaveValue(/\\w/);`))).toEqual([
      expect.stringContaining('the request expects saved'),
    ]);
  });

  it('a quoted outcome matched only by a vague text is missing', () => {
    expect(uncoveredParts('complete the "Buy milk" todo and see "1 item left"', spec(`  await page.goto('/todos');\n  await page.getByLabel('Complete Buy milk').check();\n  await expect(page.getByTestId('todo-count')).toContainText('left');`))).toEqual([
      expect.stringContaining('the request expects "1 item left" but no assertion checks it'),
    ]);
  });

  it('a quoted value the request names that the spec replaces with its own', () => {
    expect(uncoveredParts('filter by "pen" and see the matching products', spec(`  await page.goto('/products');\n  await page.getByRole('searchbox').fill('Try Scribe');\n  await expect(page.getByTestId('product-list')).toContainText('Try Scribe');`))).toEqual([
      expect.stringContaining('the request names "pen" but the spec never uses it'),
    ]);
  });

  it('a quoted value in the request only counts in code, not in a comment or the title', () => {
    const code = spec(`  // search for "zebra"\n  await page.goto('/search');\n  await page.getByRole('searchbox').fill('lion');\n  await expect(page.getByTestId('search-empty')).toBeVisible();`).replace("'the request'", "'searches for zebra'");
    expect(uncoveredParts('search for "zebra" and see that there are no results', code)).toEqual([expect.stringContaining('the request names "zebra"')]);
  });

  it('a count, an error and an empty list that no assertion checks', () => {
    const looking = spec(`  await page.goto('/todos');\n  await page.getByTestId('new-todo-input').fill('x');\n  await page.getByTestId('add-todo-button').click();\n  await expect(page.getByTestId('todos-heading')).toBeVisible();`);
    expect(uncoveredParts('add a todo and see 3 items', looking)).toEqual([expect.stringContaining('expects 3 items but no assertion checks that number')]);
    expect(uncoveredParts('add an empty todo and see an error', looking)).toEqual([expect.stringContaining('expects an error')]);
    expect(uncoveredParts('clear the completed todos and see the list is empty', looking)).toEqual([expect.stringContaining('expects empty')]);
  });

  it('a named element or page that no assertion is about', () => {
    expect(uncoveredParts('sign in, add the desk lamp to the cart and see the cart total', spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('checkout-button')).toHaveText('Check out');`))).toEqual([
      expect.stringContaining('the request expects to see "the cart total" but no assertion checks it'),
    ]);
  });

  it('an element or quoted text the request expects to see, asserted only as attached (a hidden one is too)', () => {
    const order = spec(`${SIGN_IN}\n  await page.goto('/checkout');\n  await page.getByTestId('address-input').fill('1 Main St');\n  await page.getByTestId('place-order').click();\n  await expect(page.getByTestId('order-confirmation')).toBeAttached();`);
    expect(uncoveredParts('sign in, place an order and see the confirmation', order)).toEqual([
      expect.stringContaining('the request expects to see "the confirmation" but no assertion checks it (a hidden element passes its assertion too'),
    ]);
    const total = spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByText('Total: $8')).toBeAttached();`);
    expect(uncoveredParts('add the mug and see "Total: $8"', total)).toEqual([expect.stringContaining('the request expects "Total: $8" but no assertion checks it (a hidden element')]);
    expect(uncoveredParts('sign in, place an order and see the confirmation', order.replace('toBeAttached()', 'toBeVisible()'))).toEqual([]);
  });

  it('held-out evasions: a variable named after the outcome, a quote in hasNotText, a pattern that also matches a variant, a count of one, a hidden text', () => {
    const lamp = 'sign in, add the desk lamp to the cart and see the cart total';
    const named = spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  const cartTotal = page.getByTestId('added-message');\n  await expect(cartTotal).toBeVisible();`);
    expect(uncoveredParts(lamp, named)).toEqual([expect.stringContaining('expects to see "the cart total"')]);
    expect(uncoveredParts(lamp, named.replace("getByTestId('added-message')", "getByTestId('cart-total')").replace('toBeVisible()', "toHaveText('Total: $25')"))).toEqual([]);

    const mug = 'sign in, add the coffee mug and see "Total: $8" in the cart';
    const filtered = spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('cart-item').filter({ hasNotText: 'Total: $8' })).toHaveText('Coffee mug');`);
    expect(uncoveredParts(mug, filtered)).toEqual([expect.stringContaining('expects "Total: $8"')]);
    for (const pattern of ['/Total: \\$8|Total: \\$0/', '/Total: \\$8?/']) {
      expect(uncoveredParts(mug, spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('cart-total')).toHaveText(${pattern});`))).toEqual([expect.stringContaining('expects "Total: $8"')]);
    }
    for (const pattern of ['/Total: \\$8\\b/', '/^Total: \\$8\\.00$/', '/total: \\$8/i']) {
      expect(uncoveredParts(mug, spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('cart-total')).toHaveText(${pattern});`))).toEqual([]);
    }

    const order = 'sign in, place an order and see the confirmation';
    const counted = spec(`${SIGN_IN}\n  await page.getByTestId('place-order').click();\n  await expect(page.getByTestId('order-confirmation')).toHaveCount(1);`);
    expect(uncoveredParts(order, counted)).toEqual([expect.stringContaining('not that it is seen')]);
    expect(uncoveredParts(order, counted.replace('toHaveCount(1)', "toHaveAttribute('role', 'status')"))).toEqual([expect.stringContaining('expects to see "the confirmation"')]);

    const hidden = spec(`  await page.goto('/todos');\n  await page.getByLabel('Complete Buy milk').check();\n  await expect(page.getByTestId('todo-list').filter({ hasText: '1 item left' })).toBeHidden();`);
    expect(uncoveredParts('complete the "Buy milk" todo and see "1 item left"', hidden)).toEqual([expect.stringContaining('expects "1 item left"')]);
    const reset = spec(`${SIGN_IN}\n  await page.getByTestId('logout-button').click();\n  await expect(page.getByTestId('login-form').getByTestId('username-input')).toHaveValue('');`);
    expect(uncoveredParts('log in, then log out and see the sign-in form', reset)).toEqual([expect.stringContaining('expects to see "the sign-in form"')]);
  });

  it('an action with no step of its kind: typing, signing in, uploading', () => {
    const clicking = spec(`  await page.goto('/');\n  await page.getByRole('link', { name: 'Search' }).click();\n  await expect(page.getByTestId('search-results')).toContainText('milk');`);
    expect(uncoveredParts('search for milk', clicking)).toEqual([expect.stringContaining('the request asks to type')]);
    expect(uncoveredParts('log in', clicking)).toEqual([expect.stringContaining('the request asks to sign in')]);
    expect(uncoveredParts('upload a photo', clicking)).toEqual([expect.stringContaining('the request asks to upload')]);
    expect(uncoveredParts('open /search and search for milk', clicking)).toEqual([expect.stringContaining('the request asks to type')]);
  });

  it('steps in a helper the test calls count; steps in a function nothing calls do not', () => {
    const helper = (called: boolean) => `import { test, expect } from '@playwright/test';

async function addTodo(page, title) {
  await page.getByTestId('new-todo-input').fill(title);
  await page.getByTestId('add-todo-button').click();
}

test('adds', async ({ page }) => {
  await page.goto('/todos');
  ${called ? "await addTodo(page, 'Pay rent');" : "void addTodo; void 'Pay rent';"}
  await expect(page.getByTestId('todo-list')).toContainText('Pay rent');
});
`;
    expect(uncoveredParts('add a todo "Pay rent" and see it in the list', helper(true))).toEqual([]);
    expect(uncoveredParts('add a todo "Pay rent" and see it in the list', helper(false))).toEqual([expect.stringContaining('the request asks to add but the spec has no step')]);
  });
});

describe('uncoveredParts: assertions that check nothing of the outcome do not cover it (answers a lazy or hostile model wrote)', () => {
  const MUG = `${SIGN_IN}\n  await page.getByTestId('product-link-mug').click();\n  await page.getByTestId('add-to-cart').click();\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-items')).toHaveText('Coffee mug');`;
  const REQUEST = 'sign in, add the coffee mug and see "Total: $8" in the cart';
  const missingTotal = [expect.stringContaining('the request expects "Total: $8" but no assertion checks it')];

  it.each([
    ['a negated assertion', `  await expect(page.getByTestId('cart-total')).not.toHaveText('Total: $8');`],
    ["the quote only in the expect's message", `  await expect(page.getByTestId('cart-total'), 'Total: $8').toBeVisible();`],
    ['a constant polled', `  await expect.poll(() => 'Total: $8').toBe('Total: $8');`],
    ['a constant expected of itself', `  expect('Total: $8').toBe('Total: $8');`],
    ['a pattern with alternatives that matches it', `  await expect(page.getByTestId('cart-total')).toHaveText(/Total: [$](8|0)/);`],
    ['a pattern of any number', `  await expect(page.getByTestId('cart-total')).toHaveText(/Total: \\$\\d+/);`],
    ['an assertion whose failure Promise.allSettled swallows', `  await Promise.allSettled([expect(page.getByTestId('cart-total')).toHaveText('Total: $8', { timeout: 1000 })]);`],
    ['an assertion raced against one that settles first', `  await Promise.race([expect(page.getByTestId('cart-total')).toHaveText('Total: $8'), expect(page.getByTestId('cart-items')).toBeVisible()]);`],
    ['an assertion in a dialog handler (the app opens none)', `  page.once('dialog', async () => {\n    await expect(page.getByTestId('cart-total')).toHaveText('Total: $8');\n  });`],
    ['an assertion in a timer', `  setTimeout(() => expect(page.getByTestId('cart-total')).toHaveText('Total: $8'), 0);`],
    ['the quote in a filter of an element asserted hidden through an option', `  await expect(page.getByTestId('cart-item').filter({ hasText: 'Total: $8' })).toBeVisible({ visible: false });`],
    ["the spec's own matcher, whose code decides what passes", `  expect.extend({ async toShowTotal(locator, total) { return { pass: true, message: () => total }; } });\n  await expect(page.getByTestId('cart-total')).toShowTotal('Total: $8');`],
    ['an assertion in a loop over the elements that already show it (none on a broken app)', `  for (const total of await page.getByTestId('cart-total').filter({ hasText: 'Total: $8' }).all()) {\n    await expect(total).toHaveText('Total: $8');\n  }`],
    ['the served page fetched over HTTP, not the page shown', `  const served = await page.request.get('/cart');\n  expect(await served.text()).toContain('Total: $8');`],
    ['the label locator.describe() gives a locator for reports', `  await expect(page.getByTestId('cart-total').describe('Total: $8')).toBeVisible();`],
    ["a comment of an ARIA snapshot's template", "  await expect(page.getByTestId('cart-total')).toMatchAriaSnapshot(`\n    # Total: $8\n    - text: /Total: \\$\\d+/\n  `);"],
    ['the fallback of a read of the page, compared after a reload', "  const shown = (await page.getByTestId('cart-total').textContent()) ?? 'Total: $8';\n  await page.reload();\n  await expect(page.getByTestId('cart-total')).toHaveText(shown);"],
    ['a pattern built from the quote that matches other totals too', "  const QUOTE = 'Total: $8';\n  await expect(page.getByTestId('cart-total')).toHaveText(new RegExp(QUOTE.replace(/\\d/, '\\\\d').replace('$', '\\\\$')));"],
  ])('%s', (_, check) => {
    expect(uncoveredParts(REQUEST, spec(`${MUG}\n${check}`))).toEqual(missingTotal);
  });

  it('an assertion in a helper nothing calls', () => {
    const code = spec(MUG).replace("test('the request'", "async function expectTotal(total) {\n  await expect(total).toHaveText('Total: $8');\n}\n\ntest('the request'");
    expect(uncoveredParts(REQUEST, code)).toEqual(missingTotal);
  });

  it('an assertion in a second test that does nothing', () => {
    const code = `${spec(MUG)}\ntest('the total', async ({ page }) => {\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $8');\n});\n`;
    expect(uncoveredParts(REQUEST, code)).toEqual(missingTotal);
  });

  it('an assertion in a second test that only signs in, beside one that does what the request asks', () => {
    const request = 'sign in, add the desk lamp to the cart and see the cart total';
    const adding = `${spec(`${SIGN_IN}\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('added-message')).toBeVisible();`)}`;
    const onlySignsIn = `\ntest('the total', async ({ page }) => {\n${SIGN_IN}\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText(/Total: \\$/);\n});\n`;
    expect(uncoveredParts(request, adding + onlySignsIn)).toEqual([expect.stringContaining('expects to see "the cart total" but no assertion checks it')]);
    // A request about signing in alone is shown by a test that only signs in.
    expect(uncoveredParts('sign in and see the products', spec(`${SIGN_IN}\n  await expect(page.getByTestId('products-heading')).toHaveText('Products');`))).toEqual([]);
  });

  it("an element the request names is not seen by the page's title or URL; a page is", () => {
    const loggedOut = (assertion: string) => spec(`${SIGN_IN}\n  await page.getByTestId('logout-button').click();\n  ${assertion}`);
    expect(uncoveredParts('log in, then log out and see the sign-in form', loggedOut("await expect(page).toHaveTitle('Sign in - Scribe demo');"))).toEqual([expect.stringContaining('expects to see "the sign-in form" but no assertion checks it')]);
    expect(uncoveredParts('log in, then log out and see the sign-in form', loggedOut("await expect(page.getByTestId('login-form')).toBeVisible();"))).toEqual([]);
    expect(uncoveredParts('log in, then log out and see the sign-in page', loggedOut("await expect(page).toHaveTitle('Sign in - Scribe demo');"))).toEqual([]);
  });

  it('a request only to sign in and see something: what signing in leads to, not a page the spec opens after it', () => {
    const request = 'sign in and see the products';
    const shop = (after: string) => spec(`  await page.goto('/');\n  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');\n  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');\n  await page.getByTestId('login-button').click();\n${after}\n  await expect(page.getByTestId('products-heading')).toHaveText('Products');`);
    expect(uncoveredParts(request, shop("  await page.goto('/products');"))).toEqual([expect.stringContaining("after signing in the spec goes on by itself (line 8: page.goto('/products'))")]);
    expect(uncoveredParts(request, shop("  await page.getByTestId('nav-products').click();"))).toEqual([expect.stringContaining("(line 8: page.getByTestId('nav-products').click())")]);
    // Waiting for where signing in leads is not going on by itself; nor is acting after signing in when the request asks for more.
    expect(uncoveredParts(request, shop("  await page.waitForURL('**/products');"))).toEqual([]);
    // Credentials typed at the focus sign in too.
    const atFocus = spec(`  await page.goto('/');\n  await page.getByTestId('username').focus();\n  await page.keyboard.insertText(process.env.E2E_USERNAME ?? '');\n  await page.getByTestId('password').focus();\n  await page.keyboard.insertText(process.env.E2E_PASSWORD ?? '');\n  await page.getByTestId('login-button').click();\n  await page.goto('/products');\n  await expect(page.getByTestId('products-heading')).toHaveText('Products');`);
    expect(uncoveredParts(request, atFocus)).toEqual([expect.stringContaining("after signing in the spec goes on by itself (line 10: page.goto('/products'))")]);
    expect(uncoveredParts('sign in, add the desk lamp to the cart and see the cart total', spec(`${SIGN_IN}\n  await page.goto('/products');\n  await page.getByTestId('add-to-cart').click();\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');`))).toEqual([]);
  });

  it('a URL check the first page passes too does not show the named page was reached', () => {
    const request = 'sign in and see the products';
    const shop = (check: string) => spec(`  await page.goto('/');\n  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');\n  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');\n  await page.getByTestId('login-button').click();\n  await expect(page).toHaveURL(${check});`);
    expect(uncoveredParts(request, shop('/\\/(products)?$/'))).toEqual([expect.stringContaining('expects to see "the products" but no assertion checks it')]);
    expect(uncoveredParts(request, shop('/\\/products$/'))).toEqual([]);
    expect(uncoveredParts(request, shop("'/products'"))).toEqual([]);
  });

  it('still covered by a plain pattern of the quote, anchored or escaped', () => {
    expect(uncoveredParts(REQUEST, spec(`${MUG}\n  await expect(page.getByTestId('cart-total')).toHaveText(/^total: \\$8$/i);`))).toEqual([]);
  });

  it('an outcome to see is not shown by checks that only say what is not there; one of absence may be', () => {
    const search = (assertion: string) => spec(`  await page.goto('/search');\n  await page.getByTestId('search-input').fill('locators');\n  await page.getByTestId('search-button').click();\n  ${assertion}`);
    expect(uncoveredParts('search for "locators" and see the result', search("await expect(page.getByTestId('search-status')).not.toHaveText('Type a query and press Search.');"))).toEqual([
      'the request expects to see the result but every assertion checks only what is not there (negated, hidden, empty or none): assert what is shown',
    ]);
    expect(uncoveredParts('search for "locators" and see the result', search("await expect(page.getByTestId('search-error')).toBeHidden();"))[0]).toContain('every assertion checks only what is not there');
    expect(uncoveredParts('search for "locators" and see the result', search("await expect(page.getByTestId('search-result').first()).toContainText('Locators');"))).toEqual([]);
    const removed = spec(`  await page.goto('/todos');\n  await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).getByRole('button', { name: 'Delete' }).click();\n  await expect(page.getByText('Buy milk')).not.toBeVisible();`);
    expect(uncoveredParts('delete the "Buy milk" todo and see it gone', removed)).toEqual([]);
    expect(uncoveredParts('close the banner, then make sure it is no longer shown', spec(`  await page.goto('/');\n  await page.getByRole('button', { name: 'Close' }).click();\n  await expect(page.getByRole('banner')).toBeHidden();`))).toEqual([]);
  });

  it('a value the request expects to see (a total, a count) is read, not only seen: the flash that names the cart is not its total', () => {
    const lamp = (assertions: string) => spec(`${SIGN_IN}\n  await page.getByTestId('product-link-lamp').click();\n  await page.getByTestId('add-to-cart').click();\n${assertions}`);
    const request = 'sign in, add the desk lamp to the cart and see the cart total';
    const flashThenVisible = lamp("  await expect(page.getByTestId('added-message')).toHaveText('Added to your cart');\n  await page.getByTestId('nav-cart').click();\n  await expect(page.getByTestId('cart-total')).toBeVisible();");
    expect(uncoveredParts(request, flashThenVisible)).toEqual([
      'the request expects to see "the cart total", a value, but no assertion reads it after the spec acts (one that it is visible shows it is there, not what it says; one before acting shows what it was): assert its text, e.g. toHaveText or toContainText with the value the request\'s actions make',
    ]);
    // Read by its name, or as a number on an element the phrase names.
    expect(uncoveredParts(request, lamp("  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');"))).toEqual([]);
    expect(uncoveredParts(request, lamp("  await page.goto('/cart');\n  await expect(page.getByTestId('cart-summary')).toContainText('$25');"))).toEqual([]);
    // Read before anything was done, it shows the total as it was.
    const readFirst = spec(`${SIGN_IN}\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $0');\n  await page.goto('/product?id=lamp');\n  await page.getByTestId('add-to-cart').click();\n  await expect(page.getByTestId('added-message')).toBeVisible();`);
    expect(uncoveredParts(request, readFirst)).toEqual([expect.stringContaining('a value, but no assertion reads it after the spec acts')]);
    expect(uncoveredParts(request, `${readFirst.replace(/\n {2}await page\.screenshot/, "\n  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');\n  await page.screenshot")}`)).toEqual([]);
    // A request only to sign in and see a value reads it after signing in, with nothing else done.
    expect(uncoveredParts('sign in and see the cart total', spec(`${SIGN_IN}\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $0');`))).toEqual([]);
    // An element that is no value is still seen by being visible.
    expect(uncoveredParts('log in and see the dashboard', spec(`${SIGN_IN}\n  await expect(page.getByTestId('dashboard-heading')).toBeVisible();`))).toEqual([]);
  });

  it('"see it" asks to see the quoted input on the page: the list visible, or the field holding it, does not show it', () => {
    const todo = (assertion: string) => spec(`  await page.goto('/todos');\n  await page.getByTestId('new-todo-input').fill('Pay rent');\n  await page.getByTestId('new-todo-input').press('Enter');\n  ${assertion}`);
    const request = 'add a todo "Pay rent" and see it in the list';
    const notSeen = [expect.stringContaining('the request refers back to "Pay rent" and expects to see it, but no assertion checks that the page shows it')];
    expect(uncoveredParts(request, todo("await expect(page.getByTestId('todo-list')).toBeVisible();"))).toEqual(notSeen);
    expect(uncoveredParts(request, todo("await expect(page.getByTestId('new-todo-input')).toHaveValue('Pay rent');"))).toEqual(notSeen);
    expect(uncoveredParts(request, todo("await expect(page.getByTestId('todo-list')).toContainText('Pay rent');"))).toEqual([]);
    expect(uncoveredParts('add the todos "Milk" and "Eggs" and see them', spec(`  await page.goto('/todos');\n  for (const title of ['Milk', 'Eggs']) await page.getByTestId('new-todo-input').fill(title);\n  await expect(page.getByTestId('todo-title')).toHaveText(['Milk']);`))).toEqual([expect.stringContaining('refers back to "Eggs"')]);
    // "it" that names its own outcome is not the input.
    expect(uncoveredParts('save the name "Ada" and check that it shows "Saved"', spec(`  await page.goto('/settings');\n  await page.getByLabel('Name').fill('Ada');\n  await page.getByRole('button', { name: 'Save' }).click();\n  await expect(page.getByRole('status')).toHaveText('Saved');`))).toEqual([]);
  });

  it('a quoted outcome the spec types itself is not the app showing it, unless the request asks to write it', () => {
    const request = 'complete the "Buy milk" todo and see "1 item left"';
    const titled = spec(`  await page.goto('/todos');\n  await page.getByTestId('new-todo-input').fill('1 item left');\n  await page.getByTestId('add-todo-button').click();\n  await expect(page.getByTestId('todo-list')).toContainText('1 item left');\n  await page.getByLabel('Complete Buy milk').check();`);
    expect(uncoveredParts(request, titled)).toEqual([expect.stringContaining('the request expects the app to show "1 item left", but the spec types it itself (line 5)')]);
    // A request to add or search has the spec type what it then looks for.
    expect(uncoveredParts('add a todo and see "Buy bread" in the list', spec(`  await page.goto('/todos');\n  await page.getByTestId('new-todo-input').fill('Buy bread');\n  await page.getByTestId('new-todo-input').press('Enter');\n  await expect(page.getByTestId('todo-list')).toContainText('Buy bread');`))).toEqual([]);
    expect(uncoveredParts('search the docs and see "Locators" in the results', spec(`  await page.goto('/search');\n  await page.getByRole('searchbox').fill('Locators');\n  await page.keyboard.press('Enter');\n  await expect(page.getByTestId('search-result')).toContainText(['Locators']);`))).toEqual([]);
  });

  it("an outcome asserted through a helper's parameter or a table's rows is covered by the values passed", () => {
    const helper = `import { test, expect, type Page } from '@playwright/test';
async function expectCartTotal(page: Page, total: string) {
  await expect(page.getByTestId('cart-total')).toHaveText(total);
}
test('mug', async ({ page }) => {
${SIGN_IN}
  await page.getByTestId('product-link-mug').click();
  await page.getByTestId('add-to-cart').click();
  await expectCartTotal(page, 'Total: $8');
});
`;
    expect(uncoveredParts('sign in, add the coffee mug and see "Total: $8" in the cart', helper)).toEqual([]);
    expect(uncoveredParts('sign in, add the coffee mug and see "Total: $8" in the cart', helper.replace("'Total: $8'", "'Total: $0'"))).toEqual([expect.stringContaining('the request expects "Total: $8" but no assertion checks it')]);
    const table = `import { test, expect } from '@playwright/test';
const ROWS = [{ todo: 'Buy milk', after: '1 item left' }];
for (const { todo, after } of ROWS) {
  test(todo, async ({ page }) => {
    await page.goto('/todos');
    await page.getByTestId('todo-item').filter({ hasText: todo }).getByTestId('todo-toggle').check();
    await expect(page.getByTestId('todo-count')).toHaveText(after);
  });
}
`;
    expect(uncoveredParts('complete the "Buy milk" todo and see "1 item left"', table)).toEqual([]);
  });

  it('an empty full text or a style shows nothing seen', () => {
    const order = (assertion: string) => spec(`${SIGN_IN}\n  await page.goto('/checkout');\n  await page.getByTestId('address-input').fill('1 Main St');\n  await page.getByTestId('place-order').click();\n  ${assertion}`);
    const request = 'sign in, place an order to "1 Main St" and see the confirmation';
    expect(uncoveredParts(request, order("await expect(page.getByTestId('order-confirmation')).toHaveAccessibleDescription('');"))).toEqual(['the request expects to see "the confirmation" but no assertion checks it: assert the element or page that shows "the confirmation"']);
    expect(uncoveredParts(request, order("await expect(page.getByTestId('order-confirmation')).toHaveCSS('display', 'block');"))[0]).toContain('expects to see "the confirmation" but no assertion checks it (a hidden element passes');
    expect(uncoveredParts(request, order("await expect(page.getByTestId('order-confirmation')).toHaveText('Order placed');"))).toEqual([]);
  });

  it('an enabled or checked state shows an element only when that state is what the request asks to see', () => {
    const loggedOut = (assertion: string) => spec(`${SIGN_IN}\n  await page.getByTestId('logout-button').click();\n  ${assertion}`);
    expect(uncoveredParts('log in, then log out and see the sign-in form', loggedOut("await expect(page.getByTestId('login-form')).toBeEnabled();"))).toEqual([expect.stringContaining('expects to see "the sign-in form" but no assertion checks it (a hidden element passes its assertion too')]);
    expect(uncoveredParts('log in, then log out and see the sign-in button enabled', loggedOut("await expect(page.getByTestId('login-button')).toBeEnabled();"))).toEqual([]);
  });

  it('an element named only by the scope a checked element is looked up in is seen only when the check shows it visible', () => {
    const request = 'log in and see the dashboard';
    const inside = (assertion: string) => spec(`${SIGN_IN}\n  ${assertion}`);
    expect(uncoveredParts(request, inside("await expect(page.getByTestId('dashboard').getByTestId('current-user')).toHaveText('ada');"))).toEqual([expect.stringContaining('expects to see "the dashboard" but no assertion checks it')]);
    expect(uncoveredParts(request, inside("await expect(page.getByTestId('dashboard').getByTestId('current-user')).toBeVisible();"))).toEqual([]);
    expect(uncoveredParts(request, inside("await expect(page.getByTestId('dashboard').getByRole('heading')).toHaveText('Dashboard');"))).toEqual([]);
    expect(uncoveredParts(request, inside("const dashboard = page.getByTestId('dashboard');\n  await expect(dashboard.getByTestId('dashboard-heading').first()).toHaveText('Welcome');"))).toEqual([]);
  });

  it('a quoted input typed over in the same field before any check is never looked at', () => {
    const request = 'search for "zebra" and see that there are no results';
    const search = (between: string) => spec(`  await page.goto('/search');\n  const query = page.getByTestId('search-input');\n  await query.fill('zebra');\n  await query.press('Enter');\n${between}  await query.fill('locators');\n  await query.press('Enter');\n  await expect(page.getByTestId('search-empty')).toBeHidden();\n  await expect(page.getByTestId('search-result')).toHaveCount(0);`);
    expect(uncoveredParts(request, search(''))).toEqual([expect.stringContaining('the spec types "zebra" (line 6) but types over it in the same field (line 8) before checking anything')]);
    expect(uncoveredParts(request, search("  await expect(page.getByTestId('search-empty')).toBeVisible();\n"))).toEqual([]);
    // Clearing the field is not typing something else.
    expect(uncoveredParts(request, search('').replace("query.fill('locators')", "query.fill('')"))).toEqual([]);
  });

  it("a matcher's wait is no number read, and a fixture's strings are used by the test", () => {
    const lamp = (assertion: string) => spec(`${SIGN_IN}\n  await page.getByTestId('product-link-lamp').click();\n  await page.getByTestId('add-to-cart').click();\n  ${assertion}`);
    const request = 'sign in, add the desk lamp to the cart and see the cart total';
    expect(uncoveredParts(request, lamp("await expect(page.getByTestId('cart-total')).toBeVisible({ timeout: 10_000 });"))).toEqual([expect.stringContaining('a value, but no assertion reads it')]);
    expect(uncoveredParts(request, lamp("await expect(page.getByTestId('cart-total')).toHaveText('Total: $25', { timeout: 10_000 });"))).toEqual([]);
    const fixture = `import { test as base, expect } from '@playwright/test';
const test = base.extend<{ searched: void }>({
  searched: async ({ page }, use) => {
    await page.goto('/search');
    await page.getByTestId('search-input').fill('locators');
    await page.getByTestId('search-button').click();
    await use();
  },
});
test('search', async ({ page, searched }) => {
  await expect(page.getByTestId('search-result')).toHaveText(['Locators and test ids']);
});
`;
    expect(uncoveredParts('search for "locators" and see the result', fixture)).not.toContainEqual(expect.stringContaining('never uses it'));
  });

  it('an empty list may be shown by a negated assertion', () => {
    expect(uncoveredParts('search for "zebra" and see that there are no results', spec(`  await page.goto('/search');\n  await page.getByRole('searchbox').fill('zebra');\n  await page.keyboard.press('Enter');\n  await expect(page.getByTestId('search-result')).not.toBeVisible();`))).toEqual([]);
  });
});

describe('uncoveredParts: steps and values in a beforeEach hook count, as the test runs them', () => {
  it('subscribes in beforeEach and asserts in the test', () => {
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
    expect(uncoveredParts('subscribe with "reader@example.com" and see "Subscribed reader@example.com"', code)).toEqual([]);
  });
});

describe("uncoveredParts: the project's fixtures", () => {
  it("counts an action on a locator of a fixture the project's fixtures module provides as the step it is", () => {
    const viaFixture = `import { test, expect } from '../../fixtures';

test('search for tea', async ({ products, page }) => {
  await products.search.fill('tea');
  await expect(page.getByRole('cell', { name: 'Green Teapot' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Blue Mug' })).toBeHidden();
  await page.screenshot({ path: 'test-results/tea.png' });
});
`;
    expect(uncoveredParts('search for tea and see the Green Teapot but not the Blue Mug', viaFixture)).toEqual([]);
    // The same step on an object the spec makes itself does nothing the request asks.
    const ownObject = viaFixture.replace("  await products.search.fill('tea');", "  const products = { search: { fill: async (text: string) => text } };\n  await products.search.fill('tea');").replace('{ products, page }', '{ page }');
    expect(uncoveredParts('search for tea and see the Green Teapot but not the Blue Mug', ownObject)).toEqual([expect.stringContaining('the request asks to type')]);
  });
});

describe('namedActions: the page a request opens is not an action', () => {
  it('reads "/search" as a page, "search for" as an action', () => {
    expect(namedActions('open /search and see the heading "Search"')).toEqual([]);
    expect(namedActions('open /products/sign-in-offers and see the offer')).toEqual([]);
    expect(namedActions('open /search and search for milk')).toEqual(['act']);
    expect(namedActions('log in on /login and see the dashboard')).toEqual(['log in']);
  });

  it('reads a download, an attachment, a share or a vote as doing something', () => {
    for (const request of ['download the PDF', 'attach a photo to the ticket', 'share the board with Ada', 'bookmark the article', 'favorite the second song', 'vote for the proposal', 'star the repository']) {
      expect(namedActions(request), request).toEqual(['act']);
    }
    expect(namedActions('see the starred repositories')).toEqual([]);
  });

  it('reads a verb that names a part of the page as a noun', () => {
    expect(namedActions('open the search page and see the heading')).toEqual([]);
    expect(namedActions('see the order history and the comment box')).toEqual([]);
    expect(namedActions('type "milk" in the search box')).toEqual(['act']);
    expect(namedActions('search for milk on the search page')).toEqual(['act']);
  });

  it('reads a verb after an article or a possessive, or its plural after a number or a quantifier, as a noun', () => {
    for (const request of [
      'open the post and see the comments',
      'see 2 replies under the comment',
      'check the orders list shows two orders',
      'the search shows 3 results',
      'see the completed todos',
      "see the user's bookmarks and all downloads",
      'see the shares and the votes on the post',
    ]) {
      expect(namedActions(request), request).toEqual([]);
    }
  });

  it('keeps the verb where it is one, and a singular after "a" or "that", which may be done by their noun', () => {
    expect(namedActionWords('post a reply "Thanks" and see 2 replies')).toEqual(['post', 'reply']);
    expect(namedActionWords('leave a comment and see it under the post')).toEqual(['comment']);
    expect(namedActionWords('mark the first todo completed and see 1 item left')).toEqual(['mark', 'completed']);
    expect(namedActionWords('the user orders a pizza')).toEqual(['orders']);
    expect(namedActionWords('rate the product 5 stars')).toEqual(['rate']);
    expect(namedActionWords('open the list that filters by tag')).toEqual(['filters']);
  });
});
