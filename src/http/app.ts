/**
 * The HTTP API of `scribe serve` on node:http (README's HTTP API):
 *
 *   GET  /healthz          200 { status: 'ok' } (503 while shutting down); no token needed
 *   POST /v1/generate      { description, feature?, url?, complexity?, outputPath?, run?, force?, provider? }
 *                          → 202 { id, status } and Location; 400 naming the field, 413, 429 + Retry-After;
 *                          `callback_url` (an allowed host) receives the finished job, signed (callback.ts)
 *   GET  /v1/jobs/:id      200 the job: status, stages so far, result (the `generate --json` document)
 *   GET  /v1/jobs/:id/events  text/event-stream: every stage (`event: stage`, id = its number), then
 *                          `event: result` with the finished job, then the stream ends. Last-Event-ID
 *                          resumes after that stage.
 *   DELETE /v1/jobs/:id    200 the job, failed as cancelled: a queued one never starts, a running one
 *                          is stopped wherever it runs; 404 unknown, 409 already finished
 *   POST /v1/batch         { requests: [generate request, …] } → 202 { batch, done, scenarios } and Location:
 *                          one job per request not accepted before (http/batches.ts); 400 naming the field
 *   GET  /v1/batches/:id   200 the batch: each scenario's job and status; once all finished, `result` (the
 *                          `generate --plan --json` document, recorded for `scribe report`)
 *   GET  /v1/stats         200 the `stats --json` document
 *   GET  /report           200 the HTML report (`scribe report`)
 *
 * The jobs and batches live in a JobBackend (backend.ts): this process by default, or a shared queue (src/queue/).
 *
 * Every route but /healthz needs `Authorization: Bearer $SCRIBE_API_TOKEN` when a token is set. Without a
 * token, every route but /healthz answers 403 to a browser (an Origin header) and to a Host not of this machine.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ServerConfig } from '../config/server.ts';
import type { JobView } from '../contracts.ts';
import type { ProjectContext } from '../project/context.ts';
import { BackendUnavailable, type DrainSummary, type JobBackend } from './backend.ts';
import { checkBearer, openRequestRefusal } from '../endpoint/auth.ts';
import { createBatchTracker } from './batches.ts';
import { callbackSecret, checkCallbackUrl } from './callback.ts';
import { readJsonBody } from '../endpoint/body.ts';
import { HttpError } from '../endpoint/errors.ts';
import { reportHtml } from '../report/report.ts';
import { InProcessJobs } from './in-process.ts';
import { isFinished } from './jobs.ts';
import type { LogSink } from '../endpoint/log.ts';
import { checkedSpecTarget } from '../endpoint/paths.ts';
import { generateBodyJsonSchema, parseBatchBody, parseGenerateBody } from './schema.ts';
import { requestItems } from '../workflow/batch.ts';

export interface AppOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  /** The project, read once: every job's spec must land inside its output folder. */
  project: ProjectContext;
  /** The bearer token every route but /healthz needs; undefined leaves them open (loopback only). */
  token: string | undefined;
  log: LogSink;
  /** Where jobs live and run; default: this process (InProcessJobs). */
  backend?: JobBackend;
}

