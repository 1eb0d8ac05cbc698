import { test, expect } from '@playwright/test';

// Scribe's offline generator could not map this request to the page: nothing on /search matches "the PDF".
// Request: download the invoice and see the PDF
// This is a SMOKE TEST of /search instead: the page loads and "Search the docs" is visible. Write the real test,
// or configure a model (OPENAI_API_KEY or OPENAI_BASE_URL) and generate again.

test.describe('demo', () => {
  test('smoke test (request not mapped): /search loads', async ({ page }) => {
    await test.step('open /search', async () => {
      await page.goto('/search');
    });
    await test.step('see "Search the docs"', async () => {
      await expect(page.getByTestId('search-heading')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });
    });
  });
});
