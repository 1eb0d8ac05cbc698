/**
 * `scribe generate --plan` through the real CLI, offline (no model configured): the plan `scribe plan`
 * wrote of the suite app (signed in), generated with 2 workers, every scenario explored, written, run
 * green in Chromium and accepted; a second run skips them all; every batch is in the record.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchResult, readBatches } from '../../src/workflow/batch.ts';
import { parsePlan } from '../../src/workflow/plan-file.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSignedInSuiteProject } from '../fixtures/suite-project.ts';
import { runCli } from './harness.ts';

let app: SuiteApp;
let project: ScribeProject;
const offline = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home });
const cli = (args: string[]) => runCli(args, { env: offline(), cwd: project.dir });

beforeAll(async () => {
  app = await startSuiteApp();
});
afterAll(() => app.close());
beforeEach(() => {
  project = makeSignedInSuiteProject(app.url, { 'planner.max_scenarios': 8 });
});
afterEach(() => project.remove());

describe('scribe generate --plan', { timeout: 600_000 }, () => {
  it('accepts every scenario of the plan with 2 workers; a second run skips them all', async () => {
    expect((await cli(['plan', '--out', 'plan.yaml'])).code).toBe(0);
    const plan = parsePlan(readFileSync(path.join(project.dir, 'plan.yaml'), 'utf8'), 'plan.yaml');
    expect(plan.scenarios).toHaveLength(8);
    expect(new Set(plan.scenarios.map((s) => s.page)).size).toBeGreaterThanOrEqual(6);

    const first = await cli(['generate', '--plan', 'plan.yaml', '--workers', '2', '--json']);
    const result = BatchResult.parse(JSON.parse(first.stdout));
    expect(result.scenarios.filter((s) => s.status !== 'accepted'), first.stdout).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(result).toMatchObject({ workers: 2, success: true, summary: { scenarios: 8, accepted: 8, skipped: 0, failed: 0 } });
    for (const scenario of result.scenarios) expect(existsSync(path.join(project.dir, scenario.testPath!))).toBe(true);
    expect(result.scenarios.map((s) => s.request)).toEqual(plan.scenarios.map((s) => s.request));

    const second = await cli(['generate', '--plan', 'plan.yaml', '--workers', '2']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('8 scenarios: 0 accepted, 8 skipped');
    expect(second.stdout.match(/^\d+\s+skipped\s/gm)).toHaveLength(8);
    expect(readBatches(project.home).map((b) => b.summary.skipped)).toEqual([0, 8]);
  });

  it('a plan that is not one is a usage error naming the file and field (exit 2); so are --workers 0 and a description with --plan', async () => {
    writeFileSync(path.join(project.dir, 'bad.yaml'), 'version: 1\napp: http://x\nplanner: me\nscenarios:\n  - request: ""\n    page: /\n    expected: x\n');
    const bad = await cli(['generate', '--plan', 'bad.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.yaml: scenarios.0.request');
    expect((await cli(['generate', '--plan', 'missing.yaml'])).code).toBe(2);
    writeFileSync(path.join(project.dir, 'ok.yaml'), 'version: 1\napp: http://x\nplanner: me\nscenarios:\n  - request: open / and see it\n    page: /\n    expected: x\n');
    expect((await cli(['generate', '--plan', 'ok.yaml', '--workers', '0'])).code).toBe(2);
    expect((await cli(['generate', 'a request', '--plan', 'ok.yaml'])).code).toBe(2);
  });
});
