/** The demo app's search: fill, click, assert the result the spec bench/proof-overhead.ts and bench/proof-timeline.ts run with and without its proof. */
export const PROOF_BENCH_SPEC = `import { test, expect } from '@playwright/test';

test('search finds the locators page', async ({ page }) => {
  await page.goto('/search');
  await page.getByTestId('search-input').fill('locators');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-result')).toHaveText('Locators and test ids');
  await page.screenshot({ path: test.info().outputPath('search.png') });
});
`;
