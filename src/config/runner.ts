/**
 * agents/runner.yaml: the Runner's timeouts, where a run's temporary files and kept screenshots go,
 * and how much of Playwright's output a report keeps.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

export const DEFAULT_RUNNER_PATH = path.join(BUNDLED_AGENTS_DIR, 'runner.yaml');

const positiveMs = z.number().int().positive();
const positiveMb = z.number().int().positive();
const DEFAULT_LIMITS = { worker_heap_mb: 2048, page_heap_mb: 1024, memory_mb: 4096, file_mb: 256, temp_mb: 512 };

export const RunnerFile = z
  .strictObject({
    version: z.literal(1),
    timeouts: z.strictObject({
      action_ms: positiveMs,
      expect_ms: positiveMs,
      navigation_ms: positiveMs,
      test_ms: positiveMs,
      run_ms: positiveMs,
      kill_grace_ms: z.number().int().nonnegative(),
    }),
    paths: z.strictObject({
      temp_dir: z.string().min(1),
      artifacts_dir: z.string().min(1),
    }),
    artifacts: z.strictObject({
      failure_screenshot: z.boolean(),
      trace: z.boolean().default(true),
      trace_screenshots: z.boolean().default(false),
      keep_runs: z.number().int().positive(),
    }),
    report: z.strictObject({
      max_output_chars: z.number().int().positive(),
      max_error_context_chars: z.number().int().positive(),
      max_console_errors: z.number().int().positive().default(50),
    }),
    containment: z
      .strictObject({
        os_sandbox: z.enum(['auto', 'required', 'off']),
        allowed_origins: z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)).default([]),
        limits: z
          .strictObject({
            worker_heap_mb: positiveMb,
            page_heap_mb: positiveMb,
            memory_mb: positiveMb.default(DEFAULT_LIMITS.memory_mb),
            file_mb: positiveMb,
            temp_mb: positiveMb,
          })
          .default(DEFAULT_LIMITS),
      })
      .default({ os_sandbox: 'auto', allowed_origins: [], limits: DEFAULT_LIMITS }),
    proof: z
      .strictObject({ expect_ms: positiveMs, quiet_ms: positiveMs.default(150), after_quiet_ms: positiveMs.default(600), max_groups: z.number().int().min(1).max(5).default(3) })
      .default({ expect_ms: 1500, quiet_ms: 150, after_quiet_ms: 600, max_groups: 3 }),
  })
  .superRefine((file, ctx) => {
    // A test that may outlive the whole run would always end as a run timeout, never as its own failure.
    if (file.timeouts.test_ms >= file.timeouts.run_ms) {
      ctx.addIssue({ code: 'custom', path: ['timeouts', 'test_ms'], message: `must be less than timeouts.run_ms (${file.timeouts.run_ms})` });
    }
  });

export type RunnerConfig = z.infer<typeof RunnerFile> & { file: string };

export function loadRunnerConfig(file: string = DEFAULT_RUNNER_PATH): RunnerConfig {
  return runnerConfigFrom(readYamlFile(file));
}

export function runnerConfigFrom(source: YamlSource): RunnerConfig {
  return { ...checkWithSchema(source, RunnerFile), file: source.file };
}

/** The Runner's folders, resolved against the Scribe home ($SCRIBE_HOME, else <cwd>/.scribe). */
export function runnerFolders(config: RunnerConfig, home: string): { temp: string; artifacts: string } {
  return { temp: path.resolve(home, config.paths.temp_dir), artifacts: path.resolve(home, config.paths.artifacts_dir) };
}
