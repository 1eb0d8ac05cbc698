/**
 * The library's one call, as the README shows it: Scribe.execute runs the whole pipeline (Scribe, the
 * Critic, the Runner with Chromium against the demo app on 127.0.0.1), and writes a spec only once it is
 * accepted. The model is scripted, through the real openai client.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { provenancePath, Provenance } from '../src/store/spec-files.ts';
import { startDemoApp, type DemoApp } from '../src/demo-app/server.ts';
import { Scribe } from '../src/index.ts';
import { loadProject } from '../src/project/context.ts';
import { StatsLog } from '../src/stats/log.ts';
import { startFakeOpenAI, type FakeOpenAI } from './fixtures/fake-openai.ts';
import { fenced } from './fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from './fixtures/scribe-project.ts';

/** The demo app's search finds two of its docs for "playwright". */
const searchSpec = (results: number) => `import { test, expect } from '@playwright/test';

test('search finds the docs', async ({ page }) => {
  await test.step('open the search page', async () => {
    await page.goto('/search');
  });
  await test.step('search for playwright', async () => {
    await page.getByTestId('search-input').fill('playwright');
    await page.getByTestId('search-button').click();
  });
  await test.step('see the results', async () => {
    await expect(page.getByTestId('search-status')).toHaveText('${results} results for "playwright"');
    await page.screenshot({ path: test.info().outputPath('results.png') });
  });
});
`;
const TASK = { taskDescription: 'search for playwright and see results', featureName: 'Search' };

let fake: FakeOpenAI;
let app: DemoApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startDemoApp()]);
});
afterAll(() => Promise.all([fake.close(), app.close()]));
// Each case has its own project (agents/, SCRIBE_HOME, generated-tests/).
beforeEach(() => {
  project = makeScribeProject();
});
afterEach(() => project.remove());

const target = () => path.join(project.dir, 'generated-tests', 'search', 'search-for-playwright-and-see-results.spec.ts');

describe('Scribe.execute', { timeout: 120_000 }, () => {
  it('runs the whole pipeline: the Critic approves, the Runner runs the spec green, and only then is it written', async () => {
    fake.reply({ text: fenced(searchSpec(2)) });
    const env = project.env(fake.url);
    const loaded = await loadProject({ cwd: project.dir, env });
    const scribe = new Scribe({ cwd: project.dir, env, config: loaded.agents.scribe, critic: loaded.agents.critic, offline: loaded.agents.offline });
    const result = await scribe.execute({ ...TASK, url: app.url });

    expect(result).toMatchObject({ success: true, data: { testPath: target() }, metadata: { attemptsUsed: 1, finalIssues: [], exitCode: 0 } });
    expect(result.metadata.critic).toMatchObject({ status: 'approved' });
    expect(result.metadata.runner).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(readFileSync(target(), 'utf8')).toBe(searchSpec(2));
    const provenance = Provenance.parse(JSON.parse(readFileSync(provenancePath(target()), 'utf8')));
    expect(provenance).toMatchObject({ status: 'accepted', critic: { status: 'approved' }, runner: { classification: 'pass' } });
    const recorded = new StatsLog(project.home).read().map((e) => e.type);
    expect(recorded).toEqual(expect.arrayContaining(['critic_verdict', 'runner_outcome', 'success']));
  });

  it('does not write where it was asked a spec whose run fails: it is kept for review and the result says why', async () => {
    fake.reply({ text: fenced(searchSpec(3)) });
    const context = await loadProject({ cwd: project.dir, env: project.env(fake.url, { BASE_URL: app.url }) });
    const result = await new Scribe({ project: context }).execute(TASK);

    expect(result.success).toBe(false);
    expect(result.metadata).toMatchObject({ attemptsUsed: 1, exitCode: 1, critic: { status: 'approved' }, runner: { classification: 'app_bug' } });
    expect(result.error).toMatch(/possible regression/);
    expect(existsSync(target())).toBe(false);
    const kept = result.data?.testPath as string;
    expect(path.basename(kept)).toBe('search-for-playwright-and-see-results.needs-review.ts');
    expect(readFileSync(kept, 'utf8')).toBe(searchSpec(3));
  });
});
