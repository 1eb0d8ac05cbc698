import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './test/lanes/slowest-first.ts';

/**
 * The e2e lane: test files that start a browser or a child process (the CLI, Playwright, the native type
 * checker, npm), or drive a whole generation. Every other test file is in the unit lane, which .ci/run
 * runs first and which may start neither (test/lanes/no-child-process.ts makes that an error).
 */
export const E2E = [
  'test/agents/critic.test.ts',
  'test/agents/medic.test.ts',
  'test/agents/runner-hostile.test.ts',
  'test/agents/runner-user-config.test.ts',
  'test/agents/runner/proof.test.ts',
  'test/agents/runner/proof-shared-state.test.ts',
  'test/agents/runner/read-only-run-folder.test.ts',
  'test/agents/runner/sandbox-probe.test.ts',
  'test/agents/runner/redact-report.test.ts',
  'test/agents/runner/run-code-cache.test.ts',
  'test/agents/runner.test.ts',
  'test/agents/runner-esm-loader.test.ts',
  'test/agents/scribe.test.ts',
  'test/commands/**',
  'test/config/agents.test.ts',
  'test/config/renamed-keys.test.ts',
  'test/config/workflow.test.ts',
  'test/explore/**',
  'test/http/**',
  'test/cli.test.ts',
  'test/library.test.ts',
  'test/llm/offline.test.ts',
  'test/mcp/batch.test.ts',
  'test/mcp/heal.test.ts',
  'test/mcp/http.test.ts',
  'test/mcp/run-spec-gate.test.ts',
  'test/mcp/stdio.test.ts',
  'test/package/**',
  'test/project/context.test.ts',
  'test/project/playwright.test.ts',
  'test/queue/**',
  'test/rules/type-check.test.ts',
  'test/stats/stats.test.ts',
  'test/util/typescript.test.ts',
  'test/util/code-cache.test.ts',
  'test/validate/cache.test.ts',
  'test/validate/robustness.test.ts',
  'test/validate/type-checker-idle.test.ts',
  'test/validate/type-checker-javascript.test.ts',
  'test/validate/type-checker-native.test.ts',
  'test/validate/type-checker.test.ts',
  'test/validate/untrusted-gate.test.ts',
  'test/validate/validator.test.ts',
  'test/workflow/batch-cancel.test.ts',
  'test/workflow/batch-explore.test.ts',
  'test/commands/batch-explorations.test.ts',
  'test/workflow/batch-progress.test.ts',
  'test/workflow/cancel.test.ts',
  'test/workflow/failing-reporter.test.ts',
  'test/workflow/hostile-pipeline.test.ts',
  'test/workflow/hostile-run-pipeline.test.ts',
  'test/workflow/lifetimes.test.ts',
  'test/workflow/pipeline.test.ts',
  'test/workflow/real-apps.test.ts',
  'test/workflow/request-contract.test.ts',
];

const ALL = ['test/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Browser-driving suites start Chromium; two cores do not gain from more workers.
    maxWorkers: 2,
    // The slowest e2e files start first: the lane ends with short files on both workers.
    sequence: { sequencer: SlowestFirstSequencer },
    // A worker's test files share its loaded modules: the sources keep no module-level mutable state, so a file
    // does not import TypeScript, ts-morph and Playwright anew, nor run them cold (the unit lane took 28 s
    // isolated and 6.5 s not; the e2e lane 1,757 CPU s and 1,434: bench/e2e-lane.mjs). A file that changes a
    // module or a global for its own tests must undo it in its afterAll.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: E2E, setupFiles: ['test/lanes/no-child-process.ts'] } },
      // A folder's pattern takes its test files only, not the harnesses beside them.
      { extends: true, test: { name: 'e2e', include: E2E.map((pattern) => (pattern.endsWith('/**') ? `${pattern}/*.test.ts` : pattern)) } },
    ],
  },
});
