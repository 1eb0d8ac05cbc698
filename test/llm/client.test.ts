import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCallError, OpenAIProvider, retryAfterMs, retryDelay, type RetryNotice } from '../../src/llm/client.ts';
import type { CompletionRequest } from '../../src/llm/types.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';

const settings = { request_timeout_ms: 10_000, stream_idle_timeout_ms: 10_000, max_tokens: 1000, http_retries: 2, backoff_base_ms: 1, backoff_cap_ms: 5, max_retry_after_ms: 1000 };
const request: CompletionRequest = { model: 'test-model', temperature: 0.2, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'say hi' }] };

let fake: FakeOpenAI;
let notices: RetryNotice[];
const provider = () => new OpenAIProvider({ apiKey: 'test-key', baseURL: fake.url, settings, onRetry: (n) => notices.push(n) });

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  notices = [];
  expect(fake.pending()).toBe(0);
});

describe.each([false, true])('OpenAIProvider (stream: %s)', (stream) => {
  it('returns the answer, the model, the usage and one attempt', async () => {
    fake.reply({ text: 'hello there, a longer answer to split into chunks', usage: { prompt_tokens: 12, completion_tokens: 7 } });
    const completion = await provider().complete({ ...request, stream });
    expect(completion).toEqual({ text: 'hello there, a longer answer to split into chunks', model: 'test-model', usage: { prompt: 12, completion: 7, total: 19 }, attempts: 1 });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body.stream ?? false).toBe(stream);
    expect(sent.body.messages).toEqual(request.messages);
    expect(sent.body.temperature).toBe(0.2);
  });

  it('retries a 429, waiting as long as retry-after-ms says', async () => {
    fake.reply({ status: 429, headers: { 'retry-after-ms': '20' } }, { text: 'ok' });
    const completion = await provider().complete({ ...request, stream });
    expect(completion.text).toBe('ok');
    expect(completion.attempts).toBe(2);
    expect(notices).toEqual([{ attempt: 1, maxAttempts: 3, reason: expect.stringContaining('HTTP 429'), delayMs: 20 }]);
  });

  it('retries 5xx with backoff and gives up after http_retries, with the attempts counted', async () => {
    fake.reply({ status: 500 }, { status: 502 }, { status: 503 });
    const error = await provider().complete({ ...request, stream }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 3 });
    expect((error as Error).message).toContain('HTTP 503');
    expect(fake.requests).toHaveLength(3);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
    for (const notice of notices) expect(notice.delayMs).toBeLessThanOrEqual(settings.backoff_cap_ms);
  });

  it('retries a request that timed out', async () => {
    fake.reply({ hang: true }, { text: 'late but fine' });
    const completion = await new OpenAIProvider({ apiKey: 'k', baseURL: fake.url, settings: { ...settings, request_timeout_ms: 200 } }).complete({ ...request, stream });
    expect(completion).toMatchObject({ text: 'late but fine', attempts: 2 });
  });
});

describe.each([false, true])('OpenAIProvider: incomplete answers are never accepted (stream: %s)', (stream) => {
  it('an answer cut off at max_tokens is retried once with twice the max_tokens', async () => {
    fake.reply({ text: "test('one', async () => {});", finish: 'length' }, { text: 'both tests' });
    const completion = await provider().complete({ ...request, stream });
    expect(completion).toMatchObject({ text: 'both tests', attempts: 2 });
    expect(fake.requests.map((r) => r.body.max_tokens)).toEqual([1000, 2000]);
    expect(notices[0]?.reason).toContain('cut off at max_tokens (1000)');
  });

  it('an answer cut off twice fails, naming provider.max_tokens', async () => {
    fake.reply({ text: 'half', finish: 'length' }, { text: 'still half', finish: 'length' });
    const error = (await provider().complete({ ...request, stream }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'config', attempts: 2 });
    expect(error.message).toContain('provider.max_tokens in agents/scribe.yaml');
    expect(fake.requests).toHaveLength(2);
  });

  it('an answer the model did not finish (content_filter) is retried, not accepted', async () => {
    fake.reply({ text: 'partial', finish: 'content_filter' }, { text: 'whole' });
    const completion = await provider().complete({ ...request, stream });
    expect(completion).toMatchObject({ text: 'whole', attempts: 2 });
    expect(notices[0]?.reason).toContain('finish_reason: content_filter');
  });
});