export interface ScribeApp {
  handle(req: IncomingMessage, res: ServerResponse): void;
  backend: JobBackend;
  /** Refuses new jobs from now on and settles every job (see JobBackend.shutdown). */
  shutdown(graceMs: number): Promise<DrainSummary>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | { stream: (res: ServerResponse) => void };

/** What a request's log line says beyond method, path and status. */
interface RequestNotes {
  job?: string;
}

const JOB_PATH = /^\/v1\/jobs\/([0-9a-f-]{36})(\/events)?$/;
const BATCH_PATH = /^\/v1\/batches\/([0-9a-f-]{36})$/;

export function createApp(options: AppOptions): ScribeApp {
  const { config, log } = options;
  const backend = options.backend ?? new InProcessJobs({ cwd: options.cwd, env: options.env, config, log });
  const secret = callbackSecret(options.env);
  const limits = { maxDescriptionChars: config.http.max_description_chars, maxFieldChars: config.http.max_field_chars };
  const batches = createBatchTracker({ backend, project: options.project, workers: config.jobs.concurrency });
  let closing = false;

  const generate = async (req: IncomingMessage, notes: RequestNotes): Promise<Answer> => {
    if (closing) throw unavailable(config);
    const body = await readJsonBody(req, config.http.max_body_bytes);
    const { callback_url: callbackUrl, ...request } = parseGenerateBody(body, limits);
    // Relative to the project: a worker on another machine has the same project in another folder.
    const outputPath = path.relative(options.project.cwd, checkedSpecTarget(options.project, request));
    const callback = callbackUrl === undefined ? undefined : checkCallbackUrl(callbackUrl, config.callbacks, secret);
    const outcome = await backend.submit({ request: { ...request, outputPath }, callback, owner: ownerOf(req) });
    if (!outcome.accepted) {
      if (outcome.reason === 'closed') throw unavailable(config);
      throw new HttpError(429, 'queue_full', `${config.jobs.max_queued} jobs are already waiting; try again later`, { headers: { 'retry-after': String(config.jobs.retry_after_s) } });
    }
    notes.job = outcome.job.id;
    return { status: 202, body: { id: outcome.job.id, status: outcome.job.status }, headers: { location: `/v1/jobs/${outcome.job.id}` } };
  };

  const batch = async (req: IncomingMessage): Promise<Answer> => {
    if (closing) throw unavailable(config);
    const { requests } = parseBatchBody(await readJsonBody(req, config.http.max_body_bytes), limits, config.jobs.max_queued);
    const view = await batches.submit(requestItems(requests), ownerOf(req));
    return { status: 202, body: view, headers: { location: `/v1/batches/${view.batch}` } };
  };

  const job = async (req: IncomingMessage, id: string, events: boolean): Promise<Answer> => {
    allow(req, events ? ['GET', 'HEAD'] : ['GET', 'HEAD', 'DELETE']);
    const notFound = () => new HttpError(404, 'job_not_found', `no job ${id} (finished jobs are kept for ${config.jobs.retention_ms} ms)`);
    if (req.method === 'DELETE') {
      const outcome = await backend.cancel(id);
      if (outcome.cancelled) return { status: 200, body: outcome.job };
      if (outcome.reason === 'unknown') throw notFound();
      throw new HttpError(409, 'job_finished', `job ${id} has already finished (${outcome.job?.status})`);
    }
    if (events) {
      // Watching before reading: a stage that lands in between is in the job read, or reaches the watcher.
      const stream = await openStream(req, backend, id);
      if (!stream) throw notFound();
      return { stream };
    }
    const found = await backend.get(id);
    if (!found) throw notFound();
    return { status: 200, body: found };
  };

  const route = async (req: IncomingMessage, path: string, notes: RequestNotes): Promise<Answer> => {
    if (path === '/healthz') {
      allow(req, ['GET', 'HEAD']);
      if (closing) return { status: 503, body: { status: 'shutting_down' } };
      const { ok, ...health } = await backend.health();
      return ok ? { status: 200, body: { status: 'ok', ...health } } : { status: 503, body: { status: 'queue_unreachable', ...health } };
    }
    const refusal = openRequestRefusal(req.headers, options.token);
    if (refusal !== undefined) throw new HttpError(403, 'forbidden', refusal);
    authorize(req, options.token);
    if (path === '/v1/generate') {
      allow(req, ['POST']);
      return generate(req, notes);
    }
    if (path === '/v1/generate/schema') {
      allow(req, ['GET', 'HEAD']);
      return { status: 200, body: generateBodyJsonSchema(limits) };
    }
    if (path === '/v1/batch') {
      allow(req, ['POST']);
      return batch(req);
    }
    const batchPath = BATCH_PATH.exec(path);
    if (batchPath) {
      allow(req, ['GET', 'HEAD']);
      const found = await batches.get(batchPath[1]!);
      if (!found) throw new HttpError(404, 'batch_not_found', `no batch ${batchPath[1]} (a batch is kept as long as finished jobs, jobs.retention_ms)`);
      return { status: 200, body: found };
    }
    if (path === '/v1/stats') {
      allow(req, ['GET', 'HEAD']);
      return { status: 200, body: await backend.stats() };
    }
    if (path === '/report') {
      allow(req, ['GET', 'HEAD']);
      const html = reportHtml({ cwd: options.cwd, env: options.env, specRoots: [options.project.outputDir] });
      return { stream: (res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'" }).end(req.method === 'HEAD' ? undefined : html) };
    }
    const jobPath = JOB_PATH.exec(path);
    if (jobPath) {
      notes.job = jobPath[1]!;
      return job(req, jobPath[1]!, jobPath[2] !== undefined);
    }
    throw new HttpError(404, 'not_found', `no route ${path}`);
  };

  return {
    backend,
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
          if (error instanceof BackendUnavailable) {
            log({ level: 'error', msg: 'queue unavailable', method: req.method, path, error: error.message });
            return { status: 503, body: { error: 'queue_unavailable', message: error.message }, headers: { 'retry-after': String(config.jobs.retry_after_s) } };
          }
          log({ level: 'error', msg: 'request failed', method: req.method, path, error: error instanceof Error ? error.message : String(error) });
          return { status: 500, body: { error: 'internal_error', message: 'the server failed to answer; see its log' } };
        })
        .then((answer) => ('stream' in answer ? answer.stream(res) : send(res, answer, req.method === 'HEAD')))
        // Writing the answer failed (the client went away mid-stream): logged, and the connection closed, never an
        // unhandled rejection, which would end the server.
        .catch((error: unknown) => {
          log({ level: 'error', msg: 'answer failed', method: req.method, path, error: error instanceof Error ? error.message : String(error) });
          res.destroy();
        });
    },
    async shutdown(graceMs) {
      closing = true;
      return backend.shutdown(graceMs);
    },
  };
}

