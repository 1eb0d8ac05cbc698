/**
 * The hostile-run corpus (test/fixtures/hostile-run/) run as model-written code with the allow-list gate
 * bypassed: each spec goes straight to a contained run against the demo app, with secrets in the
 * caller's environment and a canary listener on 127.0.0.1. Whatever the spec does to the browser, the
 * network, the evidence or the run's resources, the host must show no effect and nothing may hang.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpec } from '../../src/agents/runner.ts';
import { osSandboxAvailable } from '../../src/agents/runner/sandbox.ts';
import { loadRunnerConfig, type RunnerConfig } from '../../src/config/runner.ts';
import { ALLOWED_ENV, HOSTILE_RUN_DIR, startHostileHost, type HostileHost } from '../fixtures/hostile-run.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';

const base = loadRunnerConfig();
/** Small caps, so the resource payloads meet them in seconds. */
const config: RunnerConfig = {
  ...base,
  timeouts: { ...base.timeouts, action_ms: 3000, expect_ms: 3000, test_ms: 40_000, run_ms: 90_000 },
  containment: { ...base.containment, limits: { worker_heap_mb: 256, page_heap_mb: 256, memory_mb: 1536, file_mb: 64, temp_mb: 128 } },
};

let host: HostileHost;
beforeAll(async () => {
  host = await startHostileHost();
});
afterAll(() => host?.close());

const corpus = readdirSync(HOSTILE_RUN_DIR).filter((file) => file.endsWith('.spec.ts')).sort();

describe.skipIf(!osSandboxAvailable(process.env))('a hostile run with the gate bypassed', () => {
  it('has the corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
  });

  it.each(corpus)('%s leaves no effect on the host', async (name) => {
    const spec = host.specs().find((s) => s.name === name)!;
    host.reset();
    const report = await runSpec({ specText: spec.text, fileName: name, baseURL: host.appUrl, cwd: host.project, env: host.env, untrusted: true, allowedEnv: ALLOWED_ENV, ...bundledRunTarget(config) });
    expect(host.effects(report)).toEqual([]);
    // The memory hog is stopped by the whole run's cap where the machine lets Scribe make one; the report says which.
    if (spec.containedBy.startsWith('memory cap')) {
      const containment = report.containment!;
      expect(containment.notes.some((note) => note.startsWith(containment.memory_cap_mb === null ? 'no cap on the run' : 'the run went past its memory cap'))).toBe(true);
      if (containment.memory_cap_mb !== null) expect(report.error_message).toMatch(/^the run went past its memory cap \(containment\.limits\.memory_mb, 1536 MB/);
    }
  }, 150_000);
});
