/**
 * POST /v1/batch on a real `scribe serve` app with a scripted model: requests of the request contract become
 * one job each, GET /v1/batches/:id follows them to the summary `generate --plan --json` prints, the batch is
 * recorded, and the same batch again skips every request without a model call. Bad bodies name the field.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchResult, readBatches } from '../../src/workflow/batch.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty, GOOD_SPEC } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { serverConfig, startTestServer, TOKEN, type TestServer } from './harness.ts';

let fake: FakeOpenAI;
let project: ScribeProject;
let server: TestServer;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  project = makeScribeProject({});
  server = await startTestServer(project.dir, project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }), serverConfig({ jobs: { concurrency: 2, max_queued: 4 } }));
});
afterEach(async () => {
  await server.stop();
  await server.jobs.idle();
  const pending = fake.pending();
  await fake.close();
  project.remove();
  expect(pending).toBe(0);
});

const REQUESTS = [
  { description: 'search for milk and see it in the results', feature: 'search', run: false },
  { description: 'search for milk and see milk listed among the results', feature: 'search', run: false },
];

/** Polls the batch until every job has finished (bounded: a batch that never settles fails the test). */
async function settledBatch(id: string): Promise<{ done: boolean; result?: unknown; scenarios: Array<{ status: string; job: string | null }> }> {
  for (let poll = 0; poll < 2400; poll++) {
    const { status, json } = await server.call('GET', `/v1/batches/${id}`);
    expect(status).toBe(200);
    if (json.done) return json;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`batch ${id} did not settle`);
}

describe('POST /v1/batch', { timeout: 300_000 }, () => {
  it('generates each request as a job, records the batch, and skips every request accepted before', async () => {
    fake.reply({ text: chatty(GOOD_SPEC) }, { text: chatty(GOOD_SPEC) });
    const posted = await server.call('POST', '/v1/batch', { body: { requests: REQUESTS } });
    expect(posted.status).toBe(202);
    expect(posted.headers.get('location')).toBe(`/v1/batches/${posted.json.batch}`);
    expect(posted.json.scenarios.map((s: { job: string | null }) => s.job)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);

    const first = await settledBatch(posted.json.batch);
    const result = BatchResult.parse(first.result);
    expect(result.scenarios.filter((s) => s.status !== 'accepted'), JSON.stringify(result.scenarios)).toEqual([]);
    expect(result).toMatchObject({ success: true, summary: { scenarios: 2, accepted: 2, skipped: 0, failed: 0 } });
    expect(result.scenarios.map((s) => s.request)).toEqual(REQUESTS.map((r) => r.description));
    for (const scenario of result.scenarios) expect(existsSync(path.join(project.dir, scenario.testPath!))).toBe(true);
    expect(readBatches(project.home).map((b) => b.summary)).toMatchObject([{ accepted: 2 }]);
    // A job of the batch is an ordinary job.
    expect((await server.call('GET', `/v1/jobs/${first.scenarios[0]!.job}`)).json).toMatchObject({ status: 'done' });

    const calls = fake.requests.length;
    const again = await server.call('POST', '/v1/batch', { body: { requests: REQUESTS } });
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ done: true, result: { success: true, summary: { scenarios: 2, accepted: 0, skipped: 2 } } });
    expect(again.json.scenarios.map((s: { job: string | null }) => s.job)).toEqual([null, null]);
    expect(fake.requests).toHaveLength(calls);
    expect(readBatches(project.home).map((b) => b.summary.skipped)).toEqual([0, 2]);
  });

  it('refuses a bad body naming the field, and queues nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ requests: [] }, 'requests'],
      [{ requests: 'search' }, 'requests'],
      [{ requests: [{ description: 'a' }, { description: 'b', desciption: 'c' }] }, 'requests.1.desciption'],
      [{ requests: [{ description: 'a', url: 'ftp://example.com' }] }, 'requests.0.url'],
      [{ requests: [{ description: 'a' }], workers: 2 }, 'workers'],
      [{ requests: Array.from({ length: 5 }, (_, i) => ({ description: `r${i}` })) }, 'requests'],
      [{ requests: [{ description: 'a', outputPath: '../escaped.spec.ts' }] }, 'requests.0.outputPath'],
    ];
    for (const [body, field] of cases) {
      const answer = await server.call('POST', '/v1/batch', { body });
      expect({ body, status: answer.status, field: answer.json.fields?.[0]?.field }).toEqual({ body, status: 400, field });
    }
    expect(server.jobs.counts()).toEqual({ queued: 0, running: 0 });
    expect((await server.call('GET', '/v1/batches/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(fake.requests).toHaveLength(0);
  });
});
