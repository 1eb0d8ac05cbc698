/**
 * A cancelled generation stops its model call in flight: the call is aborted (the model server sees the
 * client go away), not left to its timeout, and the generation ends as interrupted with nothing written.
 * The model's timeout here is ten minutes, so a call that is not aborted outlives the test.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { NewStatsEvent } from '../../src/stats/events.ts';
import { generateSpec } from '../../src/workflow/pipeline.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

let fake: FakeOpenAI;
let project: ScribeProject;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  project = makeScribeProject({ 'provider.request_timeout_ms': 600_000, 'provider.http_retries': 0 });
});
afterAll(async () => {
  project.remove();
  await fake.close();
});
afterEach(() => {
  fake.requests.length = 0;
});

it('aborts the model call in flight and ends the generation as interrupted', async () => {
  fake.reply({ hang: true });
  const controller = new AbortController();
  const recorded: NewStatsEvent[] = [];
  const generating = generateSpec(
    { description: 'the home page shows its heading', feature: 'Home', run: false },
    { cwd: project.dir, env: project.env(fake.url), signal: controller.signal, stats: { record: (event) => void recorded.push(event) } },
  );
  await expect.poll(() => fake.requests.length, { timeout: 30_000 }).toBe(1);
  controller.abort(new Error('the caller cancelled the job'));
  const { document, exitCode } = await generating;

  expect(exitCode).not.toBe(0);
  expect(document.success).toBe(false);
  expect(document.testPath).toBeNull();
  await expect.poll(() => fake.requests[0]!.abandoned).toBe(true);
  expect(recorded.filter((event) => event.type === 'model_call')).toEqual([expect.objectContaining({ error: expect.stringMatching(/cancel|abort/i) })]);
  expect(existsSync(path.join(project.dir, 'generated-tests'))).toBe(false);
});
