/**
 * The OpenAI-compatible model provider: chat completions through the `openai` SDK, streamed or not.
 *
 * Retries are Scribe's own loop (the SDK's maxRetries is 0): the number of HTTP attempts is part of
 * every Completion and stats event, the backoff comes from agents/scribe.yaml, and a 401 or 404 must
 * fail at once with a message naming the setting to fix rather than be retried.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ProviderSettings } from '../config/scribe.ts';
import type { Completion, CompletionRequest, ModelProvider, TokenUsage } from './types.ts';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Why a model call failed: `config` is for the user to fix (key, model, URL), the rest may pass later. */
export type ModelFailureKind = 'config' | 'unavailable' | 'rejected';

export class ModelCallError extends Error {
  readonly kind: ModelFailureKind;
  /** HTTP attempts made before giving up. */
  readonly attempts: number;
  readonly status: number | undefined;

  constructor(message: string, kind: ModelFailureKind, attempts: number, status?: number) {
    super(message);
    this.name = 'ModelCallError';
    this.kind = kind;
    this.attempts = attempts;
    this.status = status;
  }
}

export interface RetryNotice {
  /** The attempt that failed (1-based) and how many there may be. */
  attempt: number;
  maxAttempts: number;
  reason: string;
  delayMs: number;
}

export type RetryTiming = Pick<ProviderSettings, 'backoff_base_ms' | 'backoff_cap_ms' | 'max_retry_after_ms'>;

export interface OpenAIProviderOptions {
  /** Without a key (a local server that needs none) a placeholder is sent. */
  apiKey?: string;
  baseURL?: string;
  settings: Pick<ProviderSettings, 'request_timeout_ms' | 'stream_idle_timeout_ms' | 'max_tokens' | 'http_retries'> & RetryTiming;
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * An attempt whose answer came but cannot be used: truncated (`length`), cut off mid-stream, stalled,
 * or not a chat completion at all. Retried like a timeout; `lengthLimit` asks for a larger max_tokens.
 */
class IncompleteAnswer extends Error {
  readonly lengthLimit: boolean;
  constructor(reason: string, lengthLimit = false) {
    super(reason);
    this.name = 'IncompleteAnswer';
    this.lengthLimit = lengthLimit;
  }
}

/** finish_reason values that mean the model ended its answer itself (OpenAI's, and those of compatible servers). */
const COMPLETE_FINISH = new Set(['stop', 'end_turn', 'stop_sequence', 'eos']);

/** What one failed HTTP attempt means for the call. */
type Failure = { retry: true; reason: string; retryAfterMs: number | undefined } | { retry: false; error: ModelCallError };

export class OpenAIProvider implements ModelProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly options: OpenAIProviderOptions;
  private readonly baseURL: string;

