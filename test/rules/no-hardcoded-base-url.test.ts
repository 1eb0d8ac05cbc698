import { describe, expect, it } from 'vitest';
import { fix, inTest, lint } from './harness.ts';

const RULE = 'no-hardcoded-base-url';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);

describe('no-hardcoded-base-url', () => {
  it('accepts relative paths, env-based URLs, comments, titles and assertion messages', () => {
    const code = `import { test, expect } from '@playwright/test';

// The app runs on http://localhost:3000 in CI.
/** See http://127.0.0.1:8080/docs */
const BASE = process.env.BASE_URL ?? 'http://localhost:3000';

test.describe('checkout at http://localhost:3000', () => {
  test('opens http://localhost:3000/cart', async ({ page }) => {
    await page.goto('/cart');
    await page.goto(\`\${BASE}/cart\`);
    await page.waitForURL('**/cart');
    await expect(page).toHaveURL(/\\/cart$/);
    await test.step('check http://localhost:3000/cart', async () => {
      await expect(page.getByTestId('cart'), 'cart shown at http://localhost:3000/cart').toBeVisible();
      await expect.soft(page.getByTestId('total'), { message: 'see http://127.0.0.1/cart' }).toBeVisible();
    });
    await page.getByTestId('docs-link').click();
    await expect(page.getByTestId('docs-link')).toHaveAttribute('href', 'https://playwright.dev');
  });
});
`;
    expect(lines(code)).toEqual([]);
  });

  it('reports local hosts anywhere in code, at the literal, with what to do instead', () => {
    const code = inTest(`
  await page.goto('http://localhost:3000/login');
  const api = 'http://127.0.0.1:8080/api';
  await page.request.get(\`http://0.0.0.0:\${4000}/health\`);
  test.use({ baseURL: 'http://[::1]:5173' });
  await page.route('http://localhost:3000/api/**', (route) => route.abort());`);
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7, 8, 9]);
    expect(issues[1]!.message).toContain('relative path');
    expect(issues[1]!.message).toContain('BASE_URL');
    expect(issues[1]).toMatchObject({ severity: 'error', fixable: false, column: 15 });
  });

  it('reports any absolute URL given to goto, waitForURL and toHaveURL', () => {
    const issues = lint(RULE, inTest(`
  await page.goto('https://shop.example.com/login');
  await page.waitForURL('https://shop.example.com/home');
  await expect(page).toHaveURL('https://shop.example.com/home');
  await expect(page).not.toHaveURL('http://localhost:3000/login');`));
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7, 8]);
    expect(issues[0]!.message).toContain(`'/login'`);
    expect(issues.map((i) => i.fixable)).toEqual([false, false, false, true]);
  });

  it('follows page aliases, popups, page objects, computed members and URLs in variables', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';

const LOGIN_URL = 'https://staging.example.com/login';

class LoginPage {
  constructor(private readonly page: Page) {}
  async open() { await this.page.goto(LOGIN_URL); }
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.goto('https://staging.example.com/');
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup['waitForURL']('https://staging.example.com/help');
  const urls = { home: 'https://staging.example.com/home' };
  await page.goto(urls.home);
  await new LoginPage(page).open();
});
`;
    expect(lines(code)).toEqual([3, 12, 15, 16]);
  });

  // The expected value of toHaveURL is an assertion's: --fix verifies that no fix changes one, so that
  // line is left for the author (and still reported).
  it('autofixes absolute local URLs in navigation arguments to relative paths', () => {
    const before = inTest(`
  await page.goto('http://localhost:3000/login?next=%2Fcart#top');
  await page.goto("http://127.0.0.1:8080");
  await page.waitForURL('http://localhost:3000/dashboard');
  await expect(page).toHaveURL('http://localhost:3000/dashboard', { timeout: 10_000 });
  await page.goto(\`http://localhost:3000/users/\${42}\`);
  await page.goto('http://localhost:3000?tab=2');`);
    expect(fix(RULE, before)).toBe(inTest(`
  await page.goto('/login?next=%2Fcart#top');
  await page.goto("/");
  await page.waitForURL('/dashboard');
  await expect(page).toHaveURL('http://localhost:3000/dashboard', { timeout: 10_000 });
  await page.goto(\`/users/\${42}\`);
  await page.goto('/?tab=2');`));
  });

  it('does not autofix what it cannot rewrite safely', () => {
    const code = inTest(`
  const url = 'http://localhost:3000/login';
  await page.goto(url);
  await page.goto('https://shop.example.com/login');
  await page.goto('http://admin:pw@localhost:3000/');
  await page.goto(\`http://localhost:\${port}/login\`);
  await page.request.get('http://localhost:3000/api');`);
    expect(fix(RULE, code)).toBe(code);
    expect(lines(code)).toEqual([5, 7, 8, 9, 10]);
  });

  it('takes hosts and navigation methods from the options', () => {
    const code = inTest(`
  const api = 'http://app.internal/api';
  await page.goto('https://shop.example.com/');
  await page.goto('http://localhost:3000/');`);
    expect(lines(code, { hosts: ['app.internal'], navigation_methods: ['waitForURL'] })).toEqual([5]);
  });
});