/** Who sent a request, for per-caller limits: a digest of its bearer token, never the token itself. */
function ownerOf(req: IncomingMessage): string {
  const bearer = /^Bearer[ \t]+(\S+)/i.exec(req.headers.authorization ?? '')?.[1];
  return bearer === undefined ? 'anonymous' : createHash('sha256').update(bearer, 'utf8').digest('hex').slice(0, 16);
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

/**
 * Server-Sent Events of one job: the stages so far (after Last-Event-ID, when a client resumes), each
 * new one as it comes, then the finished job as `result`, and the end of the stream. A client that goes
 * away is simply unsubscribed; the job goes on. Undefined when there is no such job.
 */
async function openStream(req: IncomingMessage, backend: JobBackend, id: string): Promise<((res: ServerResponse) => void) | undefined> {
  const changes: JobView[] = [];
  let deliver: (job: JobView) => void = (job) => changes.push(job);
  const unsubscribe = await backend.watch(id, (job) => deliver(job));
  let job: JobView | undefined;
  try {
    job = await backend.get(id);
  } catch (error) {
    unsubscribe();
    throw error;
  }
  if (!job) {
    unsubscribe();
    return undefined;
  }
  const first = job;
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    const resumeAfter = Number(req.headers['last-event-id']);
    let sent = Number.isInteger(resumeAfter) && resumeAfter > 0 ? Math.min(resumeAfter, first.stages.length) : 0;
    let ended = false;
    const write = (event: string, data: unknown, eventId?: number) => res.write(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const show = (latest: JobView) => {
      if (ended) return;
      latest.stages.slice(sent).forEach((stage, index) => write('stage', stage, sent + index + 1));
      sent = Math.max(sent, latest.stages.length);
      if (!isFinished(latest.status)) return;
      ended = true;
      unsubscribe();
      write('result', latest);
      res.end();
    };
    res.on('close', unsubscribe);
    show(first);
    for (const change of changes.splice(0)) show(change);
    deliver = show;
  };
}

function send(res: ServerResponse, answer: { status: number; body: unknown; headers?: Record<string, string> }, headOnly: boolean): void {
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
