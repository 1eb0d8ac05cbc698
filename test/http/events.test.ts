import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/contracts.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { GOOD_SPEC, chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { startTestServer, TOKEN, until, type TestServer } from './harness.ts';

interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/** Reads a text/event-stream response into events, calling `onEvent` as each one arrives. */
async function readEvents(response: Response, onEvent: (event: SseEvent) => void = () => {}): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
      const event = { ...(fields.id ? { id: fields.id } : {}), event: fields.event!, data: JSON.parse(fields.data!) };
      events.push(event);
      onEvent(event);
    }
  }
  return events;
}

let fake: FakeOpenAI;
let project: ScribeProject;
let server: TestServer;

const events = (id: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}/v1/jobs/${id}/events`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...init.headers } });

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(async () => {
  // A model call that hangs is given up after 4 s: long enough for a client to be listening mid-job.
  project = makeScribeProject({ 'provider.request_timeout_ms': 4000 });
  server = await startTestServer(project.dir, project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }));
});
afterEach(async () => {
  await server.stop();
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('GET /v1/jobs/:id/events (Server-Sent Events)', () => {
  it('streams every stage in order, numbered, then the finished job as the last event', async () => {
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    const posted = await server.call('POST', '/v1/generate', { body: { description: 'search for milk', feature: 'Search' } });
    expect(posted.status).toBe(202);
    const response = await events(posted.json.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const received = await readEvents(response);

    const result = received.at(-1)!;
    expect(result.event).toBe('result');
    expect(result.data).toMatchObject({ id: posted.json.id, status: 'done', result: { success: true, testPath: 'generated-tests/search/search-for-milk.spec.ts' } });
    const stages = received.slice(0, -1);
    expect(stages.every((e) => e.event === 'stage')).toBe(true);
    expect(stages.map((e) => e.id)).toEqual(stages.map((_, i) => String(i + 1)));
    // The same stages the job records, in the same order: the one reporter behind both.
    const job = (await server.call('GET', `/v1/jobs/${posted.json.id}`)).json as JobView;
    expect(stages.map((e) => e.data)).toEqual(job.stages);
    expect(stages.map((e) => `${e.data.stage} ${e.data.status}`)).toEqual(
      expect.arrayContaining(['scribe started', 'scribe info', 'scribe done', 'critic started', 'critic done', 'write done']),
    );
    expect(stages.findIndex((e) => e.data.status === 'info')).toBeLessThan(stages.findIndex((e) => e.data.stage === 'critic'));

    // A client resuming after stage 2 gets the rest and the result; polling keeps working.
    const resumed = await readEvents(await events(posted.json.id, { headers: { 'last-event-id': '2' } }));
    expect(resumed.map((e) => e.id ?? e.event)).toEqual([...stages.slice(2).map((e) => e.id), 'result']);
  });

  it('a client that disconnects mid-job is let go; the job finishes and can still be read', async () => {
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    const posted = await server.call('POST', '/v1/generate', { body: { description: 'search for bread', feature: 'Search' } });
    const controller = new AbortController();
    const response = await events(posted.json.id, { signal: controller.signal });
    const first = await new Promise<SseEvent>((resolve) => {
      readEvents(response, resolve).catch(() => undefined);
    });
    expect(first).toMatchObject({ id: '1', event: 'stage', data: { stage: 'scribe', status: 'started' } });
    expect(server.events.listening()).toBe(1);
    controller.abort();
    await until(() => server.events.listening() === 0, 'the stream is unsubscribed');
    const job = await server.settled(posted.json.id);
    expect(job).toMatchObject({ status: 'done', result: { success: true } });
  });

  it('needs the token, and names a job that does not exist', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await fetch(`${server.url}/v1/jobs/${id}/events`)).status).toBe(401);
    const missing = await events(id);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe('job_not_found');
  });
});
