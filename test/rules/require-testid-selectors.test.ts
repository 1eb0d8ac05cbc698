import { describe, expect, it } from 'vitest';
import { Validator } from '../../src/validate/validator.ts';
import { configWithOnly, fix, inTest, lint } from './harness.ts';

const RULE = 'require-testid-selectors';
// Model-written code: without an explored site, every locator that is not a test id is reported.
const errors = (code: string, options?: unknown) => lint(RULE, code, { options, untrusted: true }).filter((i) => i.severity === 'error').map((i) => i.line);

describe('require-testid-selectors', () => {
  it('accepts getByTestId and selectors made only of test-id attributes', () => {
    const issues = lint(RULE, inTest(`
  await page.getByTestId('submit').click();
  await page.getByTestId('list').getByTestId(/item-\\d+/).first().click();
  const id = 'row-7';
  await page.locator(\`[data-testid="\${id}"] >> [data-testid="edit"]\`).click();
  await page.locator('[data-testid="list"] > [data-testid=item]').click();
  await page.locator('data-testid=checkout').click();
  await page.frameLocator('[data-testid="payment-frame"]').getByTestId('pay').click();
  await expect(page).toHaveTitle('Shop');`));
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('reports CSS, XPath, text and role selector strings and the getBy* factories not allowed', () => {
    const issues = lint(RULE, inTest(`
  await page.locator('#submit').click();
  await page.locator('//button[@type="submit"]').click();
  await page.locator('text=Sign in').click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Welcome').isVisible();
  await page.getByLabel('Email').fill('a@b.c');
  await page.getByPlaceholder('Search').fill('x');
  await page.locator('[data-test="submit"]').click();`), { untrusted: true });
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(issues.every((i) => i.severity === 'error' && !i.fixable)).toBe(true);
    expect(issues[0]!.message).toContain('CSS "#submit"');
    expect(issues[1]!.message).toContain('XPath');
    expect(issues[2]!.message).toContain('text');
    expect(issues[3]!.message).toContain('getByTestId(');
  });

  it('reports page-level selector actions such as page.click("#x")', () => {
    expect(errors(inTest(`
  await page.click('#buy');
  await page.fill('input[name=q]', 'shoes');
  await page.click('[data-testid="buy"]');`))).toEqual([5, 6]);
  });

  it('reports a selector that is only known at run time', () => {
    const code = `import { test, type Page } from '@playwright/test';
async function clickOn(page: Page, selector: string) {
  await page.locator(selector).click();
}
test('x', async ({ page }) => { await clickOn(page, '[data-testid="a"]'); });
`;
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([3]);
    expect(issues[0]!.message).toContain('computed at run time');
  });

  it('follows page aliases, popups, page objects, computed members and selectors in variables', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';

class LoginPage {
  constructor(private readonly page: Page) {}
  submit() { return this.page.getByRole('button', { name: 'Log in' }); }
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.locator('.submit').click();
  const popup = await page.waitForEvent('popup');
  await popup.getByText('Done').click();
  await new LoginPage(page).submit().click();
  await page['getByRole']('link').click();
  const sel = 'button.primary';
  await page.locator(sel).click();
  const method = 'locator';
  await page[method]('#x').click();
});
`;
    expect(errors(code)).toEqual([5, 10, 12, 14, 16, 18]);
  });

  it('allows the factories listed in allowed_locators', () => {
    const code = inTest(`
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByLabel('Email').fill('a@b.c');
  await page.getByText('Saved').click();`);
    expect(errors(code, { allowed_locators: ['getByRole', 'getByLabel'] })).toEqual([7]);
    expect(errors(code, { allowed_locators: [] })).toEqual([5, 6, 7]);
  });

  it('suggests getByTestId for a spelled-out test-id attribute, as a fixable warning', () => {
    const issues = lint(RULE, inTest(`  await page.locator('[data-testid="submit"]').click();`));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'warning', fixable: true, line: 4 });
    expect(issues[0]!.message).toContain(`getByTestId('submit')`);
  });

  it('autofixes locator(\'[data-testid="x"]\') to getByTestId(\'x\') with any quoting', () => {
    const before = inTest(`
  await page.locator('[data-testid="submit"]').click();
  await page.locator("[data-testid='cart']").click();
  await page.getByTestId('list').locator('[data-testid=item]').click();
  await page['locator']('[data-testid="menu"]').click();
  await page.locator(\`[data-testid="footer"]\`).click();`);
    expect(fix(RULE, before)).toBe(inTest(`
  await page.getByTestId('submit').click();
  await page.getByTestId("cart").click();
  await page.getByTestId('list').getByTestId('item').click();
  await page['getByTestId']('menu').click();
  await page.getByTestId('footer').click();`));
  });

  it('leaves selectors alone that getByTestId would not match the same way', () => {
    const code = inTest(`
  await page.locator('[data-testid="a"] [data-testid="b"]').click();
  await page.locator('[data-testid="row" i]').click();
  await page.locator('[data-testid="row"]', { hasText: 'Apple' }).click();
  const sel = '[data-testid="kept"]';
  await page.locator(sel).click();
  await page.frameLocator('[data-testid="frame"]').getByTestId('x').click();`);
    expect(fix(RULE, code)).toBe(code);
  });

  it('uses the configured test id attribute', () => {
    const config = { ...configWithOnly(RULE), testIdAttribute: 'data-qa' };
    const validator = new Validator(config, { typeCheck: false });
    const code = inTest(`
  await page.locator('[data-qa="buy"]').click();
  await page.locator('[data-testid="buy"]').click();`);
    expect(validator.validateText('/virtual/a.spec.ts', code).issues.map((i) => [i.line, i.severity])).toEqual([[5, 'warning'], [6, 'error']]);
    expect(validator.fix('/virtual/a.spec.ts', code).text).toContain(`page.getByTestId('buy').click();\n  await page.locator('[data-testid="buy"]')`);
  });
});

