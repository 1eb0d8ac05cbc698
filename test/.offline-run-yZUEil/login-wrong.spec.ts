import { test, expect } from '@playwright/test';

// Written by Scribe's offline generator (no language model) from the request and the page at /login.
// Credentials come from the environment: set E2E_USERNAME and E2E_PASSWORD before running.
const username = process.env.E2E_USERNAME ?? '';
// Not the right password: the real one with something added, so no password is written here.
const wrongPassword = `${process.env.E2E_PASSWORD ?? ''}-wrong`;

test.describe('demo', () => {
  test('log in with a wrong password and see an error', async ({ page }) => {
    await test.step('open /login', async () => {
      await page.goto('/login');
    });
    await test.step('fill in Username and Password', async () => {
      await page.getByTestId('username-input').fill(username);
      await page.getByTestId('password-input').fill(wrongPassword);
    });
    await test.step('click "Log in"', async () => {
      await page.getByTestId('login-button').click();
    });
    await test.step('see "Wrong username or password."', async () => {
      await expect(page.getByTestId('login-error')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });
    });
  });
});
