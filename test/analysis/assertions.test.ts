import { describe, expect, it } from 'vitest';
import { findWeakening } from '../../src/analysis/assertions.ts';

/** A login spec: the assertions a heal must keep. */
const ORIGINAL = `import { test, expect } from '@playwright/test';

test('signs in', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('username').fill(process.env.DEMO_USER ?? '');
  await page.getByTestId('submit').click();
  await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard');
  await expect(page).toHaveURL(/dashboard/);
  await expect(page.getByTestId('login-error')).not.toBeVisible();
  await page.screenshot({ path: 'screenshots/dashboard.png' });
});
`;

/** The original with one line replaced. */
function edit(from: string, to: string, code = ORIGINAL): string {
  expect(code).toContain(from);
  return code.replace(from, to);
}

const TITLE_CHECK = "  await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard');";

describe('findWeakening', () => {
  it('finds nothing when the spec is unchanged or only reformatted', () => {
    expect(findWeakening(ORIGINAL, ORIGINAL)).toEqual([]);
    const reformatted = edit(TITLE_CHECK, '  await expect(\n    page.getByTestId("dashboard-title"),\n  ).toHaveText("Dashboard");');
    expect(findWeakening(ORIGINAL, reformatted)).toEqual([]);
  });

  it('does not flag a pure selector fix (a narrowed locator, a new test id)', () => {
    const narrowed = edit("  await page.getByTestId('submit').click();", "  await page.getByTestId('login-form').getByTestId('submit').click();");
    expect(findWeakening(ORIGINAL, narrowed)).toEqual([]);
    const reselected = edit(TITLE_CHECK, "  await expect(page.getByTestId('dashboard').getByTestId('dashboard-heading')).toHaveText('Dashboard');");
    expect(findWeakening(ORIGINAL, reselected)).toEqual([]);
  });

  it('follows variables and aliases: a locator or expected value moved into a constant changes nothing', () => {
    const viaVariables = edit(
      TITLE_CHECK,
      "  const title = page.getByTestId('dashboard-title');\n  const expected = 'Dashboard';\n  const check = expect;\n  await check(title).toHaveText(expected);",
    );
    expect(findWeakening(ORIGINAL, viaVariables)).toEqual([]);
    const otherValue = edit(TITLE_CHECK, "  const expected = 'Dash';\n  await expect(page.getByTestId('dashboard-title')).toHaveText(expected);");
    expect(findWeakening(ORIGINAL, otherValue)).toEqual([expect.stringMatching(/now expects "Dash" instead of "Dashboard"/)]);
  });

  it('allows added assertions and changed timeouts', () => {
    const stronger = edit(TITLE_CHECK, `${TITLE_CHECK}\n  await expect(page.getByTestId('current-user')).toBeVisible();`);
    expect(findWeakening(ORIGINAL, stronger)).toEqual([]);
    const slower = edit(TITLE_CHECK, "  await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard', { timeout: 10_000 });");
    expect(findWeakening(ORIGINAL, slower)).toEqual([]);
  });

  it('names a removed assertion', () => {
    const reasons = findWeakening(ORIGINAL, edit(`${TITLE_CHECK}\n`, ''));
    expect(reasons).toEqual([expect.stringContaining("line 7 `expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard')` was removed")]);
  });

  it('names a loosened matcher: toHaveText → toBeVisible', () => {
    const reasons = findWeakening(ORIGINAL, edit(TITLE_CHECK, "  await expect(page.getByTestId('dashboard-title')).toBeVisible();"));
    expect(reasons).toEqual([expect.stringMatching(/line 7 .* became \.toBeVisible\(\) \(line 7\); the matcher must stay \.toHaveText\(\)/)]);
  });

  it('names a changed expected value, a regex included', () => {
    expect(findWeakening(ORIGINAL, edit("toHaveText('Dashboard')", "toHaveText('Dash')"))).toEqual([expect.stringMatching(/now expects "Dash" instead of "Dashboard"/)]);
    expect(findWeakening(ORIGINAL, edit("toHaveText('Dashboard')", 'toHaveText(/Dash/)'))).toEqual([expect.stringMatching(/now expects \/Dash\/ instead of "Dashboard"/)]);
    expect(findWeakening(ORIGINAL, edit('toHaveURL(/dashboard/)', 'toHaveURL(/.*/)'))).toHaveLength(1);
  });

  it('names an option that loosens the check', () => {
    const reasons = findWeakening(ORIGINAL, edit("toHaveText('Dashboard')", "toHaveText('dashboard', { ignoreCase: true })"));
    expect(reasons).toContainEqual(expect.stringMatching(/options .* changed from \{\} to \{ignoreCase: true\}/));
  });

  it('names an added .not, and a removed one', () => {
    expect(findWeakening(ORIGINAL, edit("expect(page.getByTestId('dashboard-title')).toHaveText", "expect(page.getByTestId('dashboard-title')).not.toHaveText"))).toEqual([
      expect.stringMatching(/^\.not was added to the assertion on line 7/),
    ]);
    expect(findWeakening(ORIGINAL, edit('.not.toBeVisible()', '.toBeVisible()'))).toEqual([expect.stringMatching(/^\.not was removed from the assertion on line 9/)]);
  });

  it('names an added test.skip, test.fixme and test.fail, as tests or as annotations', () => {
    expect(findWeakening(ORIGINAL, edit("test('signs in'", "test.skip('signs in'"))).toEqual([expect.stringMatching(/^test\.skip was added \(line 3\)/)]);
    expect(findWeakening(ORIGINAL, edit("test('signs in'", "test.fixme('signs in'"))).toEqual([expect.stringMatching(/^test\.fixme was added/)]);
    expect(findWeakening(ORIGINAL, edit("  await page.goto('/login');", "  test.fail();\n  await page.goto('/login');"))).toEqual([expect.stringMatching(/^test\.fail was added \(line 4\)/)]);
    const aliased = edit("  await page.goto('/login');", "  const { skip } = test;\n  skip(true, 'flaky');\n  await page.goto('/login');");
    expect(findWeakening(ORIGINAL, aliased)).toEqual([expect.stringMatching(/^test\.skip was added \(line 5\)/)]);
  });

  it('names an assertion moved under a condition', () => {
    const underIf = edit(TITLE_CHECK, `  if (await page.getByTestId('dashboard-title').isVisible()) {\n  ${TITLE_CHECK}\n  }`);
    expect(findWeakening(ORIGINAL, underIf)).toEqual([expect.stringMatching(/was moved into an if \(line 8\)/)]);
    const underAnd = edit(TITLE_CHECK, `  process.env.CHECK_TITLE && (await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard'));`);
    expect(findWeakening(ORIGINAL, underAnd)).toEqual([expect.stringMatching(/was moved into a && condition/)]);
    const underTernary = edit(TITLE_CHECK, `  process.env.CI ? await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard') : undefined;`);
    expect(findWeakening(ORIGINAL, underTernary)).toEqual([expect.stringMatching(/was moved into a ternary/)]);
    const underSwitch = edit(TITLE_CHECK, `  switch (process.env.MODE) {\n    case 'full':\n    ${TITLE_CHECK}\n  }`);
    expect(findWeakening(ORIGINAL, underSwitch)).toEqual([expect.stringMatching(/was moved into a switch/)]);
  });

  it('names an assertion moved into a try, or whose failure is caught', () => {
    const inTry = edit(TITLE_CHECK, `  try {\n  ${TITLE_CHECK}\n  } catch {\n    console.log('title differs');\n  }`);
    expect(findWeakening(ORIGINAL, inTry)).toEqual([expect.stringMatching(/was moved into a try block \(line 8\)/)]);
    const caught = edit(TITLE_CHECK, "  await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard').catch(() => {});");
    expect(findWeakening(ORIGINAL, caught)).toEqual([expect.stringMatching(/was moved into a \.catch\(\) that swallows its failure/)]);
  });

  it('names expect.soft replacing expect, directly or through expect.configure', () => {
    expect(findWeakening(ORIGINAL, edit("await expect(page.getByTestId('dashboard-title'))", "await expect.soft(page.getByTestId('dashboard-title'))"))).toEqual([
      expect.stringMatching(/became a soft assertion/),
    ]);
    const configured = edit(TITLE_CHECK, "  const lenient = expect.configure({ soft: true });\n  await lenient(page.getByTestId('dashboard-title')).toHaveText('Dashboard');");
    expect(findWeakening(ORIGINAL, configured)).toEqual([expect.stringMatching(/became a soft assertion/)]);
  });

  it('names an assertion moved into a helper no test calls, but follows one that is called', () => {
    const helper = "async function checkTitle(page: Page) {\n  await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard');\n}\n";
    const withImport = (code: string) => code.replace("import { test, expect } from '@playwright/test';", "import { test, expect, type Page } from '@playwright/test';");
    const called = withImport(edit(TITLE_CHECK, '  await checkTitle(page);')) + `\n${helper}`;
    expect(findWeakening(ORIGINAL, called)).toEqual([]);
    const orphaned = withImport(edit(`${TITLE_CHECK}\n`, '')) + `\n${helper}`;
    expect(findWeakening(ORIGINAL, orphaned)).toEqual([expect.stringMatching(/is no longer run by any test/)]);
  });

  it('names a removed test', () => {
    const twoTests = `${ORIGINAL}\ntest('signs out', async ({ page }) => {\n  await page.goto('/login');\n  await expect(page.getByTestId('username')).toBeVisible();\n});\n`;
    const reasons = findWeakening(twoTests, ORIGINAL);
    expect(reasons).toContainEqual(expect.stringMatching(/had 2 tests and now has 1/));
    expect(reasons).toContainEqual(expect.stringMatching(/toBeVisible\(\)` was removed/));
  });

  it('pairs assertions by what they check: reordering and a re-selected subject are not changes', () => {
    const lines = ORIGINAL.split('\n');
    const reordered = [...lines.slice(0, 7), lines[9], lines[8], lines[7], ...lines.slice(10)].join('\n');
    expect(findWeakening(ORIGINAL, reordered)).toEqual([]);
  });

  describe('a check that an element is there checks the text its locator finds it by', () => {
    const CART = `import { test, expect } from '@playwright/test';

test('adds the kettle', async ({ page }) => {
  await page.goto('/app');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible();
  await expect(page.getByText('Added to your cart')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Red Kettle' })).toHaveCount(1);
});
`;
    const CART_LINK = "  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible();";

    it('names the text loosened to a pattern or a part of it, or dropped for a test id', () => {
      expect(findWeakening(CART, edit(CART_LINK, "  await expect(page.getByRole('link', { name: /Cart/ })).toBeVisible();", CART))).toEqual([
        expect.stringMatching(/^the assertion on line 6 .* finds its element by \/Cart\/ instead of "Cart \(1\)" \(line 6\): that text is what it checks/),
      ]);
      expect(findWeakening(CART, edit(CART_LINK, "  await expect(page.getByRole('link', { name: 'Cart' })).toBeVisible();", CART))).toHaveLength(1);
      expect(findWeakening(CART, edit("page.getByText('Added to your cart')", "page.getByTestId('cart-status')", CART))).toEqual([expect.stringMatching(/finds its element by nothing instead of "Added to your cart"/)]);
      expect(findWeakening(CART, edit(".filter({ hasText: 'Red Kettle' })", '', CART))).toEqual([expect.stringMatching(/instead of "Red Kettle"/)]);
      // Through a variable, as a model hides it.
      const viaVariable = edit(CART_LINK, "  const cartLink = page.getByRole('link', { name: /cart/i });\n  await expect(cartLink).toBeVisible();", CART);
      expect(findWeakening(CART, viaVariable)).toHaveLength(1);
    });

    it('allows a re-selected element that keeps the text: another role, the text moved to getByText, or kept in an added toHaveText', () => {
      expect(findWeakening(CART, edit(CART_LINK, "  await expect(page.getByRole('button', { name: 'Cart (1)' })).toBeVisible();", CART))).toEqual([]);
      expect(findWeakening(CART, edit(CART_LINK, "  await expect(page.getByTestId('nav').getByText('Cart (1)')).toBeVisible();", CART))).toEqual([]);
      const movedToText = edit(CART_LINK, "  await expect(page.getByTestId('cart-link')).toBeVisible();\n  await expect(page.getByTestId('cart-link')).toHaveText('Cart (1)');", CART);
      expect(findWeakening(CART, movedToText)).toEqual([]);
      // The action's locator is not a check: its text may change with the app's wording.
      expect(findWeakening(CART, edit("{ name: 'Add to cart' }", "{ name: 'Add to basket' }", CART))).toEqual([]);
    });

    it('does not count the text as kept by an assertion that cannot fail', () => {
      const hidden = edit(CART_LINK, "  await expect(page.getByTestId('cart-link')).toBeVisible();\n  await expect(page.getByTestId('cart-link')).not.toHaveText('Cart (1)');", CART);
      expect(findWeakening(CART, hidden)).toEqual([expect.stringMatching(/finds its element by nothing instead of "Cart \(1\)"/)]);
    });
  });
});
