import { request } from 'node:http';
import { CreateMessageRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerateToolResult, ValidateReport } from '../../src/contracts.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { BAD_SPEC, GOOD_SPEC, chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { TOKEN } from '../http/harness.ts';
import { connectHttp, recordingProgress, startHttpServer, type HttpServerProcess } from './harness.ts';

let fake: FakeOpenAI;
let project: ScribeProject;
let server: HttpServerProcess;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  project = makeScribeProject();
  server = await startHttpServer({ cwd: project.dir, env: project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }) });
}, 60_000);
afterAll(async () => {
  await server.stop();
  await fake.close();
  project.remove();
});

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('scribe mcp --port (Streamable HTTP, the SDK client)', { timeout: 120_000 }, () => {
  it('answers 401 without the bearer token or with a wrong one, and the SDK client cannot connect', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token']) {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="scribe"/);
      expect((await response.json()).error).toBe('unauthorized');
    }
    await expect(connectHttp(server.url, undefined)).rejects.toThrow(/401|unauthorized/i);
  });

  it('refuses a Host that is not this machine (a DNS-rebound web page), token or not', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      const body = JSON.stringify(initialize);
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: `attacker.example:${url.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('with the token: lists the tools, validates a bad spec, generates with the scripted model', async () => {
    const client = await connectHttp(server.url, TOKEN);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['generate_batch', 'generate_test', 'heal_spec', 'run_spec', 'validate_spec', 'validation_stats']);
      const bad = await client.callTool({ name: 'validate_spec', arguments: { code: BAD_SPEC } });
      expect(ValidateReport.parse(bad.structuredContent).summary.errors).toBeGreaterThan(0);

      fake.reply({ text: chatty(GOOD_SPEC) });
      const progress: Progress[] = [];
      const result = await client.callTool({ name: 'generate_test', arguments: { description: 'search for milk', feature: 'Search', run: false } }, undefined, recordingProgress(client, progress, 120_000));
      const steps = progress.map((p) => p.message!);
      expect(GenerateToolResult.parse(result.structuredContent)).toMatchObject({ success: true, provider: 'openai', testPath: 'generated-tests/search/search-for-milk.spec.ts' });
      expect(steps[0]).toMatch(/^scribe started: attempt 1\/3/);
      expect(steps.at(-1)).toMatch(/^write done: wrote generated-tests\/search\/search-for-milk\.spec\.ts/);

      const escape = await client.callTool({ name: 'generate_test', arguments: { description: 'x', feature: '/etc' } });
      expect(escape.isError).toBe(true);
      expect(JSON.stringify(escape.content)).toContain('feature: must be a name, not a path');
    } finally {
      await client.close();
    }
  });

  it('sampling over HTTP: with no model configured, the host model answers through the session', async () => {
    const bare = await startHttpServer({ cwd: project.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home, SCRIBE_API_TOKEN: TOKEN } });
    const client = await connectHttp(bare.url, TOKEN, { sampling: {} }, (c) =>
      c.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'host-model-2', role: 'assistant', content: { type: 'text', text: chatty(GOOD_SPEC) } })),
    );
    try {
      const result = await client.callTool({ name: 'generate_test', arguments: { description: 'search for bread', feature: 'Search', run: false } }, undefined, { timeout: 120_000 });
      expect(GenerateToolResult.parse(result.structuredContent)).toMatchObject({ success: true, provider: 'mcp', testPath: 'generated-tests/search/search-for-bread.spec.ts' });
    } finally {
      await client.close();
      await bare.stop();
    }
  });
});