  constructor(options: OpenAIProviderOptions) {
    this.options = options;
    this.baseURL = options.baseURL?.trim() || DEFAULT_OPENAI_BASE_URL;
    // Everything is passed explicitly: the SDK would otherwise read process.env, not the caller's env.
    this.client = new OpenAI({
      apiKey: options.apiKey?.trim() || 'not-set',
      baseURL: this.baseURL,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: options.settings.request_timeout_ms,
    });
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const maxAttempts = this.options.settings.http_retries + 1;
    let maxTokens = this.options.settings.max_tokens;
    let lengthRetried = false;
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(this.options.settings.request_timeout_ms);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      try {
        const answer = request.stream ? await this.streamed(request, signal, maxTokens) : await this.whole(request, signal, maxTokens);
        return { ...answer, attempts: attempt };
      } catch (error) {
        if (request.signal?.aborted) throw error;
        if (error instanceof IncompleteAnswer && error.lengthLimit) {
          // One retry with room to finish; a second cut-off answer is a setting to change, not bad luck.
          if (lengthRetried) {
            throw new ModelCallError(
              `The model's answer was cut off at max_tokens (${maxTokens}) twice. Raise provider.max_tokens in agents/scribe.yaml (now ${this.options.settings.max_tokens}).`,
              'config',
              attempt,
            );
          }
          lengthRetried = true;
          maxTokens *= 2;
          this.options.onRetry?.({ attempt, maxAttempts: attempt + 1, reason: error.message, delayMs: 0 });
          continue;
        }
        const failure = this.classify(error, request.model, attempt, timeout.aborted);
        if (!failure.retry) throw failure.error;
        const delayMs = retryDelay(attempt, this.options.settings, failure.retryAfterMs);
        if (attempt >= maxAttempts || delayMs === undefined) {
          const why = delayMs === undefined ? `the server asked to wait ${Math.ceil((failure.retryAfterMs ?? 0) / 1000)} s` : `${attempt} attempt${attempt === 1 ? '' : 's'}`;
          throw new ModelCallError(`The model call failed (${failure.reason}) after ${why}. Check that ${this.baseURL} is up, or try again later.`, 'unavailable', attempt);
        }
        this.options.onRetry?.({ attempt, maxAttempts, reason: failure.reason, delayMs });
        await sleep(delayMs, request.signal);
      }
    }
  }

  private async whole(request: CompletionRequest, signal: AbortSignal, maxTokens: number): Promise<Omit<Completion, 'attempts'>> {
    const response: unknown = await this.client.chat.completions.create(
      { model: request.model, messages: request.messages, temperature: request.temperature, max_tokens: maxTokens, stream: false },
      { signal },
    );
    const completion = this.asChatCompletion(response);
    const choice = completion.choices[0]!;
    this.requireFinished(choice.finish_reason, maxTokens);
    const text = choice.message?.content ?? '';
    return { text, model: completion.model || request.model, usage: usageOf(completion.usage, request, text) };
  }

  private async streamed(request: CompletionRequest, signal: AbortSignal, maxTokens: number): Promise<Omit<Completion, 'attempts'>> {
    const idleMs = this.options.settings.stream_idle_timeout_ms;
    const idle = new AbortController();
    const stream = await this.client.chat.completions.create(
      { model: request.model, messages: request.messages, temperature: request.temperature, max_tokens: maxTokens, stream: true, stream_options: { include_usage: true } },
      { signal: AbortSignal.any([signal, idle.signal]) },
    );
    let text = '';
    let model = request.model;
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    let timer = setTimeout(() => idle.abort(), idleMs);
    try {
      for await (const chunk of stream) {
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(), idleMs);
        if (!Array.isArray(chunk.choices)) throw new IncompleteAnswer(`the server at ${this.baseURL} sent a stream chunk that is not a chat completion chunk`);
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = chunk.usage;
      }
    } catch (error) {
      if (signal.aborted || error instanceof IncompleteAnswer) throw error;
      if (idle.signal.aborted) throw new IncompleteAnswer(`the answer stream stalled: nothing for ${idleMs} ms (provider.stream_idle_timeout_ms)`);
      // The server answered, so it is reachable: the connection broke mid-answer.
      throw new IncompleteAnswer(`the connection to ${this.baseURL} broke mid-answer (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      clearTimeout(timer);
    }
    // The SDK ends the iteration quietly when its signal aborts: a stall or a timeout, not an answer.
    if (signal.aborted) throw signal.reason;
    if (idle.signal.aborted) throw new IncompleteAnswer(`the answer stream stalled: nothing for ${idleMs} ms (provider.stream_idle_timeout_ms)`);
    if (finish === undefined || finish === null) throw new IncompleteAnswer('the answer stream ended before the model finished its answer');
    this.requireFinished(finish, maxTokens);
    return { text, model, usage: usageOf(usage, request, text) };
  }

  /** The body as a chat completion, or a named, retried error saying what the server sent instead. */
  private asChatCompletion(response: unknown): OpenAI.ChatCompletion {
    if (typeof response === 'string') {
      const kind = /^\s*<(?:!doctype|html|head|body)/i.test(response) ? 'HTML' : 'text';
      throw new IncompleteAnswer(`the server at ${this.baseURL} answered with ${kind}, not a chat completion`);
    }
    const choices = (response as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices) || choices.length === 0 || typeof choices[0] !== 'object' || choices[0] === null) {
      throw new IncompleteAnswer(`the server at ${this.baseURL} answered with ${JSON.stringify(response).slice(0, 80)}, not a chat completion`);
    }
    return response as OpenAI.ChatCompletion;
  }

  private requireFinished(finish: string | null | undefined, maxTokens: number): void {
    if (finish === 'length') throw new IncompleteAnswer(`the answer was cut off at max_tokens (${maxTokens})`, true);
    if (!finish || !COMPLETE_FINISH.has(finish)) throw new IncompleteAnswer(`the model did not finish its answer (finish_reason: ${finish ?? 'none'})`);
  }

  private classify(error: unknown, model: string, attempt: number, timedOut: boolean): Failure {
    if (timedOut || error instanceof APIConnectionTimeoutError) {
      return { retry: true, reason: `no answer within ${this.options.settings.request_timeout_ms} ms`, retryAfterMs: undefined };
    }
    if (error instanceof IncompleteAnswer) return { retry: true, reason: error.message, retryAfterMs: undefined };
    if (error instanceof APIUserAbortError) throw error;
    if (error instanceof APIConnectionError) return { retry: true, reason: `cannot reach ${this.baseURL}: ${error.message}`, retryAfterMs: undefined };
    if (!(error instanceof APIError) || error.status === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      return { retry: false, error: new ModelCallError(`The model call failed: ${message}`, 'rejected', attempt) };
    }
    // The SDK's error is generic in its parts (any); these are what an HTTP error of its client holds.
    const failure = error as APIError & { status: number };
    const status = failure.status;
    const detail = serverMessage(failure);
    if (status === 401) {
      return { retry: false, error: new ModelCallError(`The model server rejected the API key (401${detail}). Set OPENAI_API_KEY to a valid key for ${this.baseURL}.`, 'config', attempt, status) };
    }
    if (status === 403) {
      return { retry: false, error: new ModelCallError(`The API key may not use model "${model}" (403${detail}). Check OPENAI_API_KEY's access, or choose another model with SCRIBE_MODEL.`, 'config', attempt, status) };
    }
    if (status === 404) {
      return {
        retry: false,
        error: new ModelCallError(`Model "${model}" or the chat completions endpoint was not found at ${this.baseURL} (404${detail}). Set SCRIBE_MODEL to a model this server has, or OPENAI_BASE_URL to the server's /v1 address.`, 'config', attempt, status),
      };
    }
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      return { retry: true, reason: `HTTP ${status}${detail}`, retryAfterMs: retryAfterMs(failure.headers) };
    }
    return { retry: false, error: new ModelCallError(`The model server refused the request (HTTP ${status}${detail}).`, 'rejected', attempt, status) };
  }
}

