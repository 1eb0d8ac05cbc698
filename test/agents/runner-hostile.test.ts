/**
 * The hostile-run corpus (test/fixtures/hostile-run/) run as model-written code with the allow-list gate
 * bypassed: each spec goes straight to a contained run against the demo app, with secrets in the
 * caller's environment and a canary listener on 127.0.0.1. Whatever the spec does to the browser, the
 * network, the evidence or the run's resources, the host must show no effect and nothing may hang. The
 * network attacks (SHARED_RUN) share one contained run, each its own test of it that must pass (it made its
 * attempt); the rest run one per contained run.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpec } from '../../src/agents/runner.ts';
import { osSandboxAvailable } from '../../src/agents/runner/sandbox.ts';
import type { RunnerReport } from '../../src/contracts.ts';
import { ALLOWED_ENV, HOSTILE_RUN_DIR, hostileRunConfig, oneSpecFileOf, SHARED_RUN, sharedRunConfig, startHostileHost, type HostileHost } from '../fixtures/hostile-run.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';

const config = hostileRunConfig();

let host: HostileHost;
beforeAll(async () => {
  host = await startHostileHost();
});
afterAll(() => host?.close());

const corpus = readdirSync(HOSTILE_RUN_DIR).filter((file) => file.endsWith('.spec.ts')).sort();
const alone = corpus.filter((name) => !SHARED_RUN.includes(name));

describe.skipIf(!osSandboxAvailable(process.env))('a hostile run with the gate bypassed', () => {
  it('has the corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(SHARED_RUN.filter((name) => !corpus.includes(name))).toEqual([]);
  });

  it.each(alone)('%s leaves no effect on the host', async (name) => {
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

  describe('the network attacks, in one contained run', () => {
    let report: RunnerReport;
    let effects: string[];
    const shared = sharedRunConfig(config, SHARED_RUN.length);
    beforeAll(async () => {
      host.reset();
      const specs = host.specs().filter((spec) => SHARED_RUN.includes(spec.name));
      report = await runSpec({ specText: oneSpecFileOf(specs), fileName: 'network-attacks.spec.ts', baseURL: host.appUrl, cwd: host.project, env: host.env, untrusted: true, allowedEnv: ALLOWED_ENV, ...bundledRunTarget(shared) });
      // Read at once: what the shared run left, before any other attack.
      effects = host.effects(report);
    }, shared.timeouts.run_ms + 60_000);

    it.each(SHARED_RUN)('%s leaves no effect on the host, and made its attempt', (name) => {
      expect(effects).toEqual([]);
      const own = report.tests?.filter((test) => test.title.startsWith(`${name} › `));
      expect(own?.map((test) => test.status), report.error_message ?? undefined).toEqual(['passed']);
    });
  });
});
