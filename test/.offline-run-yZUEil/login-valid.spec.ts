import { test, expect } from '@playwright/test';

// Written by Scribe's offline generator (no language model) from the request and the page at /login.
// Credentials come from the environment: set E2E_USERNAME and E2E_PASSWORD before running.
const username = process.env.E2E_USERNAME ?? '';
const password = process.env.E2E_PASSWORD ?? '';

test.describe('demo', () => {
  test('log in with valid credentials and see the dashboard', async ({ page }) => {
    await test.step('open /login', async () => {
      await page.goto('/login');
    });
    await test.step('fill in Username and Password', async () => {
      await page.getByTestId('username-input').fill(username);
      await page.getByTestId('password-input').fill(password);
    });
    await test.step('click "Log in"', async () => {
      await page.getByTestId('login-button').click();
    });
    await test.step('see "Dashboard"', async () => {
      await expect(page.getByTestId('dashboard')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });
    });
  });
});
