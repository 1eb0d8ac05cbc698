/**
 * Runs the accepted specs in generated-tests/ against BASE_URL, with the Chromium Scribe finds
 * (SCRIBE_BROWSER, Playwright's own, or a system Chromium).
 */
import { defineConfig } from '@playwright/test';
import { launchOptions } from './src/explore/browser.ts';

export default defineConfig({
  testDir: './generated-tests',
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.BASE_URL,
    // Scribe reads this too: it is critic.yaml's test id attribute unless agents/critic.yaml names one.
    testIdAttribute: 'data-testid',
    launchOptions: launchOptions(),
  },
});
