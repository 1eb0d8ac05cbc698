/**
 * The commands that serve until they are stopped (`serve`, `mcp`, `worker`), in a user's Playwright project
 * whose app only runs through the config's webServer: the app is started (or reused) before the first job can
 * come, as `generate` starts it, its jobs explore and run against it, and it is stopped once the serving has
 * ended; an app that cannot start is exit 1 with nothing served.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answers, freePort } from '../fixtures/closed-url.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { runCli } from './harness.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(repoRoot, 'bin', 'scribe.js');

const APP = `const http = require('node:http');
http.createServer((req, res) => {
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><title>Shop</title><h1 data-test="title">Welcome</h1><button data-test="buy">Buy</button>');
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

let dir: string;
let url: string;
let redis: RedisServer;
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: '', BASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
});

/** The project: its app answers only once the config's webServer (`command`) has started it. */
async function project(command = 'node app.cjs'): Promise<void> {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-serving-project-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'app.cjs'), APP);
  writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './e2e',
  use: { baseURL: '${url}', testIdAttribute: 'data-test' },
  webServer: { command: ${JSON.stringify(command)}, url: '${url}', env: { PORT: '${port}' }, timeout: 20000 },
});
`,
  );
  mkdirSync(path.join(dir, 'e2e'));
}
beforeEach(() => project());
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { cwd: dir, env: env() });
}

/** The child's stdout as JSON log entries, in order; `until` waits for one with that msg. */
function logOf(child: ChildProcessWithoutNullStreams) {
  const entries: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    entries.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  return {
    entries,
    async until(msg: string): Promise<Record<string, unknown>> {
      for (;;) {
        const found = entries.find((entry) => entry.msg === msg);
        if (found) return found;
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        if (await Promise.race([more.then(() => false), exited.then(() => true)])) throw new Error(`exited before logging "${msg}"; stderr: ${stderr}`);
      }
    },
  };
}

async function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe("the serving commands start the Playwright config's webServer", () => {
  it('serve: the app is up before it listens, a job generates and runs green against it, and SIGTERM stops both', async () => {
    expect(await answers(url)).toBe(false);
    const child = start(['serve', '--port', '0']);
    try {
      const log = logOf(child);
      const listening = await log.until('listening');
      const messages = log.entries.map((entry) => entry.msg);
      expect(messages.indexOf(`started the app (node app.cjs) at ${url}`)).toBeGreaterThanOrEqual(0);
      expect(messages.indexOf(`started the app (node app.cjs) at ${url}`)).toBeLessThan(messages.indexOf('listening'));
      expect(await answers(url)).toBe(true);

      const accepted = await fetch(`${String(listening.url)}/v1/generate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: 'see the title "Welcome"', provider: 'offline' }) });
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as { id: string };
      let job: { status: string; result?: { success: boolean; runner: { classification: string } | null } } = { status: 'queued' };
      for (let poll = 0; poll < 600 && (job.status === 'queued' || job.status === 'running'); poll++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = (await (await fetch(`${String(listening.url)}/v1/jobs/${id}`)).json()) as typeof job;
      }
      expect(job).toMatchObject({ status: 'done', result: { success: true, runner: { classification: 'pass' } } });

      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('mcp over stdio: the app answers while it serves and is stopped when its input ends; what the start says goes to stderr', async () => {
    const child = start(['mcp']);
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      for (let poll = 0; poll < 300 && !stderr.includes('started the app'); poll++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stderr).toContain(`scribe: started the app (node app.cjs) at ${url}`);
      expect(await answers(url)).toBe(true);
      child.stdin.end();
      expect(await exitCode(child)).toBe(0);
      // stdout is the protocol's: nothing of the app's start is written there.
      expect(stdout).toBe('');
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('worker: the app is up while it takes jobs from the queue, and stopped once it has drained, even when stopped as it starts', async () => {
    const child = start(['worker', '--queue', redis.url]);
    try {
      const log = logOf(child);
      await log.until('worker started');
      expect(log.entries.map((entry) => entry.msg)).toContain(`started the app (node app.cjs) at ${url}`);
      // At once: a worker stopped while its connections were still opening died of the signal, or of a subscribe refused as they closed.
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      expect(log.entries.map((entry) => entry.msg)).toContain('stopped');
      expect(await answers(url)).toBe(false);
      const again = start(['worker', '--queue', redis.url]);
      const second = logOf(again);
      await second.until('worker started');
      expect(await answers(url)).toBe(true);
      again.kill('SIGTERM');
      expect(await exitCode(again)).toBe(0);
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('serve: an app that cannot start is exit 1 naming it, and nothing listens', async () => {
    rmSync(dir, { recursive: true, force: true });
    await project('node -e "process.exit(3)"');
    const run = await runCli(['serve', '--port', '0'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('scribe: the app could not be started');
    expect(run.stdout).not.toContain('"listening"');
  }, 60_000);
});
