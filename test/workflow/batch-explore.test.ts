/**
 * A batch's worker explores the site once (src/workflow/explored-pages.ts through generateSpec's `explored`):
 * on the signed-in suite app, in Chromium, a first generation on /products explores the site; a second on
 * /cart is grounded in those pages with /cart as its start page, and launches no exploration of its own; a
 * third on a page the first did not reach explores again. The model is the scripted one, so its prompts show
 * what each generation was grounded in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/contracts.ts';
import { ExploredPages } from '../../src/workflow/explored-pages.ts';
import { generateSpec } from '../../src/workflow/pipeline.ts';
import { progressReporter } from '../../src/workflow/progress-reporter.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced } from '../fixtures/model-answers.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSignedInSuiteProject } from '../fixtures/suite-project.ts';

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp()]);
  // Two pages at most: /products and the first it links to (/), so /about is left for a later exploration.
  project = makeSignedInSuiteProject(app.url, { 'explore.max_pages': 2 });
});
afterAll(async () => {
  project.remove();
  await Promise.all([fake.close(), app.close()]);
});

const spec = (path: string, testId: string, text: string) => `import { test, expect } from '@playwright/test';

test('shows ${text}', async ({ page }) => {
  await page.goto('${path}');
  await expect(page.getByTestId('${testId}')).toHaveText('${text}');
  await page.screenshot({ path: 'test-results/${testId}.png' });
});
`;

async function generate(explored: ExploredPages, path: string, description: string, answer: string): Promise<{ explore: PipelineEvent[]; prompt: string; success: boolean; signIn: unknown }> {
  fake.requests.length = 0;
  fake.reply({ text: fenced(answer) });
  const events: PipelineEvent[] = [];
  const { document } = await generateSpec(
    { description, url: `${app.url}${path}`, run: false },
    { cwd: project.dir, env: project.env(fake.url), stats: false, explored, reporters: [progressReporter(project.dir, (event) => events.push(event))] },
  );
  const prompt = fake.requests.map((request) => (request.body.messages ?? []).map((m) => m.content).join('\n')).join('\n');
  return { explore: events.filter((event) => event.stage === 'explore'), prompt, success: document.success, signIn: document.sign_in };
}

describe("a batch worker's explored pages", { timeout: 120_000 }, () => {
  it('are explored once and reused for a later start page they include; a page they do not include is explored', async () => {
    const explored = new ExploredPages();
    const first = await generate(explored, '/products', 'open /products and see the heading "Products"', spec('/products', 'products-title', 'Products'));
    expect(first.success).toBe(true);
    expect(first.explore.map((e) => e.message)).toContainEqual(expect.stringMatching(/^found \d+ test ids on 2 pages from /));
    expect(first.signIn).toMatchObject({ method: 'storage_state', explored_behind_login: true });

    const second = await generate(explored, '/', 'open / and see the heading "Welcome, ada"', spec('/', 'welcome', 'Welcome, ada'));
    expect(second.success).toBe(true);
    expect(second.explore.filter((e) => e.status === 'done').map((e) => e.message)).toEqual([`${app.url}/ was explored by an earlier generation of this batch: its 2 pages reused`]);
    expect(second.signIn).toEqual(first.signIn);
    // Grounded with its own page first and the first generation's other page after it.
    const start = second.prompt.indexOf(`at ${app.url}/\n`);
    const other = second.prompt.indexOf('Other pages of the site');
    expect(start).toBeGreaterThan(-1);
    expect(other).toBeGreaterThan(start);
    expect(second.prompt.slice(other)).toContain('product-list');

    const third = await generate(explored, '/about', 'open /about and see the heading "About the shop"', spec('/about', 'about-title', 'About the shop'));
    expect(third.success).toBe(true);
    expect(third.explore.map((e) => e.message)).toContainEqual(expect.stringMatching(/^found \d+ test ids on 2 pages from .*\/about$/));
  });
});
