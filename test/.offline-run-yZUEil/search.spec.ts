import { test, expect } from '@playwright/test';

// Written by Scribe's offline generator (no language model) from the request and the page at /search.

test.describe('demo', () => {
  test('search for playwright and see results', async ({ page }) => {
    await test.step('open /search', async () => {
      await page.goto('/search');
    });
    await test.step('fill in Search', async () => {
      await page.getByTestId('search-input').fill('playwright');
    });
    await test.step('click "Search"', async () => {
      await page.getByTestId('search-button').click();
    });
    await test.step('see "Results"', async () => {
      await expect(page.getByTestId('search-results')).toBeVisible();
      await expect(page.getByTestId('search-results')).toContainText('playwright', { ignoreCase: true });
      await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });
    });
  });
});
