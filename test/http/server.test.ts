import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GenerateResult } from '../../src/contracts.ts';
import { StatsDocument } from '../../src/stats/aggregate.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty, GOOD_SPEC } from '../fixtures/model-answers.ts';
import { startSlowApp } from '../fixtures/slow-app.ts';
import { makeScribeProject, type ScribeProject, type ScribeSettings } from '../fixtures/scribe-project.ts';
import { postLarge, serverConfig, startTestServer, TOKEN, until, type TestServer } from './harness.ts';

const DESCRIPTION = 'hey, write a test that searches for milk and sees it in the results';

let fake: FakeOpenAI;
let project: ScribeProject;
let outside: string;
let server: TestServer | undefined;

/**
 * A project whose model calls are retried once, and the server on it. The timeout is long: on a loaded machine a
 * short one expires before a scripted answer arrives, and the retry takes the reply scripted for the next job.
 */
const start = async (config = serverConfig(), settings: ScribeSettings = {}) => {
  project = makeScribeProject({ 'provider.request_timeout_ms': 30_000, 'provider.http_retries': 1, ...settings });
  server = await startTestServer(project.dir, project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }), config);
  return server;
};

beforeEach(async () => {
  // A fresh model per test: a test that fails leaves no scripted answer for the next one.
  fake = await startFakeOpenAI();
  outside = mkdtempSync(path.join(tmpdir(), 'scribe-outside-'));
});
afterEach(async () => {
  if (server) {
    await server.stop();
    await server.jobs.idle();
  }
  server = undefined;
  const pending = fake.pending();
  await fake.close();
  project.remove();
  rmSync(outside, { recursive: true, force: true });
  expect(pending).toBe(0);
});

describe('auth', () => {
  it('healthz is open; every other route needs the bearer token: none and wrong are 401, right is 200', async () => {
    const api = await start();
    const health = await api.call('GET', '/healthz', { token: null });
    expect(health).toMatchObject({ status: 200, json: { status: 'ok', queued: 0, running: 0 } });

    for (const [method, route] of [['GET', '/v1/stats'], ['POST', '/v1/generate'], ['GET', '/v1/jobs/00000000-0000-4000-8000-000000000000']] as const) {
      const none = await api.call(method, route, { token: null, body: method === 'POST' ? { description: DESCRIPTION } : undefined });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const wrong = await api.call(method, route, { token: `${TOKEN}x`, body: method === 'POST' ? { description: DESCRIPTION } : undefined });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
    }
    const shorter = await api.call('GET', '/v1/stats', { token: 'x' });
    expect(shorter.status).toBe(401);
    const right = await api.call('GET', '/v1/stats');
    expect(right.status).toBe(200);
    expect(StatsDocument.parse(right.json).validation_attempts).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('without a token refuses a browser (any Origin) and a Host not of this machine with 403; a local client without either passes', async () => {
    project = makeScribeProject({});
    server = await startTestServer(project.dir, project.env(fake.url), serverConfig());
    const { port } = new URL(server.url);
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/v1/stats', method: 'GET', headers }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject).end();
      });
    expect((await raw({ host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await raw({ host: `localhost:${port}` })).status).toBe(200);
    for (const origin of [`http://127.0.0.1:${port}`, 'http://127.0.0.1:3000', 'null', 'https://evil.example']) {
      const refused = await raw({ host: `127.0.0.1:${port}`, origin });
      expect({ origin, status: refused.status }).toEqual({ origin, status: 403 });
      expect(refused.body).toContain('SCRIBE_API_TOKEN');
    }
    for (const host of [`rebound.example:${port}`, '10.0.0.1']) expect((await raw({ host })).status).toBe(403);
    // A job cannot be started from a page either.
    const posted = await api403();
    expect(posted).toBe(403);
    expect(fake.requests).toHaveLength(0);

    async function api403(): Promise<number> {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/v1/generate', method: 'POST', headers: { origin: 'http://127.0.0.1:3000', 'content-type': 'text/plain' } }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject).end(JSON.stringify({ description: DESCRIPTION }));
      });
    }
  });

  it('writes structured access logs without the token, the body or the query string', async () => {
    const api = await start();
    await api.call('GET', '/v1/stats?secret=shh');
    await api.call('POST', '/v1/generate', { body: { description: 'x', outputPath: '/etc/passwd.spec.ts' } });
    const requests = api.logs.filter((entry) => entry.msg === 'request');
    expect(requests).toEqual([
      { level: 'info', msg: 'request', method: 'GET', path: '/v1/stats', status: 200, ms: expect.any(Number) },
      { level: 'info', msg: 'request', method: 'POST', path: '/v1/generate', status: 400, ms: expect.any(Number) },
    ]);
    const text = JSON.stringify(api.logs);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('shh');
    expect(text).not.toContain('/etc/passwd');
  });
});

