import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_PATH } from '../../src/config/server.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { jsonLog } from '../fixtures/json-log.ts';
import { makeScribeProject } from '../fixtures/scribe-project.ts';
import { runCli } from './harness.ts';

const BIN = fileURLToPath(new URL('../../bin/scribe.js', import.meta.url));
const TOKEN = 'serve-test-token-51c0';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

describe('scribe serve: usage', () => {
  it('exits 2 on a bad port, a bad host, a public host without a token, or a port in use', async () => {
    const project = makeScribeProject();
    try {
      const serve = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['serve', ...args], { env, cwd: project.dir });
      for (const port of ['abc', '-1', '65536', '80.5', '']) {
        const run = await serve(['--port', port]);
        expect({ port, code: run.code }).toEqual({ port, code: 2 });
        expect(run.stderr).toContain('--port');
      }
      for (const host of ['bad host', 'http://127.0.0.1', '127.0.0.1/x', '-x']) {
        const run = await serve(['--host', host, '--port', '0']);
        expect({ host, code: run.code }).toEqual({ host, code: 2 });
        expect(run.stderr).toContain('--host');
      }
      const open = await serve(['--host', '0.0.0.0', '--port', '0']);
      expect(open.code).toBe(2);
      expect(open.stderr).toContain('without SCRIBE_API_TOKEN');

      const taken = createServer();
      taken.listen(0, '127.0.0.1');
      await once(taken, 'listening');
      const port = (taken.address() as { port: number }).port;
      const busy = await serve(['--port', String(port)]);
      taken.close();
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain('EADDRINUSE');
    } finally {
      project.remove();
    }
  });
});

describe('scribe serve: SIGTERM', () => {
  it('stops taking work, fails a job that outlives the grace period with the reason, logs JSON without secrets, exits 0', async () => {
    const project = makeScribeProject({ 'provider.request_timeout_ms': 20_000, 'provider.http_retries': 0 });
    const server = parseDocument(readFileSync(DEFAULT_SERVER_PATH, 'utf8'));
    server.setIn(['shutdown', 'grace_ms'], 200);
    writeFileSync(path.join(project.dir, 'agents', 'server.yaml'), server.toString());
    fake.reply({ hang: true });
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: project.dir, env: project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }) });
    try {
      const logs = jsonLog(child);
      const listening = await logs.next('listening');
      const url = String(listening.url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(listening.auth).toBe('bearer');

      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      const accepted = await fetch(`${url}/v1/generate`, { method: 'POST', headers, body: JSON.stringify({ description: 'log in with a wrong password', run: false }) });
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as { id: string };
      await logs.next('job', (entry) => entry.job === id && entry.status === 'running');
      for (let poll = 0; poll < 1000 && fake.requests.length === 0; poll++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(fake.requests).toHaveLength(1);

      child.kill('SIGTERM');
      expect(await logs.next('shutting down')).toMatchObject({ signal: 'SIGTERM', grace_ms: 200 });
      expect(await logs.next('job', (entry) => entry.job === id && entry.status !== 'running')).toMatchObject({
        level: 'warn',
        status: 'failed',
        error: 'the server shut down: the job did not finish within the 200 ms grace period',
      });
      expect(await logs.next('stopped')).toMatchObject({ finished: 0, abandoned: 1, cancelled: 0 });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      // The abandoned job's generation ends once, as interrupted, not as a success nor without an outcome.
      const ended = new StatsLog(project.home).read().filter((e) => e.generation === id && (e.type === 'success' || e.type === 'give_up'));
      expect(ended).toEqual([expect.objectContaining({ type: 'give_up', reason: 'interrupted' })]);
      expect(logs.raw().join('\n')).not.toContain(TOKEN);
      expect(logs.all().every((entry) => typeof entry.time === 'string' && typeof entry.level === 'string')).toBe(true);
    } finally {
      child.kill('SIGKILL');
      project.remove();
    }
  });
});
