/**
 * A reporter that throws is recorded, not fatal: a whole generation (a scripted model, the real validator,
 * the Critic and the spec store; no app, so no run) finishes and writes its spec while the statistics log and
 * the caller's own reporter throw on every event; each failure is reported once, as a stage line and a warning.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/contracts.ts';
import type { NewStatsEvent } from '../../src/stats/events.ts';
import type { StatsSink } from '../../src/stats/log.ts';
import { generateSpec } from '../../src/workflow/pipeline.ts';
import { progressReporter } from '../../src/workflow/progress-reporter.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced, GOOD_SPEC } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

let fake: FakeOpenAI;
let project: ScribeProject;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
});
afterEach(() => project.remove());

describe('a failing reporter', () => {
  it('leaves the generation finishing, and the failure reported once per reporter', async () => {
    fake.reply({ text: fenced(GOOD_SPEC) });
    const brokenLog: StatsSink = {
      record: () => {
        throw new Error('EACCES: permission denied, open stats.jsonl');
      },
    };
    let told = 0;
    const brokenReporter = {
      name: 'the dashboard hook',
      report: () => {
        told++;
        throw new TypeError('dashboard is not reachable');
      },
    };
    const lines: PipelineEvent[] = [];
    const { document, exitCode } = await generateSpec(
      { description: 'the home page shows its heading', feature: 'Home', run: false },
      { cwd: project.dir, env: project.env(fake.url), stats: brokenLog, reporters: [brokenReporter, progressReporter(project.dir, (line) => lines.push(line))] },
    );

    expect(exitCode).toBe(0);
    expect(document.success).toBe(true);
    expect(existsSync(path.join(project.dir, document.testPath!))).toBe(true);
    // The broken reporter was still told every event, and its failure did not stop the others.
    expect(told).toBeGreaterThan(3);
    expect(lines.some((line) => line.stage === 'write' && line.status === 'done')).toBe(true);

    // Each failure once, in the order it happened (the caller's reporter is told of the first stage line,
    // the statistics log only of the first recorded fact).
    const failures = lines.filter((line) => line.stage === 'report');
    expect(failures.map((line) => line.message).sort()).toEqual([
      'the dashboard hook failed (dashboard is not reachable); the generation goes on without it',
      'the statistics log failed (EACCES: permission denied, open stats.jsonl); the generation goes on without it',
    ]);
    expect(failures.every((line) => line.status === 'info')).toBe(true);
    expect(document.warnings).toEqual(expect.arrayContaining(failures.map((line) => line.message)));
  });

  it('a spec that appears at the target meanwhile is an explicit outcome: nothing written, the generation gives up as exists', async () => {
    fake.reply({ text: fenced(GOOD_SPEC) });
    const target = path.join(project.dir, 'generated-tests', 'home', 'the-home-page-shows-its-heading.spec.ts');
    const recorded: NewStatsEvent[] = [];
    // Someone else writes the spec while the Critic reviews it.
    const writer = {
      report: (event: { type: string; stage?: string; status?: string }) => {
        if (event.type === 'stage' && event.stage === 'critic' && event.status === 'done') {
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, '// a person wrote this\n');
        }
      },
    };
    const { document, exitCode } = await generateSpec(
      { description: 'the home page shows its heading', feature: 'Home', run: false },
      { cwd: project.dir, env: project.env(fake.url), stats: { record: (event) => recorded.push(event) }, reporters: [writer] },
    );
    expect(exitCode).toBe(1);
    expect(document.success).toBe(false);
    expect(document.testPath).toBeNull();
    expect(readFileSync(target, 'utf8')).toBe('// a person wrote this\n');
    expect(recorded.filter((event) => event.type === 'give_up' || event.type === 'success')).toEqual([expect.objectContaining({ type: 'give_up', reason: 'exists' })]);
  });
});
