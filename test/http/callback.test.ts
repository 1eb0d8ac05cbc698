import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { GOOD_SPEC, chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { serverConfig, startTestServer, TOKEN, until, type TestServer } from './harness.ts';

const SECRET = 'callback-secret-5d1a';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The caller's webhook on 127.0.0.1: answers with the scripted statuses in order, then 200. */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/scribe`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const withCallbacks = (callbacks: Partial<ServerConfig['callbacks']>): ServerConfig => {
  const base = serverConfig();
  return { ...base, callbacks: { ...base.callbacks, attempts: 4, backoff_base_ms: 1, backoff_cap_ms: 5, timeout_ms: 2000, ...callbacks } };
};

let fake: FakeOpenAI;
let project: ScribeProject;
let server: TestServer | undefined;

const start = async (config: ServerConfig, secret: string | undefined = SECRET) => {
  server = await startTestServer(project.dir, project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN, ...(secret ? { SCRIBE_CALLBACK_SECRET: secret } : {}) }), config);
  return server;
};

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  project = makeScribeProject();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('POST /v1/generate callback_url', () => {
  it('POSTs the finished job, signed with HMAC-SHA256 of the body, trying again after 5xx', async () => {
    const receiver = await startReceiver([503, 502]);
    try {
      const api = await start(withCallbacks({ allowed_hosts: ['127.0.0.1'] }));
      fake.reply({ text: chatty(GOOD_SPEC) });
      const posted = await api.call('POST', '/v1/generate', { body: { description: 'search for milk', feature: 'Search', callback_url: receiver.url } });
      expect(posted.status).toBe(202);
      await api.settled(posted.json.id);
      await until(() => receiver.received.length === 3, 'the third delivery');

      for (const [index, delivery] of receiver.received.entries()) {
        const expected = `sha256=${createHmac('sha256', SECRET).update(delivery.body).digest('hex')}`;
        expect(delivery.headers['x-scribe-signature']).toBe(expected);
        expect(delivery.headers['x-scribe-delivery-attempt']).toBe(String(index + 1));
        expect(delivery.headers['content-type']).toBe('application/json');
      }
      const job = JSON.parse(receiver.received[2]!.body);
      expect(job).toMatchObject({ id: posted.json.id, status: 'done', result: { success: true, testPath: 'generated-tests/search/search-for-milk.spec.ts' } });
      // What the callback carried is what polling says.
      expect(job).toEqual((await api.call('GET', `/v1/jobs/${posted.json.id}`)).json);
      expect(api.logs.filter((e) => e.msg.startsWith('callback')).map((e) => e.msg)).toEqual(['callback retry', 'callback retry', 'callback delivered']);
    } finally {
      await receiver.close();
    }
  });

  it('stops after the configured number of attempts when the receiver keeps failing', async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500]);
    try {
      const api = await start(withCallbacks({ allowed_hosts: ['127.0.0.1'], attempts: 3 }));
      fake.reply({ text: chatty(GOOD_SPEC) });
      const posted = await api.call('POST', '/v1/generate', { body: { description: 'search for tea', feature: 'Search', callback_url: receiver.url } });
      await api.settled(posted.json.id);
      await until(() => api.logs.some((e) => e.msg === 'callback failed'), 'the delivery gives up');
      expect(receiver.received).toHaveLength(3);
      expect(api.logs.find((e) => e.msg === 'callback failed')).toMatchObject({ level: 'warn', attempts: 3, error: 'HTTP 500' });
    } finally {
      await receiver.close();
    }
  });

  it('refuses a host not on the allow-list, an empty allow-list, and a server with no secret: 400 naming callback_url, no job', async () => {
    const cases: Array<{ config: ServerConfig; secret?: string; url: string; message: RegExp }> = [
      { config: withCallbacks({ allowed_hosts: ['127.0.0.1'] }), url: 'http://localhost:9/hook', message: /host localhost:9 is not in agents\/server.yaml callbacks.allowed_hosts/ },
      { config: withCallbacks({ allowed_hosts: ['127.0.0.1:1'] }), url: 'http://127.0.0.1:2/hook', message: /host 127.0.0.1:2 is not in/ },
      { config: serverConfig(), url: 'http://127.0.0.1:9/hook', message: /callbacks are off on this server/ },
      { config: withCallbacks({ allowed_hosts: ['127.0.0.1'] }), url: 'file:///etc/passwd', message: /must be an http/ },
      { config: withCallbacks({ allowed_hosts: ['127.0.0.1'] }), secret: '', url: 'http://127.0.0.1:9/hook', message: /no SCRIBE_CALLBACK_SECRET/ },
    ];
    for (const { config, secret, url, message } of cases) {
      const api = await start(config, secret ?? SECRET);
      const answer = await api.call('POST', '/v1/generate', { body: { description: 'search for milk', callback_url: url } });
      expect(answer.status, url).toBe(400);
      expect(answer.json.fields).toEqual([{ field: 'callback_url', message: expect.stringMatching(message) }]);
      expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
      await api.stop();
      server = undefined;
    }
  });
});
