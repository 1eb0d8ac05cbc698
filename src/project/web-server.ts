/**
 * The Playwright config's `webServer`, started the way `npx playwright test` starts it: the command in a
 * shell from its cwd with its env, ready when its url answers (or its port accepts connections), reused
 * when something already answers and reuseExistingServer allows it, and stopped (its whole process group)
 * afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebServer } from './playwright.ts';

/** Playwright's own default for webServer.timeout. */
const DEFAULT_TIMEOUT_MS = 60_000;
const POLL_MS = 150;
const STOP_GRACE_MS = 3_000;

export class WebServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebServerError';
  }
}

export interface StartedServers {
  /** What happened to each server, for progress: started or reused. */
  notes: string[];
  stop(): Promise<void>;
}

/** Starts each server in turn; one that fails, or cancellation while waiting, stops those already started before it throws. */
export async function startWebServers(servers: readonly WebServer[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<StartedServers> {
  const started: ChildProcess[] = [];
  const notes: string[] = [];
  const stop = async () => {
    await Promise.all(started.map(stopProcess));
  };
  try {
    for (const server of servers) {
      const target = server.url ?? `port ${server.port}`;
      if (await answers(server)) {
        if (!server.reuseExistingServer) {
          throw new WebServerError(`${target} is already used, make sure there is no server running there or set webServer.reuseExistingServer to true in the Playwright config`);
        }
        notes.push(`reusing the app already running at ${target}`);
        continue;
      }
      const child = spawn(server.command, { shell: true, cwd: server.cwd, env: { ...env, ...server.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      started.push(child);
      await waitUntilReady(server, child, signal);
      notes.push(`started the app (${server.command}) at ${target}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { notes, stop };
}

async function waitUntilReady(server: WebServer, child: ChildProcess, signal: AbortSignal | undefined): Promise<void> {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + (server.timeout || DEFAULT_TIMEOUT_MS);
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (exited !== undefined) throw new WebServerError(`the webServer command \`${server.command}\` exited (code ${exited}) before the app answered${output.trim() ? `:\n${output.trim()}` : ''}`);
    if (await answers(server)) return;
    await sleep(POLL_MS);
  }
  throw new WebServerError(`the app did not answer at ${server.url ?? `port ${server.port}`} within ${server.timeout || DEFAULT_TIMEOUT_MS} ms of \`${server.command}\``);
}

/** As Playwright decides: a url answering with a status below 404, or a port accepting a connection. */
function answers(server: WebServer): Promise<boolean> {
  if (server.url) return urlAnswers(server.url);
  if (server.port) return portAccepts(server.port);
  return Promise.resolve(false);
}

function urlAnswers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const send = url.startsWith('https:') ? requestTls : request;
    const req = send(url, { method: 'GET', timeout: 2_000, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 404);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  signalGroup('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!stopped) {
    signalGroup('SIGKILL');
    await exited;
  }
}
