/**
 * The HTTP API of `scribe serve` on node:http (DESIGN.md):
 *
 *   GET  /healthz          200 { status: 'ok' } (503 while shutting down); no token needed
 *   POST /v1/generate      { description, feature?, url?, complexity?, outputPath?, run?, force?, provider? }
 *                          → 202 { id, status } and Location; 400 naming the field, 413, 429 + Retry-After;
 *                          `callback_url` (an allowed host) receives the finished job, signed (callback.ts)
 *   GET  /v1/jobs/:id      200 the job: status, stages so far, result (the `generate --json` document)
 *   GET  /v1/jobs/:id/events  text/event-stream: every stage (`event: stage`, id = its number), then
 *                          `event: result` with the finished job, then the stream ends. Last-Event-ID
 *                          resumes after that stage.
 *   GET  /v1/stats         200 the `stats --json` document
 *   GET  /report           200 the HTML report (`scribe report`)
 *
 * Every route but /healthz needs `Authorization: Bearer $SCRIBE_API_TOKEN` when a token is set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ServerConfig } from '../config/server.ts';
import type { JobView } from '../contracts.ts';
import type { ProjectContext } from '../project/context.ts';
import { readStats } from '../stats/index.ts';
import { statsHome, StatsLog } from '../stats/log.ts';
import { OneOutcomeSink } from '../stats/outcome.ts';
import { checkBearer } from './auth.ts';
import { callbackSecret, checkCallbackUrl, deliverCallback } from './callback.ts';
import { readJsonBody } from './body.ts';
import { HttpError } from './errors.ts';
import { reportHtml } from '../report/report.ts';
import { JobEvents } from './job-events.ts';
import { JobStore } from './job-store.ts';
import { isFinished, JobQueue, type DrainSummary } from './jobs.ts';
import type { LogSink } from './log.ts';
import { checkedSpecTarget } from './paths.ts';
import { parseGenerateBody } from './schema.ts';
import { JobThreads } from './threads.ts';

export interface AppOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  /** The project, read once: every job's spec must land inside its output folder. */
  project: ProjectContext;
  /** The bearer token every route but /healthz needs; undefined leaves them open (loopback only). */
  token: string | undefined;
  log: LogSink;
}

