/**
 * `scribe generate` with the proof run, through the real CLI, the fake model and the demo app in a real
 * Chromium: a good answer is accepted on one model call; a vacuous one (it asserts what the page shows
 * before anything is done) goes back to the model with the proof's feedback, and is never accepted.
 */
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenerateResult } from '../../src/contracts.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { StatsEvent } from '../../src/stats/events.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { FAKE_BWRAP_ERROR, fakeBwrap } from '../fixtures/fake-bwrap.ts';
import { chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { runCli, type CliRun } from './harness.ts';

const DESCRIPTION = 'search for locators and see the result';

const SEARCH = (assertion: string) => `import { test, expect } from '@playwright/test';

test('search finds the locators page', async ({ page }) => {
  await page.goto('/search.html');
  await page.getByTestId('search-input').fill('locators');
  await page.getByTestId('search-button').click();
  ${assertion}
  await page.screenshot({ path: 'test-results/search.png' });
});
`;
const GOOD = SEARCH("await expect(page.getByTestId('search-result')).toHaveText('Locators and test ids');");
/** What a lazy model writes: it searches, then checks the heading that was there all along. */
const VACUOUS = SEARCH("await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');");

/** A spec that opens a post and checks its comments: nothing to do, so nothing to prove. */
const LOOKS = `import { test, expect } from '@playwright/test';

test('the post shows its 2 comments', async ({ page }) => {
  await page.goto('/post');
  await expect(page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Comments' }).getByRole('listitem')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/post.png' });
});
`;

let fake: FakeOpenAI;
let app: DemoApp;
let project: ScribeProject;
async function generate(): Promise<CliRun> {
  const run = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/search.html`, '--feature', 'Search', '--json'], { env: project.env(fake.url), cwd: project.dir });
  if (run.code === 2) console.error(run.stdout, run.stderr);
  return run;
}

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startDemoApp()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});
beforeEach(() => {
  fake.requests.length = 0;
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

function statsEvents(): StatsEvent[] {
  const file = path.join(project.home, 'events.jsonl');
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => StatsEvent.parse(JSON.parse(line)));
}

// Each generation drives a browser through explore and runs; a shared machine makes that slow.
describe('scribe generate: the proof run', { timeout: 300_000 }, () => {
  it('accepts a good answer on one model call, its proof in the result and the statistics', async () => {
    project = makeScribeProject();
    fake.reply({ text: chatty(GOOD) });
    const run = await generate();
    const result = GenerateResult.parse(JSON.parse(run.stdout));
    expect(run.code).toBe(0);
    expect(result.runner?.proof).toMatchObject({ verdict: 'proved', actions: ["page.getByTestId('search-input').fill('locators')", "page.getByTestId('search-button').click()"] });
    expect(fake.requests).toHaveLength(1);
    expect(statsEvents().filter((e) => e.type === 'runner_outcome')).toMatchObject([{ classification: 'pass', proof: 'proved' }]);
  });

  it('says on the terminal and in the statistics when a run went without the OS sandbox, and why', async () => {
    project = makeScribeProject();
    const bwrap = fakeBwrap();
    try {
      fake.reply({ text: chatty(GOOD) });
      const run = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/search.html`, '--feature', 'Search'], { env: { ...project.env(fake.url), PATH: bwrap.path }, cwd: project.dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`ran without the OS sandbox: bwrap failed: ${FAKE_BWRAP_ERROR}`);
      expect(statsEvents().filter((e) => e.type === 'runner_outcome')).toMatchObject([{ classification: 'pass', os_sandbox: false }]);
      const stats = await runCli(['stats', '--json'], { env: project.env(fake.url), cwd: project.dir });
      expect(JSON.parse(stats.stdout)).toMatchObject({ runner_runs: 1, runner_runs_without_os_sandbox: 1 });
    } finally {
      bwrap.remove();
    }
  });

  it('sends a vacuous answer back with what the proof run showed; the next, proved, is accepted', async () => {
    project = makeScribeProject();
    fake.reply({ text: chatty(VACUOUS) }, { text: chatty(GOOD) });
    const run = await generate();
    expect(run.code).toBe(0);
    expect(fake.requests).toHaveLength(2);
    const feedback = fake.requests[1]!.body.messages!.at(-1)!.content;
    expect(feedback).toContain('[proof-run]');
    expect(feedback).toContain("your assertions pass even when `page.getByTestId('search-input').fill('locators')` and `page.getByTestId('search-button').click()` are never done");
    expect(readFileSync(path.join(project.dir, GenerateResult.parse(JSON.parse(run.stdout)).testPath!), 'utf8')).toBe(GOOD);
    expect(statsEvents().filter((e) => e.type === 'runner_outcome').map((e) => e.type === 'runner_outcome' && e.proof)).toEqual(['unproved', 'proved']);
  });

  it('sends back, before anything runs, a vacuous spec that tells its proof copy apart by outputPath or asserts on chance; the next, proved, is accepted', async () => {
    project = makeScribeProject();
    // Each can fail in the copy alone, so the proof would take it for proof: the copy's output folder is another
    // (Playwright's trimmed folder name carries a hash of the test file's name: '-bea5d-' is the spec's), and a coin lands either way.
    const tellsCopy = SEARCH("await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');\n  expect(test.info().outputPath('a.png')).toContain('-bea5d-');");
    const chance = SEARCH("await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');\n  expect(Math.random()).toBeLessThan(0.5);");
    fake.reply({ text: chatty(tellsCopy) }, { text: chatty(chance) }, { text: chatty(GOOD) });
    const run = await generate();
    expect(run.code).toBe(0);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[1]!.body.messages!.at(-1)!.content).toContain("[allowed-paths] line 8: testInfo.outputPath() is used here as a value, not as a file's path");
    expect(fake.requests[2]!.body.messages!.at(-1)!.content).toContain('[no-chance-decisions] line 8: Math.random() changes from run to run, and here it is what an assertion checks');
    // The gate sent both back: only the good spec was run.
    expect(statsEvents().filter((e) => e.type === 'runner_outcome')).toMatchObject([{ classification: 'pass', proof: 'proved' }]);
    expect(readFileSync(path.join(project.dir, GenerateResult.parse(JSON.parse(run.stdout)).testPath!), 'utf8')).toBe(GOOD);
  });

  it('keeps a spec that stays vacuous for review, never accepted (exit 1)', async () => {
    project = makeScribeProject({ 'generation.max_critic_rejections': 1 });
    fake.reply({ text: chatty(VACUOUS) }, { text: chatty(VACUOUS) });
    const run = await generate();
    expect(run.code).toBe(1);
    const result = GenerateResult.parse(JSON.parse(run.stdout));
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^not proved: your assertions pass even when/);
    const folder = path.join(project.dir, 'generated-tests', 'search');
    expect(readdirSync(folder).filter((name) => name.endsWith('.spec.ts'))).toEqual([]);
    expect(existsSync(path.join(folder, 'search-for-locators-and-see-the-result.needs-review.ts'))).toBe(true);
  });

  it('does not run a spec that signs in with a credential that is not set: an environment problem, one model call, nothing accepted', async () => {
    project = makeScribeProject();
    const login = `import { test, expect } from '@playwright/test';

test('log in', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard-heading')).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard.png' });
});
`;
    fake.reply({ text: chatty(login) });
    const run = await runCli(['generate', 'log in and see the dashboard', '--url', `${app.url}/login`, '--feature', 'Login', '--json'], { env: project.env(fake.url, { E2E_USERNAME: 'demo', E2E_PASSWORD: '' }), cwd: project.dir });
    expect(run.code).toBe(1);
    const result = GenerateResult.parse(JSON.parse(run.stdout));
    expect(result.runner).toMatchObject({ classification: 'environment', error_message: expect.stringMatching(/^E2E_PASSWORD is not set; the spec signs in with it/) });
    expect(result.error).toContain('E2E_PASSWORD is not set');
    expect(fake.requests).toHaveLength(1);
    const folder = path.join(project.dir, 'generated-tests', 'login');
    expect(readdirSync(folder).filter((name) => name.endsWith('.spec.ts'))).toEqual([]);
    expect(existsSync(path.join(folder, 'log-in-and-see-the-dashboard.not-run.ts'))).toBe(true);
  });

  it("does not call the offline generator's smoke test proved when the request asks for something it does not do", async () => {
    project = makeScribeProject();
    const run = await runCli(['generate', 'download the PDF from the search page', '--url', `${app.url}/search.html`, '--feature', 'Search', '--provider', 'offline'], { env: project.env(fake.url), cwd: project.dir });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('not the requested test');
    expect(run.stderr).toContain('not proved: the spec does nothing the request asks (download)');
    expect(run.stderr).not.toContain('nothing to prove');
    expect(fake.requests).toHaveLength(0);
  });

  it('sends back a spec that leaves out what the request expects, naming it, before anything runs; the next, covering it, is accepted', async () => {
    project = makeScribeProject();
    const todo = (assertion: string) => `import { test, expect } from '@playwright/test';

test('complete a todo', async ({ page }) => {
  await page.goto('/todos.html');
  await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).getByTestId('todo-toggle').check();
  ${assertion}
  await page.screenshot({ path: 'test-results/todos.png' });
});
`;
    const covering = todo("await expect(page.getByTestId('todo-count')).toHaveText('1 item left');");
    fake.reply({ text: chatty(todo("await expect(page.getByTestId('todos-heading')).toBeVisible();")) }, { text: chatty(covering) });
    // As a person sees it: the terminal's lines, the spec's path on stdout.
    const run = await runCli(['generate', 'complete the "Buy milk" todo and see "1 item left"', '--url', `${app.url}/todos.html`, '--feature', 'Todos'], { env: project.env(fake.url), cwd: project.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(fake.requests).toHaveLength(2);
    const feedback = fake.requests[1]!.body.messages!.at(-1)!.content;
    // The finding is the whole spec's: no line is named.
    expect(feedback).toContain('- [request-coverage]: the request expects "1 item left" but no assertion checks it');
    expect(run.stderr).toContain('rejected: 1 error-level problem\n- [request-coverage]: the request expects "1 item left"');
    expect(run.stderr).not.toContain('rejected: rejected');
    expect(run.stderr).toContain("the Critic sent the spec back with its findings (send-back 1 of at most 3; Scribe's attempts start again)");
    // The Critic sent it back: only the covering spec was run.
    expect(statsEvents().filter((e) => e.type === 'runner_outcome')).toMatchObject([{ classification: 'pass', proof: 'proved' }]);
    expect(readFileSync(path.join(project.dir, run.stdout.trim()), 'utf8')).toBe(covering);
  });

  it('accepts on its one call a request that only looks, though its nouns are spelled like verbs ("the post", "2 comments"): nothing to prove', async () => {
    const blog = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end('<!doctype html><title>Post</title><h1>Hello world</h1><h2>Comments (2)</h2><ul aria-label="Comments"><li>First!</li><li>Nice post</li></ul>');
    });
    blog.listen(0, '127.0.0.1');
    await once(blog, 'listening');
    try {
      project = makeScribeProject();
      const url = `http://127.0.0.1:${(blog.address() as AddressInfo).port}`;
      fake.reply({ text: chatty(LOOKS) });
      const run = await runCli(['generate', 'open the post and see its 2 comments', '--url', `${url}/post`, '--feature', 'Blog', '--json'], { env: project.env(fake.url), cwd: project.dir });
      const result = GenerateResult.parse(JSON.parse(run.stdout));
      expect(result).toMatchObject({ success: true, runner: { classification: 'pass', proof: { verdict: 'no_actions' } } });
      expect(run.code).toBe(0);
      expect(fake.requests).toHaveLength(1);
    } finally {
      blog.close();
    }
  });
});
