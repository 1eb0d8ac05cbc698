/** The real `scribe mcp` CLI, spawned, with the SDK's real client on stdio or on Streamable HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ProgressNotificationSchema, type ClientCapabilities, type Progress } from '@modelcontextprotocol/sdk/types.js';

/** A spec that passes every rule and a real run against the demo app's search page. */
export const DEMO_SEARCH_SPEC = `import { test, expect } from '@playwright/test';

test('search finds the locators guide', async ({ page }) => {
  await test.step('open the search page', async () => {
    await page.goto('/search');
  });
  await test.step('search for locators', async () => {
    await page.getByTestId('search-input').fill('locators');
    await page.getByTestId('search-button').click();
  });
  await test.step('see the result', async () => {
    await expect(page.getByTestId('search-results')).toContainText('Locators and test ids');
    await page.screenshot({ path: 'test-results/search-results.png' });
  });
});
`;

export const CLI = fileURLToPath(new URL('../../bin/scribe.js', import.meta.url));

export interface StdioSession {
  client: Client;
  /** The server process's pid (its descendants are the browsers and Playwright runs it started). */
  pid: number;
  stderr: () => string;
  close(): Promise<void>;
}

export async function connectStdio(options: { cwd: string; env: NodeJS.ProcessEnv; args?: string[]; capabilities?: ClientCapabilities; setup?: (client: Client) => void }): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...(options.args ?? [])], cwd: options.cwd, env: options.env as Record<string, string>, stderr: 'pipe' });
  const errors: Buffer[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => errors.push(chunk));
  const client = new Client({ name: 'scribe-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.setup?.(client);
  await client.connect(transport);
  return { client, pid: transport.pid!, stderr: () => Buffer.concat(errors).toString('utf8'), close: () => client.close() };
}

export interface HttpServerProcess {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `scribe mcp --port 0`: waits for its `listening` log line and reads the URL from it. */
export async function startHttpServer(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--port', '0'], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`scribe mcp --port 0 exited with ${code}`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg: string; url?: string };
      if (entry.msg === 'listening') resolve(entry.url!);
    });
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function connectHttp(url: string, token: string | undefined, capabilities: ClientCapabilities = {}, setup?: (client: Client) => void): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'scribe-test', version: '1.0.0' }, { capabilities });
  setup?.(client);
  await client.connect(transport);
  return client;
}

/** Every process below `pid` (children, grandchildren, …), from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while the table was read.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Every file under `dir` (none when it does not exist), relative to it. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

/** A process's command line ('' once it has ended). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Polls until `predicate` holds, every 100 ms for at most a minute: a browser start on a loaded machine takes a while. */
export async function eventually(predicate: () => boolean, what: string, detail: () => unknown = () => ''): Promise<void> {
  for (let poll = 0; poll < 600; poll++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what} ${JSON.stringify(detail())}`);
}

/**
 * Processes working inside `dir` (their cwd), but `except`: a run's Playwright and the browsers it
 * starts work in the run's folder, and stay found even once orphaned (re-parented away from Scribe).
 */
export function processesIn(dir: string, except: number): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === except) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push({ pid: Number(entry), command: commandLine(Number(entry)) });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Has `client` record every progress notification the server sends, as it arrives, and returns the options of a
 * call that asks for progress. The SDK client hands a notification to `onprogress` a microtask late, after it has
 * dropped the call's progress handler for a response read in the same chunk: under load, `onprogress` can miss
 * the last notification the server sent before its answer.
 */
export function recordingProgress(client: Client, progress: Progress[], timeout: number): RequestOptions {
  client.setNotificationHandler(ProgressNotificationSchema, (notification) => void progress.push(notification.params));
  // A progress handler is what asks the server for progress (a progress token); the notifications are read above.
  return { timeout, onprogress: () => undefined };
}