export interface ScribeApp {
  handle(req: IncomingMessage, res: ServerResponse): void;
  jobs: JobQueue;
  /** Live stage streams (GET /v1/jobs/:id/events). */
  events: JobEvents;
  /** Refuses new jobs from now on, settles every job (see JobQueue.drain), and stops the worker threads. */
  shutdown(graceMs: number): Promise<DrainSummary>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | { stream: (res: ServerResponse) => void };

/** What a request's log line says beyond method, path and status. */
interface RequestNotes {
  job?: string;
}

const JOB_PATH = /^\/v1\/jobs\/([0-9a-f-]{36})(\/events)?$/;

export function createApp(options: AppOptions): ScribeApp {
  const { config, log } = options;
  const events = new JobEvents();
  const stats = OneOutcomeSink.resuming(StatsLog.at(options.env, options.cwd));
  /** Callback URLs of jobs not finished yet, by job id. */
  const callbacks = new Map<string, URL>();
  const deliveries = new Set<Promise<boolean>>();
  const stopDeliveries = new AbortController();
  const secret = callbackSecret(options.env);
  const onFinished = (job: JobView) => {
    events.end(job);
    const url = callbacks.get(job.id);
    if (!url) return;
    callbacks.delete(job.id);
    const delivery = deliverCallback({ url, body: JSON.stringify(job), secret: secret!, settings: config.callbacks, log, job: job.id, signal: stopDeliveries.signal });
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  };
  const jobs = new JobQueue(
    { concurrency: config.jobs.concurrency, maxQueued: config.jobs.max_queued, retentionMs: config.jobs.retention_ms, maxRetained: config.jobs.max_retained },
    (job) => {
      logJob(job, log);
      if (!isFinished(job.status)) return;
      // A started job whose pipeline gave no result (aborted at shutdown, its worker died) ends its generation here.
      if (job.started_at !== null && job.result === undefined) stats.giveUp(job.id, closing ? 'interrupted' : 'error', job.error ?? 'the job ended without an outcome');
      onFinished(job);
    },
    new JobStore(path.join(statsHome(options.env, options.cwd), 'jobs')),
  );
  // Jobs a stopped server was running end their generations now, if nothing recorded an outcome for them.
  for (const job of jobs.recover()) if (job.started_at !== null) stats.giveUp(job.id, 'interrupted', job.error ?? 'the server stopped');
  const threads = new JobThreads(options.env);
  let closing = false;

  const generate = async (req: IncomingMessage, notes: RequestNotes): Promise<Answer> => {
    if (closing) throw unavailable(config);
    const body = await readJsonBody(req, config.http.max_body_bytes);
    const { callback_url: callbackUrl, ...request } = parseGenerateBody(body, { maxDescriptionChars: config.http.max_description_chars, maxFieldChars: config.http.max_field_chars });
    const outputPath = checkedSpecTarget(options.project, request);
    const callback = callbackUrl === undefined ? undefined : checkCallbackUrl(callbackUrl, config.callbacks, secret);
    // The job's id is known once submit returns; its first stage comes later, from its worker thread.
    let id = '';
    const outcome = jobs.submit((job) =>
      threads.run(
        { request: { ...request, outputPath }, cwd: options.cwd, generation: job.id },
        {
          onEvent: (event) => {
            job.onEvent(event);
            events.stage(id, event);
          },
          stats,
        },
        job.signal,
      ),
    );
    if (!outcome.accepted) {
      if (outcome.reason === 'closed') throw unavailable(config);
      throw new HttpError(429, 'queue_full', `${config.jobs.max_queued} jobs are already waiting; try again later`, { headers: { 'retry-after': String(config.jobs.retry_after_s) } });
    }
    id = outcome.job.id;
    if (callback) callbacks.set(id, callback);
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
    if (path === '/report') {
      allow(req, ['GET', 'HEAD']);
      const html = reportHtml({ cwd: options.cwd, env: options.env, specRoots: [options.project.outputDir] });
      return { stream: (res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'" }).end(req.method === 'HEAD' ? undefined : html) };
    }
    const jobPath = JOB_PATH.exec(path);
    if (jobPath) {
      allow(req, ['GET', 'HEAD']);
      notes.job = jobPath[1]!;
      const job = jobs.get(jobPath[1]!);
      if (!job) throw new HttpError(404, 'job_not_found', `no job ${jobPath[1]} (finished jobs are kept for ${config.jobs.retention_ms} ms)`);
      if (jobPath[2]) return { stream: (res) => streamJob(job, events, req, res) };
      return { status: 200, body: job };
    }
    throw new HttpError(404, 'not_found', `no route ${path}`);
  };

  return {
    jobs,
    events,
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
        .then((answer) => ('stream' in answer ? answer.stream(res) : send(res, answer, req.method === 'HEAD')));
    },
    async shutdown(graceMs) {
      closing = true;
      const summary = await jobs.drain(graceMs);
      await threads.close(config.shutdown.abort_ms);
      // Callbacks of the last jobs get the abort wait too, then stop trying.
      await settleWithin([...deliveries], config.shutdown.abort_ms);
      stopDeliveries.abort();
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

/**
 * Server-Sent Events of one job: the stages so far (after Last-Event-ID, when a client resumes), each
 * new one as it comes, then the finished job as `result`, and the end of the stream. A client that goes
 * away is simply unsubscribed; the job goes on.
 */
function streamJob(job: JobView, events: JobEvents, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const resumeAfter = Number(req.headers['last-event-id']);
  let sent = Number.isInteger(resumeAfter) && resumeAfter > 0 ? Math.min(resumeAfter, job.stages.length) : 0;
  const write = (event: string, data: unknown, id?: number) => res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const finish = (finished: JobView) => {
    write('result', finished);
    res.end();
  };
  job.stages.slice(sent).forEach((stage, index) => write('stage', stage, sent + index + 1));
  sent = job.stages.length;
  if (isFinished(job.status)) return finish(job);
  const unsubscribe = events.subscribe(job.id, (signal) => {
    if (signal.type === 'end') return finish(signal.job);
    sent += 1;
    write('stage', signal.event, sent);
  });
  res.on('close', unsubscribe);
}

/** Waits for every promise to settle, or for `ms`, whichever comes first. */
async function settleWithin(promises: ReadonlyArray<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), deadline]);
  clearTimeout(timer);
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

function logJob(job: JobView, log: LogSink): void {
  const finished = isFinished(job.status);
  log({
    level: job.status === 'failed' ? 'warn' : 'info',
    msg: 'job',
    job: job.id,
    status: job.status,
    ...(finished ? { ms: Date.parse(job.finished_at!) - Date.parse(job.created_at), exit_code: job.exit_code ?? null } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
  });
}
