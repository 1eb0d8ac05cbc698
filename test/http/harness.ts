/** A real `scribe serve` app on a free loopback port, in-process, with its log lines kept for assertions. */
import { request as httpRequest } from 'node:http';
import { loadServerConfig, type ServerConfig } from '../../src/config/server.ts';
import type { JobView } from '../../src/contracts.ts';
import { InProcessJobs } from '../../src/http/in-process.ts';
import type { JobEvents } from '../../src/http/job-events.ts';
import type { JobQueue } from '../../src/http/jobs.ts';
import type { LogEntry } from '../../src/endpoint/log.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

export const TOKEN = 'test-token-9f3c1e';

export interface TestServer extends RunningServer {
  logs: LogEntry[];
  /** The in-process backend's queue and stage streams. */
  jobs: JobQueue;
  events: JobEvents;
  /** fetch on the server with the right token unless told otherwise (null: no Authorization header). */
  call(method: string, path: string, options?: { body?: unknown; raw?: string; token?: string | null }): Promise<{ status: number; headers: Headers; json: any }>;
  /** Polls a job until it is done or failed (bounded: a job that never settles fails the test). */
  settled(id: string): Promise<JobView>;
}

/** The bundled agents/server.yaml with some values replaced, e.g. { jobs: { concurrency: 1 } }. */
export function serverConfig(overrides: { jobs?: Partial<ServerConfig['jobs']>; http?: Partial<ServerConfig['http']>; shutdown?: Partial<ServerConfig['shutdown']>; queue?: Partial<ServerConfig['queue']> } = {}): ServerConfig {
  const base = loadServerConfig();
  return {
    ...base,
    jobs: { ...base.jobs, ...overrides.jobs },
    http: { ...base.http, ...overrides.http },
    shutdown: { ...base.shutdown, ...overrides.shutdown },
    queue: { ...base.queue, ...overrides.queue },
  };
}

export async function startTestServer(cwd: string, env: NodeJS.ProcessEnv, config: ServerConfig = serverConfig()): Promise<TestServer> {
  const logs: LogEntry[] = [];
  const server = await startServer({ host: '127.0.0.1', port: 0, cwd, env, config, log: (entry) => logs.push(entry) });
  const call: TestServer['call'] = async (method, path, options = {}) => {
    const token = options.token === undefined ? TOKEN : options.token;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
  };
  const settled = async (id: string): Promise<JobView> => {
    for (let poll = 0; poll < 1200; poll++) {
      const { json } = await call('GET', `/v1/jobs/${id}`);
      if (json.status === 'done' || json.status === 'failed') return json as JobView;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`job ${id} did not settle`);
  };
  const backend = server.app.backend;
  if (!(backend instanceof InProcessJobs)) throw new Error('startTestServer runs the in-process backend');
  return Object.assign(server, { logs, call, settled, jobs: backend.queue, events: backend.events });
}

/** Polls until `predicate` holds (bounded), for states reached by another party: a job running, a request seen. */
export async function until(predicate: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let poll = 0; poll < 1200; poll++) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * POSTs a body of `bytes` bytes with node:http, declared (Content-Length) or chunked. Resolves with the
 * status and how many bytes had been handed to the socket when the answer came: a server that stops
 * reading answers long before the client has sent everything.
 */
export function postLarge(url: string, bytes: number, declared: boolean): Promise<{ status: number; sentWhenAnswered: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    if (declared) headers['content-length'] = String(bytes);
    const req = httpRequest(`${url}/v1/generate`, { method: 'POST', headers });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
    });
    // Writing on after the server closed the connection fails; only a missing answer is an error.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered) req.end();
    };
    write();
  });
}
