/**
 * Result callbacks of POST /v1/generate: the finished job is POSTed to the caller's `callback_url`
 * (a host on agents/server.yaml's callbacks.allowed_hosts), signed with an HMAC-SHA256 of the exact body
 * (`X-Scribe-Signature: sha256=<hex>`, secret SCRIBE_CALLBACK_SECRET). A network failure, a timeout,
 * 429 or 5xx is tried again with a doubling backoff, at most `attempts` times; redirects are not
 * followed (they could lead off the allow-list).
 */
import { createHmac } from 'node:crypto';
import type { ServerConfig } from '../config/server.ts';
import { HttpError } from '../endpoint/errors.ts';
import type { LogSink } from '../endpoint/log.ts';
import { settleWithin } from '../util/deadline.ts';

export const SIGNATURE_HEADER = 'x-scribe-signature';

export type CallbackSettings = ServerConfig['callbacks'];

export function callbackSecret(env: NodeJS.ProcessEnv): string | undefined {
  return env.SCRIBE_CALLBACK_SECRET?.trim() || undefined;
}

/** The URL if its host is allowed and the server can sign; else a 400 naming `callback_url`. */
export function checkCallbackUrl(value: string, settings: CallbackSettings, secret: string | undefined): URL {
  const field = 'callback_url';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw HttpError.invalid([{ field, message: 'must be an http:// or https:// URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw HttpError.invalid([{ field, message: 'must be an http:// or https:// URL' }]);
  if (url.username || url.password) throw HttpError.invalid([{ field, message: 'must not carry credentials' }]);
  if (settings.allowed_hosts.length === 0) {
    throw HttpError.invalid([{ field, message: 'callbacks are off on this server (agents/server.yaml callbacks.allowed_hosts is empty)' }]);
  }
  if (!isAllowedHost(url, settings.allowed_hosts)) {
    throw HttpError.invalid([{ field, message: `host ${url.host} is not in agents/server.yaml callbacks.allowed_hosts` }]);
  }
  if (secret === undefined) throw HttpError.invalid([{ field, message: 'the server has no SCRIBE_CALLBACK_SECRET to sign callbacks with' }]);
  return url;
}

/** `name` allows that host on any port; `name:port` that port only. Case-insensitive, exact: no wildcards. */
export function isAllowedHost(url: URL, allowed: readonly string[]): boolean {
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted === host || wanted === hostname;
  });
}

export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface Delivery {
  url: URL;
  body: string;
  secret: string;
  settings: CallbackSettings;
  log: LogSink;
  /** The job, for the log. */
  job: string;
  /** Stops waiting and trying (the server shutting down). */
  signal?: AbortSignal;
}

/** Resolves with whether the receiver took it (2xx) within the attempts allowed; never throws. */
export async function deliverCallback(delivery: Delivery): Promise<boolean> {
  const { settings, log } = delivery;
  const headers = { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature(delivery.body, delivery.secret), 'user-agent': 'scribe-callback' };
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    let outcome: string;
    try {
      const timeout = AbortSignal.timeout(settings.timeout_ms);
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { ...headers, 'x-scribe-delivery-attempt': String(attempt) },
        body: delivery.body,
        redirect: 'manual',
        signal: delivery.signal ? AbortSignal.any([delivery.signal, timeout]) : timeout,
      });
      await response.body?.cancel();
      if (response.ok) {
        log({ level: 'info', msg: 'callback delivered', job: delivery.job, status: response.status, attempt });
        return true;
      }
      if (response.status !== 429 && response.status < 500) {
        log({ level: 'warn', msg: 'callback refused', job: delivery.job, status: response.status, attempt });
        return false;
      }
      outcome = `HTTP ${response.status}`;
    } catch (error) {
      if (delivery.signal?.aborted) break;
      outcome = error instanceof Error ? error.message : String(error);
    }
    if (attempt === settings.attempts) {
      log({ level: 'warn', msg: 'callback failed', job: delivery.job, attempts: attempt, error: outcome });
      return false;
    }
    const delay = Math.min(settings.backoff_cap_ms, settings.backoff_base_ms * 2 ** (attempt - 1));
    log({ level: 'info', msg: 'callback retry', job: delivery.job, attempt, error: outcome, delay_ms: delay });
    if (!(await sleep(delay, delivery.signal))) break;
  }
  log({ level: 'warn', msg: 'callback abandoned: the server is shutting down', job: delivery.job });
  return false;
}

/** Waits `ms`; false when `signal` fired first. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The callbacks of one node's jobs: the URL of each job not finished yet, and the deliveries under way,
 * which `close` gives a last wait and then stops.
 */
export class CallbackSender {
  private readonly settings: CallbackSettings;
  private readonly secret: string | undefined;
  private readonly log: LogSink;
  private readonly urls = new Map<string, URL>();
  private readonly deliveries = new Set<Promise<boolean>>();
  private readonly stop = new AbortController();

  constructor(settings: CallbackSettings, secret: string | undefined, log: LogSink) {
    this.settings = settings;
    this.secret = secret;
    this.log = log;
  }

  /** Remembers where job `id`'s result goes. */
  expect(id: string, url: URL): void {
    this.urls.set(id, url);
  }

  /** Delivers a finished job to its callback URL, if it has one. */
  finished(job: { id: string }, url: URL | undefined = this.urls.get(job.id)): Promise<boolean> {
    this.urls.delete(job.id);
    if (!url || this.secret === undefined) return Promise.resolve(false);
    const delivery = deliverCallback({ url, body: JSON.stringify(job), secret: this.secret, settings: this.settings, log: this.log, job: job.id, signal: this.stop.signal });
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
    return delivery;
  }

  /** Waits at most `waitMs` for the deliveries under way, then stops them. */
  async close(waitMs: number): Promise<void> {
    await settleWithin([...this.deliveries], waitMs);
    this.stop.abort();
  }
}
