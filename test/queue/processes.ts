/**
 * Real `scribe serve --queue` and `scribe worker` processes for the queue's tests and benches, each
 * with its JSON log lines kept, and a project whose agents/server.yaml has the given queue settings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { DEFAULT_SERVER_PATH } from '../../src/config/server.ts';
import type { JobView } from '../../src/contracts.ts';

const BIN = fileURLToPath(new URL('../../bin/scribe.js', import.meta.url));

export interface ScribeProcess {
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the first log line (past or future) that `match` accepts. */
  line(match: (entry: Record<string, unknown>) => boolean, what: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGTERM (or the given signal), then the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Writes the project's agents/server.yaml: the bundled one with these key paths replaced, e.g. { 'queue.lock_ms': 3000 }. */
export function writeServerSettings(projectDir: string, settings: Record<string, unknown>): void {
  const doc = parseDocument(readFileSync(DEFAULT_SERVER_PATH, 'utf8'));
  for (const [key, value] of Object.entries(settings)) doc.setIn(key.split('.'), value);
  writeFileSync(path.join(projectDir, 'agents', 'server.yaml'), doc.toString());
}

export function startScribe(args: string[], cwd: string, env: NodeJS.ProcessEnv): ScribeProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      logs.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      logs.push({ msg: 'not json', text });
    }
    for (const wake of [...waiters]) wake();
  });
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const line: ScribeProcess['line'] = (match, what, timeoutMs = 240_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`never logged: ${what} (scribe ${args[0]}; stderr: ${stderr.slice(-2000)})`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  const stop: ScribeProcess['stop'] = async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const [code] = await exited;
    return code;
  };
  return { child, logs, line, stop };
}

/** A `scribe serve --queue` on a free loopback port: its base URL once it listens. */
export async function startApi(queueUrl: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ScribeProcess & { url: string }> {
  const api = startScribe(['serve', '--port', '0', '--queue', queueUrl], cwd, env);
  const listening = await api.line((entry) => entry.msg === 'listening', 'listening');
  return Object.assign(api, { url: listening.url as string });
}

export async function startWorker(queueUrl: string, cwd: string, env: NodeJS.ProcessEnv, concurrency = 1): Promise<ScribeProcess> {
  const worker = startScribe(['worker', '--queue', queueUrl, '--concurrency', String(concurrency)], cwd, env);
  await worker.line((entry) => entry.msg === 'worker started', 'worker started');
  return worker;
}

/** fetch on an API node with the bearer token. */
export async function call(base: string, token: string, method: string, route: string, body?: unknown): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

/** Polls a job on an API node until it has finished (bounded). */
export async function settled(base: string, token: string, id: string, polls = 2400): Promise<JobView> {
  for (let poll = 0; poll < polls; poll++) {
    const { status, json } = await call(base, token, 'GET', `/v1/jobs/${id}`);
    if (status === 200 && (json.status === 'done' || json.status === 'failed')) return json as JobView;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`job ${id} did not finish`);
}