/**
 * How long to wait before the next attempt: the server's Retry-After when it gave one, else exponential
 * backoff with jitter (half fixed, half random) capped at backoff_cap_ms. Undefined: the server asks for
 * a longer wait than max_retry_after_ms allows, so waiting is not worth it.
 */
export function retryDelay(failedAttempt: number, timing: RetryTiming, retryAfter: number | undefined, random: () => number = Math.random): number | undefined {
  if (retryAfter !== undefined) return retryAfter <= timing.max_retry_after_ms ? retryAfter : undefined;
  const exponential = Math.min(timing.backoff_cap_ms, timing.backoff_base_ms * 2 ** (failedAttempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** `retry-after-ms` (OpenAI's), else `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function serverMessage(error: APIError): string {
  const body: unknown = error.error;
  const message = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
  return typeof message === 'string' && message ? `: ${message}` : '';
}

/** The server's usage; servers that report none get an estimate (about 4 characters a token). */
function usageOf(usage: OpenAI.CompletionUsage | undefined | null, request: CompletionRequest, text: string): TokenUsage {
  if (usage) return { prompt: usage.prompt_tokens, completion: usage.completion_tokens, total: usage.total_tokens };
  const prompt = Math.ceil(request.messages.reduce((sum, m) => sum + m.content.length, 0) / 4);
  const completion = Math.ceil(text.length / 4);
  return { prompt, completion, total: prompt + completion };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