describe('require-testid-selectors: the locator ladder on an explored site', () => {
  const site: import('../../src/contracts.ts').PageInventory = {
    url: 'http://127.0.0.1:4000/',
    title: 'Newsletter',
    testIdAttribute: 'data-testid',
    testIds: [{ testId: 'login-button', tag: 'button', role: 'button', text: 'Sign in', label: null, count: 1, visible: true }],
    roles: [{ role: 'button', name: 'Sign in', count: 1 }, { role: 'button', name: 'Subscribe', count: 1 }],
    fields: [{ type: 'email', label: 'Email address', placeholder: 'you@example.com', name: null, testId: null }],
    headings: [],
    links: [],
    truncated: [],
    estimatedTokens: 50,
    pages: [],
  };
  const ladder = (body: string) => lint('require-testid-selectors', inTest(body), { inventory: site });

  it('accepts role, label and placeholder locators for elements without a test id', () => {
    expect(ladder("await page.getByLabel('Email address').fill('a@b.c');\nawait page.getByPlaceholder('you@example.com').fill('a@b.c');\nawait page.getByRole('button', { name: 'Subscribe' }).click();")).toEqual([]);
  });

  it('sends an element that has a test id back to it, even through a variable', () => {
    const issues = ladder("const name = 'Sign in';\nawait page.getByRole('button', { name }).click();\nawait page.getByText('sign in').click();");
    expect(issues).toHaveLength(2);
    expect(issues[0]!.message).toContain(`carries the test id "login-button" on the explored site; select it with getByTestId('login-button')`);
  });

  it('without an explored page, holds model-written code to test ids and lets people’s specs keep the ladder', () => {
    const body = "await page.getByLabel('Email address').fill('a@b.c');\nawait page.getByRole('button', { name: 'Subscribe' }).click();\nawait page.getByText('Welcome').click();\nawait page.getByAltText('logo').click();";
    expect(lint('require-testid-selectors', inTest(body), { untrusted: true }).map((i) => i.line)).toEqual([4, 5, 6, 7]);
    // What Scribe accepted on the explored site passes `scribe validate --preset generated` on the user's machine;
    // getByAltText is not on the ladder.
    expect(lint('require-testid-selectors', inTest(body)).map((i) => i.line)).toEqual([7]);
  });

  it('points a CSS selector to what the explored site allows: the ladder where it has no test ids, a test id where it has', () => {
    const noTestIds = { ...site, testIds: [] };
    const [bare] = lint('require-testid-selectors', inTest("await page.locator('#email').fill('a@b.c');"), { inventory: noTestIds });
    expect(bare!.message).toContain('the explored site has no test ids: select it by the locator ladder: getByRole(');
    expect(bare!.message).not.toContain("getByTestId('…')");
    const [withIds] = ladder("await page.locator('#email').fill('a@b.c');");
    expect(withIds!.message).toContain("select it by test id, getByTestId('…'), or, for an element the explored site gives none, by the locator ladder");
  });

  it('accepts a frame located by its title or name, and says so for any other frame selector', () => {
    const accepted = "await page.frameLocator('iframe[title=\"Rich Text Area\"]').getByRole('textbox').fill('hi');\nawait page.locator(\"iframe[name='editor']\").contentFrame().getByLabel('Body').fill('hi');";
    expect(ladder(accepted)).toEqual([]);
    const issues = ladder("await page.frameLocator('#editor_ifr').getByRole('textbox').fill('hi');\nawait page.locator('iframe').first().contentFrame().getByLabel('Body').fill('hi');");
    expect(issues).toHaveLength(2);
    for (const issue of issues) expect(issue.message).toContain(`a frame carries no test id: locate it by its title or name, page.frameLocator('iframe[title="…"]')`);
  });
});
