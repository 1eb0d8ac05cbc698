/**
 * The HTTP API of `scribe serve` on node:http (DESIGN.md):
 *
 *   GET  /healthz          200 { status: 'ok' } (503 while shutting down); no token needed
 *   POST /v1/generate      { description, feature?, url?, complexity?, outputPath?, run?, force?, provider? }
 *                          → 202 { id, status } and Location; 400 naming the field, 413, 429 + Retry-After
 *   GET  /v1/jobs/:id      200 the job: status, stages so far, result (the `generate --json` document)
 *   GET  /v1/stats         200 the `stats --json` document
 *
 * Every route but /healthz needs `Authorization: Bearer $SCRIBE_API_TOKEN` when a token is set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ServerConfig } from '../config/server.ts';
import { readStats } from '../stats/index.ts';
import { checkBearer } from './auth.ts';
import { readJsonBody } from './body.ts';
import { HttpError } from './errors.ts';
import { JobQueue, type DrainSummary, type JobView } from './jobs.ts';
import type { LogSink } from './log.ts';
import { checkedSpecTarget } from './paths.ts';
import { parseGenerateBody } from './schema.ts';
import { JobThreads } from './threads.ts';

export interface AppOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  /** The project's output folder (a ProjectContext's outputDir): every job's spec must land inside it. */
  outputDir: string;
  /** The bearer token every route but /healthz needs; undefined leaves them open (loopback only). */
  token: string | undefined;
  log: LogSink;
}

export interface ScribeApp {
  handle(req: IncomingMessage, res: ServerResponse): void;
  jobs: JobQueue;
  /** Refuses new jobs from now on, settles every job (see JobQueue.drain), and stops the worker threads. */
  shutdown(graceMs: number): Promise<DrainSummary>;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What a request's log line says beyond method, path and status. */
interface RequestNotes {
  job?: string;
}

const JOB_PATH = /^\/v1\/jobs\/([0-9a-f-]{36})$/;

export function createApp(options: AppOptions): ScribeApp {
  const { config, log } = options;
  // Checked before a job is queued; named relative to the project in messages.
  const outputDir = path.relative(options.cwd, options.outputDir) || '.';
  const jobs = new JobQueue(
    { concurrency: config.jobs.concurrency, maxQueued: config.jobs.max_queued, retentionMs: config.jobs.retention_ms, maxRetained: config.jobs.max_retained },
    (job) => logJob(job, log),
  );
  const threads = new JobThreads(options.env);
  let closing = false;

  const generate = async (req: IncomingMessage, notes: RequestNotes): Promise<Answer> => {
    if (closing) throw unavailable(config);
    const body = await readJsonBody(req, config.http.max_body_bytes);
    const request = parseGenerateBody(body, { maxDescriptionChars: config.http.max_description_chars, maxFieldChars: config.http.max_field_chars });
    const outputPath = checkedSpecTarget(options.cwd, outputDir, request);
    const outcome = jobs.submit((onEvent, signal) => threads.run({ request: { ...request, outputPath }, cwd: options.cwd }, onEvent, signal));
    if (!outcome.accepted) {
      if (outcome.reason === 'closed') throw unavailable(config);
      throw new HttpError(429, 'queue_full', `${config.jobs.max_queued} jobs are already waiting; try again later`, { headers: { 'retry-after': String(config.jobs.retry_after_s) } });
    }
    notes.job = outcome.job.id;
    return { status: 202, body: { id: outcome.job.id, status: outcome.job.status }, headers: { location: `/v1/jobs/${outcome.job.id}` } };
  };

  const route = async (req: IncomingMessage, path: string, notes: RequestNotes): Promise<Answer> => {
    if (path === '/healthz') {
      allow(req, ['GET', 'HEAD']);
      return closing ? { status: 503, body: { status: 'shutting_down' } } : { status: 200, body: { status: 'ok', ...jobs.counts() } };
    }
    authorize(req, options.token);
    if (path === '/v1/generate') {
      allow(req, ['POST']);
      return generate(req, notes);
    }
    if (path === '/v1/stats') {
      allow(req, ['GET', 'HEAD']);
      return { status: 200, body: readStats(options.env, options.cwd) };
    }
    const jobPath = JOB_PATH.exec(path);
    if (jobPath) {
      allow(req, ['GET', 'HEAD']);
      notes.job = jobPath[1]!;
      const job = jobs.get(jobPath[1]!);
      if (!job) throw new HttpError(404, 'job_not_found', `no job ${jobPath[1]} (finished jobs are kept for ${config.jobs.retention_ms} ms)`);
      return { status: 200, body: job };
    }
    throw new HttpError(404, 'not_found', `no route ${path}`);
  };

  return {
    jobs,
    handle(req, res) {
      const started = performance.now();
      const path = pathOf(req.url);
      const notes: RequestNotes = {};
      res.on('finish', () => {
        log({ level: 'info', msg: 'request', method: req.method, path, status: res.statusCode, ms: Math.round(performance.now() - started), ...(notes.job ? { job: notes.job } : {}) });
      });
      route(req, path, notes)
        .catch((error: unknown): Answer => {
          if (error instanceof HttpError) return { status: error.status, body: error.body(), headers: error.headers };
          log({ level: 'error', msg: 'request failed', method: req.method, path, error: error instanceof Error ? error.message : String(error) });
          return { status: 500, body: { error: 'internal_error', message: 'the server failed to answer; see its log' } };
        })
        .then((answer) => send(res, answer, req.method === 'HEAD'));
    },
    async shutdown(graceMs) {
      closing = true;
      const summary = await jobs.drain(graceMs);
      await threads.close(config.shutdown.abort_ms);
      return summary;
    },
  };
}

function authorize(req: IncomingMessage, token: string | undefined): void {
  const outcome = checkBearer(req.headers.authorization, token);
  if (outcome === 'missing') {
    throw new HttpError(401, 'unauthorized', 'send Authorization: Bearer <SCRIBE_API_TOKEN>', { headers: { 'www-authenticate': 'Bearer realm="scribe"' } });
  }
  if (outcome === 'invalid') {
    throw new HttpError(401, 'unauthorized', 'the bearer token is not valid', { headers: { 'www-authenticate': 'Bearer realm="scribe", error="invalid_token"' } });
  }
}

function allow(req: IncomingMessage, methods: string[]): void {
  if (!methods.includes(req.method ?? '')) {
    throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here (${methods.join(', ')})`, { headers: { allow: methods.join(', ') } });
  }
}

function unavailable(config: ServerConfig): HttpError {
  return new HttpError(503, 'shutting_down', 'the server is shutting down and takes no new jobs', { headers: { 'retry-after': String(config.jobs.retry_after_s), connection: 'close' } });
}

/** The path alone: the query string is dropped from routing and from logs alike. */
function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const end = raw.search(/[?#]/);
  return end < 0 ? raw : raw.slice(0, end);
}

function send(res: ServerResponse, answer: Answer, headOnly: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...answer.headers,
  });
  res.end(headOnly ? undefined : text);
}

function logJob(job: JobView, log: LogSink): void {
  const finished = job.status === 'done' || job.status === 'failed';
  log({
    level: job.status === 'failed' ? 'warn' : 'info',
    msg: 'job',
    job: job.id,
    status: job.status,
    ...(finished ? { ms: Date.parse(job.finished_at!) - Date.parse(job.created_at), exit_code: job.exit_code ?? null } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
  });
}
