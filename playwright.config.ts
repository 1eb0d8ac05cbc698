/**
 * Runs the accepted specs in generated-tests/ against BASE_URL, with the Chromium Scribe finds
 * (SCRIBE_BROWSER, Playwright's own, or a system Chromium).
 */
import { defineConfig } from '@playwright/test';
import { loadCriticSettings } from './src/config/critic-settings.ts';
import { launchOptions } from './src/explore/browser.ts';

export default defineConfig({
  testDir: './generated-tests',
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.BASE_URL,
    testIdAttribute: loadCriticSettings().test_id_attribute,
    launchOptions: launchOptions(),
  },
});
