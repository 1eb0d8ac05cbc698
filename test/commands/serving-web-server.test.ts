/**
 * The commands that serve until they are stopped (`serve`, `mcp`, `worker`), in a user's Playwright project
 * whose app only runs through the config's webServer: the app is started (or reused) before the first job can
 * come, as `generate` starts it, its jobs explore and run against it, and it is stopped once the serving has
 * ended; an app that cannot start is exit 1 with nothing served. `mcp` over stdio answers its host's handshake
 * while the app starts, and its jobs wait for the app. And a command that does one piece of work
 * (`plan`, `run`, `eval`), stopped while the app starts, and `run` stopped while its spec runs, leave no app running.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answers } from '../fixtures/closed-url.ts';
import { jsonLog } from '../fixtures/json-log.ts';
import { startRedis, type RedisServer } from '../fixtures/redis-server.ts';
import { webServerProject, type WebServerProject } from '../fixtures/web-server-project.ts';
import { connectStdio } from '../mcp/harness.ts';
import { runCli } from './harness.ts';

const BIN = fileURLToPath(new URL('../../bin/scribe.js', import.meta.url));

let project: WebServerProject;
let url: string;
let redis: RedisServer;
const TITLE_SPEC = "import { test, expect } from '@playwright/test';\ntest('title', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Welcome');\n});\n";
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: '', BASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
});
beforeEach(async () => {
  project = await webServerProject();
  ({ url } = project);
});
afterEach(() => project.remove());

function start(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { cwd: project.dir, env: env() });
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
      const log = jsonLog(child);
      const listening = await log.next('listening');
      const messages = log.all().map((entry) => entry.msg);
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

  it('mcp over stdio answers the handshake while a slow app starts; a generation waits for the app and runs green', async () => {
    project.remove();
    project = await webServerProject('node late-app.cjs');
    ({ url } = project);
    // The app answers 4 s after it starts: the host's handshake does not wait for it.
    writeFileSync(path.join(project.dir, 'late-app.cjs'), "setTimeout(() => require('./app.cjs'), 4000);\n");
    const session = await connectStdio({ cwd: project.dir, env: env() });
    try {
      // Connected (initialize answered) before the app is up, not after.
      expect(await answers(url)).toBe(false);
      const result = await session.client.callTool({ name: 'generate_test', arguments: { description: 'see the title "Welcome"', provider: 'offline' } }, undefined, { timeout: 120_000 });
      expect(result.structuredContent).toMatchObject({ success: true, runner: { classification: 'pass' } });
      expect(session.stderr()).toContain(`scribe: started the app (node late-app.cjs) at ${url}`);
    } finally {
      await session.close();
    }
    for (let poll = 0; poll < 100 && (await answers(url)); poll++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await answers(url)).toBe(false);
  }, 120_000);

  it('mcp over stdio: an app that cannot start ends the serving, exit 1 naming it', async () => {
    project.remove();
    project = await webServerProject('node -e "process.exit(3)"');
    const child = start(['mcp']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', () => undefined);
    try {
      expect(await exitCode(child)).toBe(1);
      expect(stderr).toContain('scribe: the app could not be started');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('worker: the app is up while it takes jobs from the queue, and stopped once it has drained, even when stopped as it starts', async () => {
    const child = start(['worker', '--queue', redis.url]);
    try {
      const log = jsonLog(child);
      await log.next('worker started');
      expect(log.all().map((entry) => entry.msg)).toContain(`started the app (node app.cjs) at ${url}`);
      // At once: a worker stopped while its connections were still opening died of the signal, or of a subscribe refused as they closed.
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      expect(log.all().map((entry) => entry.msg)).toContain('stopped');
      expect(await answers(url)).toBe(false);
      const again = start(['worker', '--queue', redis.url]);
      await jsonLog(again).next('worker started');
      expect(await answers(url)).toBe(true);
      again.kill('SIGTERM');
      expect(await exitCode(again)).toBe(0);
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('serve: an address it would refuse is refused (exit 2) before the app is started for it', async () => {
    const run = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { cwd: project.dir, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('without SCRIBE_API_TOKEN');
    expect(run.stdout).not.toContain('started the app');
  }, 60_000);

  it('serve: an app that cannot start is exit 1 naming it, and nothing listens', async () => {
    project.remove();
    project = await webServerProject('node -e "process.exit(3)"');
    const run = await runCli(['serve', '--port', '0'], { cwd: project.dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('scribe: the app could not be started');
    expect(run.stdout).not.toContain('"listening"');
  }, 60_000);

  /** Waits until `ready` holds, then `afterMs` more, then sends the command SIGINT: its exit code. */
  async function interruptWhen(child: ChildProcessWithoutNullStreams, ready: () => boolean, afterMs: number): Promise<number | null> {
    child.stderr.on('data', () => undefined);
    child.stdout.on('data', () => undefined);
    for (let poll = 0; poll < 500 && !ready(); poll++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ready()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    child.kill('SIGINT');
    return exitCode(child);
  }

  // Each command that does one piece of work, stopped while the app starts: before, plan, run and eval died of
  // the signal and left the app (in a process group of its own) running.
  it.each([
    { command: 'plan', args: ['plan'] },
    { command: 'run', args: ['run', 'e2e/title.spec.ts'] },
    { command: 'eval', args: ['eval', 'requests.yaml'] },
  ])('$command: a Ctrl-C while the app starts stops its start and leaves no app running (exit 130)', async ({ args }) => {
    project.remove();
    project = await webServerProject('node late-app.cjs');
    ({ url } = project);
    // The app says it is starting, then answers 3 s later: long enough to be stopped while it starts.
    const starting = path.join(project.dir, 'starting');
    writeFileSync(path.join(project.dir, 'late-app.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(starting)}, '');\nsetTimeout(() => require('./app.cjs'), 3000);\n`);
    writeFileSync(path.join(project.dir, 'e2e', 'title.spec.ts'), TITLE_SPEC);
    writeFileSync(path.join(project.dir, 'requests.yaml'), 'requests:\n  - description: see the title "Welcome"\n');
    const child = start(args);
    try {
      expect(await interruptWhen(child, () => existsSync(starting), 300)).toBe(130);
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('run: a Ctrl-C while the spec runs stops Playwright, then the app (exit 130)', async () => {
    writeFileSync(path.join(project.dir, 'e2e', 'slow.spec.ts'), "import { test } from '@playwright/test';\ntest('waits', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForTimeout(30_000);\n});\n");
    const child = start(['run', 'e2e/slow.spec.ts']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      // Stopped once the app is up and Playwright has had time to start.
      expect(await interruptWhen(child, () => stderr.includes('started the app'), 2000)).toBe(130);
      expect(await answers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
