import { describe, expect, it } from 'vitest';
import { configWithOnly, lint } from './harness.ts';
import { Validator } from '../../src/validate/validator.ts';

const RULE = 'expect-expect';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
const spec = (body: string) => `import { test, expect } from '@playwright/test';\n${body}`;

describe('expect-expect', () => {
  it('accepts tests with expect matchers, soft and poll assertions', () => {
    expect(lines(spec(`
test('a', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Shop');
});
test('b', async ({ page }) => { await expect.soft(page.getByTestId('x')).toBeVisible(); });
test('c', async ({ page }) => { await expect.poll(() => page.title()).toBe('Shop'); });
test('d', async ({ page }) => {
  await test.step('check', async () => { expect(1 + 1).not.toBe(3); });
});
`))).toEqual([]);
  });

  it('reports a test without assertions at the test, with what to add', () => {
    const issues = lint(RULE, spec(`
test('clicks only', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('buy').click();
});
test('bare expect', async ({ page }) => {
  expect(page.getByTestId('buy'));
});
`));
    expect(issues.map((i) => [i.line, i.column])).toEqual([[3, 1], [7, 1]]);
    expect(issues[0]!.message).toContain('"clicks only"');
    expect(issues[0]!.message).toContain('expect(');
  });

  it('counts assertions in local helpers and page-object methods, one level or more, and survives recursion', () => {
    const code = spec(`
async function seesCart(page) { await expect(page.getByTestId('cart')).toBeVisible(); }
const checkout = async (page) => { await seesCart(page); };
function loop(n: number): void { if (n > 0) loop(n - 1); }
const helpers = { async seesTotal(page) { await expect(page.getByTestId('total')).toBeVisible(); } };

class CartPage {
  constructor(private readonly page) {}
  async expectEmpty() { await expect(this.page.getByTestId('empty')).toBeVisible(); }
  async open() { await this.page.goto('/cart'); }
}

test('helper', async ({ page }) => { await seesCart(page); });
test('two levels', async ({ page }) => { await checkout(page); });
test('object helper', async ({ page }) => { await helpers.seesTotal(page); });
test('page object', async ({ page }) => { const cart = new CartPage(page); await cart.open(); await cart.expectEmpty(); });
test('recursion only', async ({ page }) => { loop(3); });
test('page object without assertion', async ({ page }) => { await new CartPage(page).open(); });
`);
    expect(lines(code)).toEqual([18, 19]);
  });

  it('does not count a helper that is declared but never called', () => {
    expect(lines(spec(`
test('declares only', async ({ page }) => {
  const check = async () => { await expect(page.getByTestId('x')).toBeVisible(); };
  await page.getByTestId('buy').click();
});
`))).toEqual([3]);
  });

  it('follows aliases of expect and of test', () => {
    const code = `import { test as it, expect as verify } from '@playwright/test';
const check = verify;
it('aliased', async ({ page }) => { await check(page.getByTestId('x')).toBeVisible(); });
it('none', async ({ page }) => { await page.goto('/'); });
`;
    expect(lines(code)).toEqual([4]);
  });

  it('counts calls to the configured assert functions', () => {
    const code = spec(`
import { assertVisible } from './asserts';
test('custom', async ({ page }) => { await assertVisible(page.getByTestId('x')); });
test('namespaced', async ({ page }) => { await asserts.check(page); });
`);
    expect(lines(code, { assert_function_names: [], assert_function_patterns: [] })).toEqual([4, 5]);
    expect(lines(code, { assert_function_names: ['assertVisible', 'asserts.check'], assert_function_patterns: [] })).toEqual([]);
    // The bundled name pattern already counts assertVisible (named like an assertion, from elsewhere).
    expect(lines(code)).toEqual([5]);
  });

  it('reports a spec that declares no test at all, at line 1', () => {
    const script = lint(RULE, spec(`
const password = 'x';
async function login(page) { await page.goto('/'); await expect(page.getByTestId('x')).toBeVisible(); }
`));
    expect(script.map((i) => [i.line, i.message])).toEqual([[1, expect.stringContaining('declares no test')]]);
    expect(lines('')).toEqual([1]);
    expect(lines("import { test } from '@playwright/test';\ntest.describe('empty', () => {});\n")).toEqual([1]);
  });

  it('counts a test behind an alias or test.extend as a declared test', () => {
    expect(lines(`import { test as it, expect } from '@playwright/test';
it('a', async ({ page }) => { await expect(page.getByTestId('x')).toBeVisible(); });
`)).toEqual([]);
    expect(lines(`import { test as base, expect } from '@playwright/test';
const test = base.extend({});
test('a', async ({ page }) => { await expect(page.getByTestId('x')).toBeVisible(); });
`)).toEqual([]);
  });

  it('a helper or page-object method from elsewhere named like an assertion counts; one written here is looked into', () => {
    const code = `import { test } from '@playwright/test';
import { expectLoggedIn } from './helpers';
import { OrdersPage } from './pages/orders';

test('signs in', async ({ page }) => {
  await expectLoggedIn(page);
});

test('lists orders', async ({ page }) => {
  const orders = new OrdersPage(page);
  await orders.verifyOrderCount(3);
});

test('checks the box', async ({ page }) => {
  await page.getByTestId('terms').check();
});

async function verifyNothing() {}
test('pretends', async () => {
  await verifyNothing();
});
`;
    expect(lint('expect-expect', code).map((i) => i.line)).toEqual([14, 19]);
  });

  it("a web-first matcher on what the suite's helper or actor fixture returns asserts; a look-alike matcher or no matcher does not", () => {
    const code = `import { test } from './fixtures';

test('customer sees the account page', async ({ ShopCustomer, AccountPage }) => {
  await ShopCustomer.goesTo(AccountPage.url());
  await ShopCustomer.expects(AccountPage.heading).toBeVisible();
});

test('admin sees no error', async ({ ShopAdmin, page }) => {
  await ShopAdmin.expects(page.getByText('Error')).not.toBeVisible();
});

test('only navigates', async ({ ShopCustomer, AccountPage }) => {
  await ShopCustomer.goesTo(AccountPage.url());
  ShopCustomer.expects(AccountPage.heading);
});

test('a plain matcher name on a helper is not taken on trust', async ({ ShopCustomer }) => {
  ShopCustomer.total().toBe(3);
});
`;
    expect(lint('expect-expect', code).map((i) => i.line)).toEqual([12, 17]);
  });

  it('lets a setup or teardown project step that only prepares state go without an assertion, as Playwright documents them', () => {
    const setupStep = (fixtures: string, body: string) => `import { test as setup, expect } from '@playwright/test';
import { db } from './db';
setup('create new database', async (${fixtures}) => {
${body}
});
`;
    // The router suite's mock-db-setup.test.ts: a step that clears a user in the database before the tests.
    expect(lines(setupStep('', `  if (await db.user.findUnique({ where: { email: 'a@b.c' } })) await db.user.delete({ where: { email: 'a@b.c' } });`))).toEqual([]);
    expect(lines(setupStep('{ request }', `  await request.post('/api/seed');`))).toEqual([]);
    expect(lines(setupStep('{}', `  await db.user.deleteMany();`))).toEqual([]);
    expect(lines(`import { test as teardown } from '@playwright/test';\nteardown('drop', async () => { await fetch('/reset'); });\n`)).toEqual([]);
  });

  it('still reports a setup step that drives the browser, and a plain test that only prepares state', () => {
    // Logging in through the page can be checked (the account menu shows); a fixture renamed does not hide it.
    expect(lines(`import { test as setup } from '@playwright/test';
setup('authenticate', async ({ page }) => { await page.goto('/login'); await page.getByTestId('submit').click(); });
setup('renamed', async ({ page: p }) => { await p.goto('/'); });
setup('all fixtures', async (fixtures) => { await fixtures.page.goto('/'); });
`)).toEqual([2, 3, 4]);
    // Named `test` in a spec file, a step with no fixture is a test that checks nothing.
    expect(lines(spec(`test('seeds', async () => { await fetch('/api/seed'); });\n`))).toEqual([2]);
  });

  it('knows a setup step by its file name too (db.setup.ts, global.teardown.ts), not by a word inside another name', () => {
    const code = `import { test } from '@playwright/test';\ntest('seed', async () => { await fetch('/api/seed'); });\n`;
    const found = (file: string) => new Validator(configWithOnly(RULE), { typeCheck: false }).validateText(file, code).issues.map((i) => i.line);
    expect(found('/virtual/db.setup.ts')).toEqual([]);
    expect(found('/virtual/global.teardown.ts')).toEqual([]);
    expect(found('/virtual/setup-wizard.spec.ts')).toEqual([2]);
    expect(found('/virtual/example.spec.ts')).toEqual([2]);
  });

  it("knows tests declared with the suite's own wrapper (a test.extend under another name) are tests, and checks them; a helper call or a package's function is not", () => {
    // The router suite's streaming-ssr specs: testWithHydration = test.extend(…) in ./fixtures.
    const wrapped = `import { expect, test, testWithHydration } from './fixtures';
test.describe('stream', () => {
  testWithHydration('resolves', async ({ page }) => { await expect(page.getByTestId('data')).toBeVisible(); });
});
`;
    expect(lines(wrapped)).toEqual([]);
    // Checked as a test is: one that asserts nothing is reported.
    expect(lines(wrapped.replace("await expect(page.getByTestId('data')).toBeVisible();", "await page.goto('/');"))).toEqual([3]);
    // No test: a helper of the suite called with other arguments, or a function of a package called like a test.
    expect(lines(`import { seed } from './helpers';\nseed('users', 3);\n`)).toEqual([1]);
    expect(lines(`import { run } from 'some-runner';\nrun('title', async () => {});\n`)).toEqual([1]);
  });
});
