/** `scribe serve`: starts the HTTP API (src/http/app.ts) and stops it gracefully on SIGTERM or SIGINT. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { killDescendants } from './agents/runner/process.ts';
import { removeAbandonedRuns } from './agents/runner/run-folders.ts';
import { runnerFolders } from './config/runner.ts';
import type { ServerConfig } from './config/server.ts';
import { createApp, type ScribeApp } from './http/app.ts';
import { apiToken, isLoopbackHost } from './endpoint/auth.ts';
import type { DrainSummary } from './http/backend.ts';
import type { LogSink } from './endpoint/log.ts';
import { loadProject, type ProjectContext } from './project/context.ts';
import { QueueJobs } from './queue/backend.ts';
import { shownUrl } from './queue/connection.ts';
import { statsHome } from './stats/log.ts';

export interface ServeOptions {
  host: string;
  port: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: LogSink;
  /** agents/server.yaml, loaded; default: the project's (merged over the bundled one). */
  config?: ServerConfig;
  /** The project, read once; default: read from cwd and env. */
  project?: ProjectContext;
  /** A Redis URL: jobs go on the shared queue there (`scribe worker` runs them); default: agents/server.yaml queue.url, else in this process. */
  queue?: string;
}

export interface RunningServer {
  /** http://host:port, with the port actually bound (useful with port 0). */
  url: string;
  port: number;
  app: ScribeApp;
  config: ServerConfig;
  /** Stops taking connections and jobs, lets running jobs finish within the grace period; once. */
  stop(): Promise<DrainSummary>;
  /**
   * For an exit that cannot wait (a second signal): kills the runs under way and removes their folders,
   * at once. Their jobs are reported as interrupted by the next server on this project.
   */
  abandon(): void;
}

/** The server cannot start as asked: a public address without a token, a port in use, … (exit 2). */
export class ServeSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServeSetupError';
  }
}

/** How often header and request timeouts are checked: they hold to within this. */
const CONNECTIONS_CHECK_MS = 250;

/** Whether the server may listen where it is asked, before anything starts: a public address needs a token. */
export function checkServeAddress(host: string, env: NodeJS.ProcessEnv): void {
  if (apiToken(env) === undefined && !isLoopbackHost(host)) {
    throw new ServeSetupError(`refusing to listen on ${host} without SCRIBE_API_TOKEN: anyone who can reach it could generate and write specs; set a token or listen on 127.0.0.1`);
  }
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  checkServeAddress(options.host, options.env);
  const token = apiToken(options.env);
  const project = options.project ?? (await loadProject({ cwd: options.cwd, env: options.env }));
  const config = options.config ?? project.agents.server;
  for (const warning of project.warnings) options.log({ level: 'warn', msg: warning });
  // A server stopped hard (a kill) leaves its runs' folders: they go now.
  const runsDir = runnerFolders(project.agents.runner, statsHome(options.env, options.cwd)).temp;
  removeAbandonedRuns(runsDir);
  const queueUrl = options.queue ?? config.queue.url ?? undefined;
  const backend = queueUrl === undefined ? undefined : new QueueJobs({ url: queueUrl, env: options.env, config, log: options.log });
  const app = createApp({ cwd: options.cwd, env: options.env, config, project, token, log: options.log, backend });
  const server = createServer(
    {
      requestTimeout: config.http.request_timeout_ms,
      headersTimeout: config.http.headers_timeout_ms,
      keepAliveTimeout: config.http.keep_alive_timeout_ms,
      // Node checks the two timeouts above only this often (30 s by default): a slow client outlived them by that much.
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    (req, res) => app.handle(req, res),
  );
  try {
    server.listen({ port: options.port, host: options.host, backlog: config.http.listen_backlog });
    await once(server, 'listening');
  } catch (error) {
    throw new ServeSetupError(`cannot listen on ${options.host}:${options.port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  const jobs = queueUrl === undefined ? { concurrency: config.jobs.concurrency } : { queue: shownUrl(queueUrl) };
  options.log({ level: 'info', msg: 'listening', url, auth: token === undefined ? 'none' : 'bearer', ...jobs, max_queued: config.jobs.max_queued });
  if (token === undefined) options.log({ level: 'warn', msg: 'no SCRIBE_API_TOKEN: every route is open to anyone on this machine' });

  let stopping: Promise<DrainSummary> | undefined;
  const stop = async (): Promise<DrainSummary> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const summary = await app.shutdown(config.shutdown.grace_ms);
    // Jobs are settled; callers still holding a keep-alive connection have nothing left to wait for.
    server.closeAllConnections();
    await closed;
    options.log({ level: 'info', msg: 'stopped', ...summary });
    return summary;
  };
  const abandon = () => {
    killDescendants();
    removeAbandonedRuns(runsDir, true);
  };
  return { url, port, app, config, stop: () => (stopping ??= stop()), abandon };
}

/** Resolves once the server has stopped after SIGTERM or SIGINT. A second signal during the grace period exits at once. */
export async function stopOnSignals(server: RunningServer, log: LogSink, signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): Promise<DrainSummary> {
  let first: ((signal: NodeJS.Signals) => void) | undefined;
  const received = new Promise<NodeJS.Signals>((resolve) => {
    first = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (first) {
      first(signal);
      first = undefined;
      return;
    }
    log({ level: 'warn', msg: 'second signal: exiting without waiting for jobs', signal });
    server.abandon();
    process.exit(1);
  };
  for (const name of signals) process.on(name, onSignal);
  try {
    const signal = await received;
    log({ level: 'info', msg: 'shutting down', signal, grace_ms: server.config.shutdown.grace_ms });
    return await server.stop();
  } finally {
    for (const name of signals) process.off(name, onSignal);
  }
}
