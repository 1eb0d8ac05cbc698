/**
 * Request coverage through the project's page objects (issue 25): a spec that signs in or adds to the cart
 * through `loginPage.signIn(user, pass)` does those steps in the project's file, and the Critic reads them
 * there (real files in a temporary project: the page objects, a fixtures module that re-exports them, a
 * helper the method calls). A page-object method that does nothing of the kind is still refused. The proof takes
 * away a project method that acts (and does not navigate) as an action; never the spec's own object's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actingProjectMethods } from '../../src/agents/page-object-steps.ts';
import { uncoveredParts } from '../../src/agents/request-coverage.ts';
import { neutraliseActions } from '../../src/analysis/neutralise.ts';
import { writeFiles } from '../fixtures/files.ts';

const FILES: Record<string, string> = {
  'e2e/pages/login-page.ts': `import type { Page } from '@playwright/test';
import { submit } from '../helpers/forms';

export class LoginPage {
  constructor(private readonly page: Page) {}
  async open() {
    await this.page.goto('/login');
  }
  async signIn(user: string, pass: string) {
    await this.open();
    await this.page.getByLabel('Username').fill(user);
    await this.page.getByLabel('Password').fill(pass);
    await submit(this.page);
  }
  /** Looks like signing in, does nothing of the kind. */
  async signInLater(_user: string) {
    await this.page.goto('/login');
  }
}
`,
  'e2e/helpers/forms.ts': `import type { Page } from '@playwright/test';

export async function submit(page: Page) {
  await page.getByRole('button', { name: 'Submit' }).click();
}
`,
  'e2e/pages/shop-page.ts': `import type { Page } from '@playwright/test';

export class ShopPage {
  constructor(private readonly page: Page) {}
  readonly addToCart = async (name: string) => {
    await this.page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: 'Add' }).click();
  };
  async search(text: string) {
    await this.pressLater(text);
  }
  private async pressLater(text: string) {
    await this.deeper(text);
  }
  private async deeper(text: string) {
    await this.deepest(text);
  }
  private async deepest(text: string) {
    await this.page.getByRole('searchbox').fill(text);
  }
}
`,
  'e2e/fixtures.ts': `import { test as base } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { ShopPage } from './pages/shop-page';

export const test = base.extend<{ loginPage: LoginPage; shopPage: ShopPage }>({
  loginPage: async ({ page }, use) => use(new LoginPage(page)),
  shopPage: async ({ page }, use) => use(new ShopPage(page)),
});
export { expect } from '@playwright/test';
`,
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-page-objects-'));
  writeFiles(dir, FILES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const specFile = () => path.join(dir, 'generated-tests', 'shop', 'request.spec.ts');
const throughFixtures = (body: string) => `import { test, expect } from '../../e2e/fixtures';

test('the request', async ({ page, loginPage, shopPage }) => {
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
const throughImport = (body: string) => `import { test, expect } from '@playwright/test';
import { LoginPage } from '../../e2e/pages/login-page';

test('the request', async ({ page }) => {
  const loginPage = new LoginPage(page);
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
const SIGN_IN = "  await loginPage.signIn(process.env.E2E_USERNAME!, process.env.E2E_PASSWORD!);";

describe('request coverage through page objects', () => {
  it.each([
    ['log in and see the dashboard', throughFixtures(`${SIGN_IN}\n  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();`)],
    ['log in and see the dashboard', throughImport(`${SIGN_IN}\n  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();`)],
    ['sign in, add the coffee mug and see "1 item" in the cart', throughFixtures(`${SIGN_IN}\n  await page.goto('/shop');\n  await shopPage.addToCart('Coffee mug');\n  await expect(page.getByTestId('cart')).toHaveText('1 item');`)],
  ])('a step done in the project\'s method covers the request: %s', (request, code) => {
    expect(uncoveredParts(request, code, specFile())).toEqual([]);
  });

  it('a page-object method that does nothing of the kind is still refused', () => {
    const code = throughFixtures("  await loginPage.signInLater(process.env.E2E_USERNAME!);\n  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();");
    expect(uncoveredParts('log in and see the dashboard', code, specFile())).toEqual([expect.stringContaining('the request asks to sign in but the spec has no step that does it')]);
  });

  it('a method only reached past the call bound is not counted', () => {
    const code = throughFixtures("  await page.goto('/shop');\n  await shopPage.search('mug');\n  await expect(page.getByTestId('results')).toContainText('mug');");
    expect(uncoveredParts('search for "mug" and see it in the results', code, specFile())).toEqual([expect.stringContaining('the request asks to type')]);
  });

  it('a method of a module the spec does not import is not looked up', () => {
    const code = `import { test, expect } from '@playwright/test';

test('the request', async ({ page }) => {
  const loginPage = { signIn: async (_u: string, _p: string) => {} };
  ${SIGN_IN.trim()}
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
    expect(uncoveredParts('log in and see the dashboard', code, specFile())).toEqual([expect.stringContaining('sign in')]);
  });
});

describe("the proof through page objects: a project method that acts is an action it may take away", () => {
  const neutralised = (code: string) => {
    const projectActions = actingProjectMethods(specFile(), code);
    return neutraliseActions(code, specFile(), { projectActions }).tests[0]!.actions.map((a) => a.source);
  };

  it('reads which project methods act and do not navigate', () => {
    const code = throughFixtures("  await shopPage.addToCart('Coffee mug');");
    const acting = actingProjectMethods(specFile(), code);
    expect(acting.has('addToCart')).toBe(true);
    // signIn opens the login page first; signInLater only navigates; search acts past the call bound.
    for (const name of ['signIn', 'signInLater', 'open', 'search']) expect(acting.has(name), name).toBe(false);
  });

  it("takes away a fixture's or an imported page object's acting method", () => {
    expect(neutralised(throughFixtures("  await page.goto('/shop');\n  await shopPage.addToCart('Coffee mug');\n  await expect(page.getByTestId('cart')).toHaveText('1 item');"))).toEqual(["shopPage.addToCart('Coffee mug')"]);
    const imported = `import { test, expect } from '@playwright/test';
import { ShopPage } from '../../e2e/pages/shop-page';

test('the request', async ({ page }) => {
  const shop = new ShopPage(page);
  await page.goto('/shop');
  await shop.addToCart('Coffee mug');
  await expect(page.getByTestId('cart')).toHaveText('1 item');
});
`;
    expect(neutralised(imported)).toEqual(["shop.addToCart('Coffee mug')"]);
  });

  it("never the spec's own object of the same name, nor a method that navigates", () => {
    const own = throughFixtures("  const cart = { addToCart: async (_name: string) => { await page.goto('/cart'); } };\n  await cart.addToCart('Coffee mug');\n  await expect(page.getByTestId('cart')).toHaveText('1 item');");
    expect(neutralised(own)).toEqual([]);
    expect(neutralised(throughFixtures("  await loginPage.signInLater('ada');\n  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();"))).toEqual([]);
  });
});

