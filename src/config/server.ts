/**
 * agents/server.yaml: the HTTP API's limits — job concurrency and queue size, body size, timeouts,
 * how long finished jobs stay readable, the shutdown grace period, result callbacks, the shared queue
 * (`--queue`, `scribe worker`), and `scribe mcp`.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

export const DEFAULT_SERVER_PATH = path.join(BUNDLED_AGENTS_DIR, 'server.yaml');

const positiveInt = z.number().int().positive();
const nonnegativeInt = z.number().int().nonnegative();

export const ServerFile = z
  .strictObject({
    version: z.literal(1),
    jobs: z.strictObject({
      concurrency: positiveInt,
      max_queued: nonnegativeInt,
      retry_after_s: positiveInt,
      retention_ms: positiveInt,
      max_retained: positiveInt,
      timeout_ms: positiveInt,
    }),
    queue: z.strictObject({
      url: z.string().refine(isRedisUrl, 'must be a redis:// or rediss:// URL').nullable(),
      name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
      per_caller_concurrency: positiveInt,
      command_timeout_ms: positiveInt,
      lock_ms: positiveInt,
      stalled_interval_ms: positiveInt,
      max_stalled: positiveInt,
    }),
    http: z.strictObject({
      max_body_bytes: positiveInt,
      max_description_chars: positiveInt,
      max_field_chars: positiveInt,
      request_timeout_ms: positiveInt,
      headers_timeout_ms: positiveInt,
      keep_alive_timeout_ms: positiveInt,
      listen_backlog: positiveInt,
    }),
    shutdown: z.strictObject({
      grace_ms: nonnegativeInt,
      abort_ms: nonnegativeInt,
    }),
    callbacks: z.strictObject({
      allowed_hosts: z.array(z.string().min(1)),
      attempts: positiveInt,
      backoff_base_ms: nonnegativeInt,
      backoff_cap_ms: nonnegativeInt,
      timeout_ms: positiveInt,
    }),
    mcp: z.strictObject({
      sampling_max_tokens: positiveInt,
    }),
  })
  .superRefine((file, ctx) => {
    // Node refuses a headers timeout longer than the request timeout; say so where it is written.
    if (file.http.headers_timeout_ms > file.http.request_timeout_ms) {
      ctx.addIssue({ code: 'custom', path: ['http', 'headers_timeout_ms'], message: `must be at most http.request_timeout_ms (${file.http.request_timeout_ms})` });
    }
  });

/** A Redis URL: what `scribe serve --queue` and `scribe worker --queue` take. */
export function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export type ServerConfig = z.infer<typeof ServerFile> & { file: string };

export function loadServerConfig(file: string = DEFAULT_SERVER_PATH): ServerConfig {
  return serverConfigFrom(readYamlFile(file));
}

export function serverConfigFrom(source: YamlSource): ServerConfig {
  return { ...checkWithSchema(source, ServerFile), file: source.file };
}
