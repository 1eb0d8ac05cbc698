/**
 * The MCP `generate_batch` tool through the real `scribe mcp` (stdio, the SDK's client) with a scripted model:
 * its input is the request contract's MCP fields as a list; it answers with the `generate --plan --json`
 * document, reports progress per request, and a second call skips what the first accepted.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchResult, readBatches } from '../../src/workflow/batch.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty, GOOD_SPEC } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { connectStdio, recordingProgress } from './harness.ts';

let fake: FakeOpenAI;
let project: ScribeProject;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  project = makeScribeProject({});
});
afterAll(async () => {
  await fake.close();
  project.remove();
});

const REQUESTS = [
  { description: 'search for milk and see it in the results', feature: 'search', run: false },
  { description: 'search for milk and see milk listed among the results', feature: 'search', run: false },
];

describe('MCP generate_batch', { timeout: 300_000 }, () => {
  it('generates every request, reports progress per request, and skips them all the second time; a bad field is a tool error naming it', async () => {
    const session = await connectStdio({ cwd: project.dir, env: project.env(fake.url) });
    try {
      const tool = (await session.client.listTools()).tools.find((t) => t.name === 'generate_batch')!;
      const item = (tool.inputSchema.properties as { requests: { items: { properties: object } } }).requests.items;
      expect(Object.keys(item.properties).sort()).toEqual(['complexity', 'description', 'feature', 'run', 'url']);

      const bad = await session.client.callTool({ name: 'generate_batch', arguments: { requests: [{ description: 'a', outputPath: '/etc/x.spec.ts' }] } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('outputPath');

      // Both generations run at once: every call gets the same good answer, whatever its order.
      fake.answerBy(() => ({ text: chatty(GOOD_SPEC) }));
      const notified: Progress[] = [];
      const answer = await session.client.callTool({ name: 'generate_batch', arguments: { requests: REQUESTS } }, undefined, recordingProgress(session.client, notified, 280_000));
      const progress = notified.map((p) => p.message ?? '');
      expect(answer.isError).toBe(false);
      const result = BatchResult.parse(answer.structuredContent);
      expect(result, JSON.stringify(result.scenarios.map((s) => s.error))).toMatchObject({ plan: 'mcp generate_batch', success: true, summary: { scenarios: 2, accepted: 2, skipped: 0, failed: 0 } });
      for (const scenario of result.scenarios) expect(existsSync(path.join(project.dir, scenario.testPath!))).toBe(true);
      expect(progress.filter((m) => /^request \d\/2 started/.test(m))).toHaveLength(2);
      expect(progress.filter((m) => /^request \d\/2 accepted/.test(m))).toHaveLength(2);

      const calls = fake.requests.length;
      const again = BatchResult.parse((await session.client.callTool({ name: 'generate_batch', arguments: { requests: REQUESTS } })).structuredContent);
      expect(again.summary).toMatchObject({ accepted: 0, skipped: 2 });
      expect(fake.requests).toHaveLength(calls);
      expect(readBatches(project.home)).toHaveLength(2);
    } finally {
      await session.close();
    }
  });
});
