/**
 * Runs the accepted specs in generated-tests/ against BASE_URL, with the Chromium Scribe finds
 * (SCRIBE_BROWSER, Playwright's own, or a system Chromium).
 */
import { defineConfig } from '@playwright/test';
import { loadCriticConfig } from './src/config/critic.ts';
import { launchOptions } from './src/explore/browser.ts';

export default defineConfig({
  testDir: './generated-tests',
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.BASE_URL,
    testIdAttribute: loadCriticConfig().testIdAttribute,
    launchOptions: launchOptions(),
  },
});
