/**
 * The MCP `heal_spec` tool through the real `scribe mcp` (stdio, the SDK's client): a spec a renamed
 * test id broke is healed from the scripted model's answer, in place, its assertion intact.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealSuiteResult } from '../../src/heal/result.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced } from '../fixtures/model-answers.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSuiteProject } from '../fixtures/suite-project.ts';
import { connectStdio } from './harness.ts';

const SEARCH = `import { test, expect } from '@playwright/test';

test('finds milk', async ({ page }) => {
  await page.goto('/search');
  await page.getByTestId('search-input').fill('milk');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-results')).toContainText('Milk');
});
`;
const HEALED = SEARCH.replace("'search-button'", "'search-submit'");

let fake: FakeOpenAI;
let app: SuiteApp;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp({ version: 2 })]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});

describe('MCP heal_spec', { timeout: 300_000 }, () => {
  it('heals a folder of specs and answers with the heal --json document; a path outside the project is a tool error', async () => {
    const project = makeSuiteProject(app.url, { 'e2e/search.spec.ts': SEARCH });
    const session = await connectStdio({ cwd: project.dir, env: project.env(fake.url) });
    try {
      const outside = await session.client.callTool({ name: 'heal_spec', arguments: { path: '../elsewhere' } });
      expect(outside.isError).toBe(true);
      expect(JSON.stringify(outside.content)).toContain('path');

      fake.reply({ text: fenced(HEALED) });
      const answer = await session.client.callTool({ name: 'heal_spec', arguments: { path: 'e2e' } }, undefined, { timeout: 280_000 });
      expect(answer.isError).toBe(false);
      const result = HealSuiteResult.parse(answer.structuredContent);
      expect(result.specs).toEqual([expect.objectContaining({ file: 'e2e/search.spec.ts', status: 'healed', written: true, model_calls: 1 })]);
      expect(readFileSync(path.join(project.dir, 'e2e', 'search.spec.ts'), 'utf8')).toBe(HEALED);
      expect(fake.pending()).toBe(0);
    } finally {
      await session.close();
      project.remove();
    }
  });
});
