import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Browser-driving suites start Chromium; two cores do not gain from more workers.
    maxWorkers: 2,
  },
});