describe('OpenAIProvider: broken streams and bodies', () => {
  it('a stream that stalls past stream_idle_timeout_ms is aborted and retried', async () => {
    fake.reply({ text: 'the first half and the second half', stallAfter: 10 }, { text: 'complete' });
    const quick = new OpenAIProvider({ apiKey: 'k', baseURL: fake.url, settings: { ...settings, stream_idle_timeout_ms: 200, request_timeout_ms: 10_000 }, onRetry: (n) => notices.push(n) });
    const completion = await quick.complete({ ...request, stream: true });
    expect(completion).toMatchObject({ text: 'complete', attempts: 2 });
    expect(notices[0]?.reason).toContain('stalled: nothing for 200 ms');
  });

  it('a stream that stalls on every attempt fails; the call is not a success', async () => {
    fake.reply({ text: 'abc', stallAfter: 1 }, { text: 'abc', stallAfter: 1 }, { text: 'abc', stallAfter: 1 });
    const quick = new OpenAIProvider({ apiKey: 'k', baseURL: fake.url, settings: { ...settings, stream_idle_timeout_ms: 100, request_timeout_ms: 10_000 } });
    const error = (await quick.complete({ ...request, stream: true }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 3 });
    expect(error.message).toContain('stalled');
  });

  it('a stream reset mid-answer is retried and named as such, not "cannot reach"', async () => {
    fake.reply({ text: 'the first half and the second half', resetAfter: 10 }, { text: 'complete' });
    const completion = await provider().complete({ ...request, stream: true });
    expect(completion).toMatchObject({ text: 'complete', attempts: 2 });
    expect(notices[0]?.reason).toContain('broke mid-answer');
    expect(notices[0]?.reason).not.toContain('cannot reach');
  });

  it('an HTML body is a retried, named error', async () => {
    const page = '<!DOCTYPE html><html><body>Bad gateway</body></html>';
    fake.reply({ raw: page, contentType: 'text/html' }, { raw: page, contentType: 'text/html' }, { raw: page, contentType: 'text/html' });
    const error = (await provider().complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 3 });
    expect(error.message).toContain(`the server at ${fake.url} answered with HTML, not a chat completion`);
  });

  it('a `{}` body is retried, then the real answer is used', async () => {
    fake.reply({ raw: '{}', contentType: 'application/json' }, { text: 'fine' });
    const completion = await provider().complete(request);
    expect(completion).toMatchObject({ text: 'fine', attempts: 2 });
    expect(notices[0]?.reason).toContain('answered with {}, not a chat completion');
  });
});

describe('OpenAIProvider: failures that retrying cannot fix', () => {
  it('401 fails at once, naming OPENAI_API_KEY', async () => {
    fake.reply({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const error = (await provider().complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ kind: 'config', attempts: 1, status: 401 });
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('Incorrect API key provided');
    expect(fake.requests).toHaveLength(1);
  });

  it('404 fails at once, naming SCRIBE_MODEL and OPENAI_BASE_URL', async () => {
    fake.reply({ status: 404, body: { error: { message: 'The model `test-model` does not exist' } } });
    const error = (await provider().complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ kind: 'config', attempts: 1 });
    expect(error.message).toMatch(/SCRIBE_MODEL.*OPENAI_BASE_URL/);
    expect(error.message).toContain('"test-model"');
    expect(fake.requests).toHaveLength(1);
  });

  it('400 is the request refused, not retried', async () => {
    fake.reply({ status: 400, body: { error: { message: 'context too long' } } });
    const error = (await provider().complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ kind: 'rejected', attempts: 1 });
    expect(error.message).toContain('context too long');
  });

  it('a Retry-After longer than max_retry_after_ms fails instead of stalling', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '3600' } });
    const error = (await provider().complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 1 });
    expect(error.message).toContain('3600 s');
  });

  it('an unreachable server is retried, then reported with its address', async () => {
    const gone = await startFakeOpenAI();
    await gone.close();
    const error = (await new OpenAIProvider({ apiKey: 'k', baseURL: gone.url, settings }).complete(request).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 3 });
    expect(error.message).toContain(gone.url);
  });
});

describe('retry timing', () => {
  const timing = { backoff_base_ms: 100, backoff_cap_ms: 1000, max_retry_after_ms: 5000 };

  it('reads retry-after-ms, Retry-After seconds and an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it("honours the server's wait, up to max_retry_after_ms", () => {
    expect(retryDelay(1, timing, 2000)).toBe(2000);
    expect(retryDelay(1, timing, 0)).toBe(0);
    expect(retryDelay(1, timing, 6000)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect([1, 2, 3].map((n) => retryDelay(n, timing, undefined, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => retryDelay(n, timing, undefined, () => 1))).toEqual([100, 200, 400]);
    expect(retryDelay(10, timing, undefined, () => 1)).toBe(1000);
  });
});
