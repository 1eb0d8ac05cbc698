/**
 * Connections to the shared queue's Redis, and the names Scribe keeps there beside BullMQ's own.
 * Two kinds: a command connection that fails fast when Redis is away (the API answers 503 rather
 * than hang), and a blocking one that waits and reconnects for ever (a worker, an event reader).
 */
import { Redis } from 'ioredis';
import type { ServerConfig } from '../config/server.ts';
import { BackendUnavailable } from '../http/backend.ts';

export type QueueSettings = ServerConfig['queue'];

/** Where a deployment's queue lives: the Redis URL and the queue's name in it. */
export interface QueueTarget {
  url: string;
  settings: QueueSettings;
}

/** The URL without its password, for logs and answers. */
export function shownUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Commands that fail at once when Redis is unreachable, and after `command_timeout_ms` when it does not answer. */
export function commandConnection(target: QueueTarget): Redis {
  return new Redis(target.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: target.settings.command_timeout_ms,
    connectTimeout: target.settings.command_timeout_ms,
    lazyConnect: false,
    // Reconnects for ever, at most a second apart: Redis coming back is noticed within a second.
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
}

/** Connections that wait and reconnect for ever: a worker's, an event reader's, BullMQ's blocking ones. */
export function waitingOptions(target: QueueTarget) {
  return { url: target.url, maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(times * 100, 1000) };
}

export function waitingConnection(target: QueueTarget): Redis {
  const { url, ...options } = waitingOptions(target);
  return new Redis(url, options);
}

/** Scribe's own keys beside the queue's: one prefix per queue name. */
export function keysOf(settings: QueueSettings) {
  const base = `scribe:${settings.name}`;
  return {
    /** Every statistics event, in order (XADD). */
    stats: `${base}:stats`,
    /** Generations that have their outcome (a hash: generation → 1); the guard of one outcome each. */
    outcomes: `${base}:outcomes`,
    /** Answers validated so far per generation (a hash): what an interrupted one had spent. */
    attempts: `${base}:attempts`,
    /** Where cancellations of running jobs are announced (PUBLISH). */
    cancelChannel: `${base}:cancel`,
    /** A job asked to stop: its worker fails it, even one that takes it up later. */
    cancelled: (id: string) => `${base}:cancelled:${id}`,
    /** A queued job cancelled before any worker took it: its final record. */
    tombstone: (id: string) => `${base}:tombstone:${id}`,
    /** A batch of POST /v1/batch: its items and which job is which (JSON). */
    batch: (id: string) => `${base}:batch:${id}`,
    /** The batch's summary, kept once (SET NX) by the first API node that saw every job of it finished. */
    batchResult: (id: string) => `${base}:batch-result:${id}`,
    /** The jobs of one caller running now (a set of job ids). */
    running: (owner: string) => `${base}:running:${owner}`,
  };
}

export type QueueKeys = ReturnType<typeof keysOf>;

/**
 * Runs Redis round trips on `redis` (waiting for it to connect first), turning an unreachable or
 * silent Redis into BackendUnavailable within `command_timeout_ms`.
 */
export async function reach<T>(target: QueueTarget, redis: Redis, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${target.settings.command_timeout_ms} ms`)), target.settings.command_timeout_ms);
  });
  const ready = () => (redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('ready', () => resolve())));
  try {
    return await Promise.race([ready().then(work), timeout]);
  } catch (error) {
    if (error instanceof BackendUnavailable || !isConnectionError(error)) throw error;
    throw new BackendUnavailable(`the job queue at ${shownUrl(target.url)} cannot be reached (${(error as Error).message}); try again later`);
  } finally {
    clearTimeout(timer);
  }
}

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /no answer within|Command timed out|Connection is closed|enableOfflineQueue|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Stream isn't writeable|max retries|MaxRetriesPerRequest/i.test(error.message);
}