describe('POST /v1/generate input', () => {
  it('answers 400 naming the field: broken JSON, missing or ill-typed fields, unknown fields, not an object', async () => {
    const api = await start();
    const fieldsOf = async (options: { body?: unknown; raw?: string }) => {
      const answer = await api.call('POST', '/v1/generate', options);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
      return (answer.json.fields as Array<{ field: string; message: string }>).map((f) => `${f.field}: ${f.message}`);
    };
    expect(await fieldsOf({ raw: '{"description": "log in' })).toEqual([expect.stringMatching(/^body: not valid JSON/)]);
    expect(await fieldsOf({ raw: '' })).toEqual(['body: a JSON object is required']);
    expect(await fieldsOf({ body: ['log in'] })).toEqual(['body: must be a JSON object']);
    expect(await fieldsOf({ body: {} })).toEqual(['description: is required']);
    expect(await fieldsOf({ body: { description: 42 } })).toEqual(['description: must be a string']);
    expect(await fieldsOf({ body: { description: '   ' } })).toEqual(['description: must say what the test should do']);
    expect(await fieldsOf({ body: { description: DESCRIPTION, run: 'no', complexity: 'extreme', url: 'file:///etc/passwd' } })).toEqual([
      'url: must be an http:// or https:// URL, or a path starting with / resolved against the base URL',
      expect.stringMatching(/^complexity: /),
      'run: must be true or false',
    ]);
    expect(await fieldsOf({ body: { desciption: DESCRIPTION } })).toEqual(['description: is required', 'desciption: is not a field of this request']);
    expect(await fieldsOf({ body: { description: 'x'.repeat(5000) } })).toEqual(['description: must be at most 4000 characters']);
    expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('answers 413 to a body over 1 MB, declared or chunked, without reading it all; the server goes on serving', async () => {
    const api = await start();
    const limit = api.config.http.max_body_bytes;
    expect(limit).toBe(1024 * 1024);
    const declared = await postLarge(api.url, 64 * limit, true);
    expect(declared.status).toBe(413);
    expect(declared.sentWhenAnswered).toBeLessThan(64 * limit);
    const chunked = await postLarge(api.url, 64 * limit, false);
    expect(chunked.status).toBe(413);
    expect(chunked.sentWhenAnswered).toBeLessThan(64 * limit);
    expect((await api.call('GET', '/healthz')).status).toBe(200);
    expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('refuses every way out of generated-tests/ with 400, queues nothing and writes nothing outside', async () => {
    const api = await start();
    mkdirSync(path.join(project.dir, 'generated-tests'));
    symlinkSync(outside, path.join(project.dir, 'generated-tests', 'linked'));
    symlinkSync(outside, path.join(project.dir, 'generated-tests', 'search'));
    symlinkSync(path.join(outside, 'nowhere'), path.join(project.dir, 'generated-tests', 'dangling'));
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ outputPath: '../escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: 'a/../../escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: 'generated-tests/../escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: path.join(outside, 'escaped.spec.ts') }, 'outputPath'],
      [{ outputPath: 'C:/escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: '~/escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: '..\\escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: 'ok.spec.ts\u0000../../x' }, 'outputPath'],
      [{ outputPath: 'linked/escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: 'dangling/escaped.spec.ts' }, 'outputPath'],
      [{ outputPath: 'notes.txt' }, 'outputPath'],
      [{ feature: '../../escaped' }, 'feature'],
      [{ feature: '/etc' }, 'feature'],
      [{ feature: 'search\u0000' }, 'feature'],
      [{ feature: 'a\\b' }, 'feature'],
      // The feature is a fine name, but its folder is a link out of generated-tests/.
      [{ feature: 'Search' }, 'feature'],
    ];
    for (const [fields, field] of attempts) {
      const answer = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, run: false, ...fields } });
      expect({ fields, status: answer.status, field: answer.json.fields?.[0]?.field }).toEqual({ fields, status: 400, field });
    }
    expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
    expect(fake.requests).toHaveLength(0);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(project.dir, 'escaped.spec.ts'))).toBe(false);
  });
});

describe('jobs', () => {
  it('runs a job with a scripted model: 202, stages as they happen, the generate --json document, then the stats', async () => {
    const api = await start(serverConfig({ jobs: { max_retained: 1 } }));
    fake.reply({ text: chatty(GOOD_SPEC) }, { text: chatty(GOOD_SPEC) });
    const accepted = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, feature: 'Search', run: false } });
    expect(accepted.status).toBe(202);
    expect(accepted.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued' });
    expect(accepted.headers.get('location')).toBe(`/v1/jobs/${accepted.json.id}`);

    const job = await api.settled(accepted.json.id);
    expect(job).toMatchObject({ id: accepted.json.id, status: 'done', exit_code: 0 });
    expect(job.started_at! >= job.created_at && job.finished_at! >= job.started_at!).toBe(true);
    const result = GenerateResult.parse(job.result);
    expect(result).toMatchObject({ success: true, attempts: 1, error: null, testPath: 'generated-tests/search/hey-write-a-test-that-searches-for-milk-and-sees-it-in-the.spec.ts' });
    expect(readFileSync(path.join(project.dir, result.testPath!), 'utf8')).toContain("getByTestId('search-results')");
    // The stages as they happened (later stages may come between these: the Critic, the Runner).
    const stages = job.stages.map((s) => `${s.stage}:${s.status}`);
    expect(stages[0]).toBe('scribe:started');
    expect(stages.indexOf('scribe:done')).toBeGreaterThan(0);
    expect(stages.indexOf('write:done')).toBeGreaterThan(stages.indexOf('scribe:done'));
    expect(job.stages.every((s) => !Number.isNaN(Date.parse(s.at)))).toBe(true);
    // The request text reached the model as sent, voice-router phrasing and all.
    expect(fake.requests[0]!.body.messages!.at(-1)!.content).toContain(`Request: ${DESCRIPTION}`);

    const stats = await api.call('GET', '/v1/stats');
    expect(StatsDocument.parse(stats.json)).toMatchObject({ generations: 1, validation_attempts: 1, success_rate: 1, llm_calls: 1, tokens: { total: 150 } });

    // An outputPath under generated-tests/ (with or without the folder's own name in front) is used as given.
    const second = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, outputPath: 'generated-tests/custom/milk.spec.ts', run: false } });
    expect(second.status).toBe(202);
    expect((await api.settled(second.json.id)).result).toMatchObject({ success: true, testPath: 'generated-tests/custom/milk.spec.ts' });
    // max_retained: 1 — the first job is forgotten once the second has finished.
    expect((await api.call('GET', `/v1/jobs/${accepted.json.id}`)).status).toBe(404);
    expect((await api.call('GET', '/v1/jobs/not-a-job')).status).toBe(404);
    expect(api.logs).toContainEqual({ level: 'info', msg: 'request', method: 'POST', path: '/v1/generate', status: 202, ms: expect.any(Number), job: accepted.json.id });
    expect(api.logs).toContainEqual({ level: 'info', msg: 'job', job: accepted.json.id, status: 'done', ms: expect.any(Number), exit_code: 0 });
  });

  it('10 identical requests at once: one spec written, one success in the stats, every generation one outcome', async () => {
    const app = await startSlowApp();
    try {
      const api = await start(serverConfig({ jobs: { concurrency: 2, max_queued: 10 } }));
      const body = { description: 'see the reports page', url: app.url, run: false, provider: 'offline' };
      const posted = await Promise.all(Array.from({ length: 10 }, () => api.call('POST', '/v1/generate', { body })));
      expect(posted.map((p) => p.status)).toEqual(Array(10).fill(202));
      const jobs = await Promise.all(posted.map((p) => api.settled(p.json.id)));
      expect(jobs.filter((job) => job.status === 'done')).toHaveLength(1);
      expect(jobs.filter((job) => job.status === 'failed').every((job) => /exists/.test(job.error ?? ''))).toBe(true);

      const stats = StatsDocument.parse((await api.call('GET', '/v1/stats')).json);
      expect(stats.generations_succeeded).toBe(1);
      const events = new StatsLog(project.home).read();
      const ended = events.filter((e) => e.type === 'success' || e.type === 'give_up');
      const generations = new Set(events.map((e) => e.generation));
      expect(ended.map((e) => e.generation).sort()).toEqual([...generations].sort());
      expect(ended.filter((e) => e.type === 'success').map((e) => e.generation)).toEqual([jobs.find((job) => job.status === 'done')!.id]);
    } finally {
      await app.close();
    }
  });

  it('a job the pipeline cannot finish is failed with its reason and the document', async () => {
    const api = await start();
    fake.reply({ status: 401, body: { error: { message: 'bad key' } } });
    const accepted = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, run: false } });
    const job = await api.settled(accepted.json.id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe(job.result!.error);
    expect(job.result).toMatchObject({ success: false, testPath: null });
    expect(job.exit_code).not.toBe(0);
  });

  it('a full queue answers 429 with Retry-After; shutting down fails the running job after the grace and the queued one at once', async () => {
    // The first job's model call hangs for as long as the test needs: it stays running until shutdown ends it.
    const api = await start(serverConfig({ jobs: { concurrency: 1, max_queued: 1, retry_after_s: 7 }, shutdown: { grace_ms: 0, abort_ms: 50 } }), {
      'provider.request_timeout_ms': 120_000,
      'provider.http_retries': 0,
    });
    fake.reply({ hang: true });
    const running = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, run: false } });
    const queued = await api.call('POST', '/v1/generate', { body: { description: 'search for bread', run: false } });
    expect([running.status, queued.status]).toEqual([202, 202]);
    await until(() => fake.requests.length === 1, 'the first job asks the model');
    expect((await api.call('GET', `/v1/jobs/${queued.json.id}`)).json).toMatchObject({ status: 'queued', queue_position: 0 });

    const refused = await api.call('POST', '/v1/generate', { body: { description: 'search for eggs', run: false } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(refused.json.error).toBe('queue_full');

    const summary = await api.stop();
    expect(summary).toEqual({ finished: 0, abandoned: 1, cancelled: 1 });
    expect(api.jobs.get(running.json.id)).toMatchObject({ status: 'failed', error: 'the server shut down: the job did not finish within the 0 ms grace period' });
    expect(api.jobs.get(queued.json.id)).toMatchObject({ status: 'failed', error: 'the server shut down before the job started', started_at: null });
    expect(api.logs).toContainEqual({ level: 'info', msg: 'stopped', finished: 0, abandoned: 1, cancelled: 1 });
    await api.jobs.idle();
    // The abandoned job's late end changes nothing.
    expect(api.jobs.get(running.json.id)!.status).toBe('failed');
  });

  it('shutting down lets a running job finish within the grace period and refuses new work meanwhile', async () => {
    // The first model call hangs until the client's timeout (3 s, long enough for the test to begin the
    // shutdown meanwhile); the retry answers: the job is in flight at shutdown and finishes within the grace.
    const api = await start(serverConfig({ shutdown: { grace_ms: 60_000 } }), { 'provider.request_timeout_ms': 3000 });
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    const accepted = await api.call('POST', '/v1/generate', { body: { description: DESCRIPTION, run: false } });
    await until(() => fake.requests.length === 1, 'the job asks the model');
    const stopping = api.stop();
    const late = await api.call('POST', '/v1/generate', { body: { description: 'search for bread', run: false } }).catch((error: Error) => error);
    if (!(late instanceof Error)) expect(late.status).toBe(503);
    expect(await stopping).toEqual({ finished: 1, abandoned: 0, cancelled: 0 });
    const job = api.jobs.get(accepted.json.id)!;
    expect(job).toMatchObject({ status: 'done', result: { success: true } });
    expect(existsSync(path.join(project.dir, job.result!.testPath!))).toBe(true);
    expect(api.jobs.counts()).toEqual({ queued: 0, running: 0 });
  });
});
