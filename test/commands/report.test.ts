/**
 * `scribe report` opened in the real Chromium: a generation (scripted model, run green against the suite
 * app, its screenshot kept) and a batch in the statistics; the page shows the request, loads the
 * screenshot inlined, links the run's kept trace, draws the charts, and asks nothing of the network.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchOptions } from '../../src/explore/browser.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty } from '../fixtures/model-answers.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSuiteProject } from '../fixtures/suite-project.ts';
import { readTrace, screencastFrames, snapshottedActions } from '../fixtures/trace.ts';
import { runCli } from './harness.ts';

const REQUEST = 'search for milk and see it in the results';
const SPEC = `import { test, expect } from '@playwright/test';

test('search finds milk', async ({ page }) => {
  await test.step('open the search page', async () => {
    await page.goto('/search');
  });
  await test.step('search for milk', async () => {
    await page.getByTestId('search-input').fill('milk');
    await page.getByTestId('search-submit').click();
  });
  await test.step('see the result', async () => {
    await expect(page.getByTestId('search-results')).toContainText('Milk');
    await page.screenshot({ path: 'test-results/search-results.png' });
  });
});
`;

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp({ version: 2 })]);
  project = makeSuiteProject(app.url, {});
});
afterAll(async () => {
  project.remove();
  await Promise.all([fake.close(), app.close()]);
});

describe('scribe report', { timeout: 300_000 }, () => {
  it('is one self-contained page: each request with its verdict and spec, its screenshot loaded, the charts drawn, no network', async () => {
    fake.reply({ text: chatty(SPEC) }, { text: chatty('no code, sorry') }, { text: 'still none' }, { text: 'none' });
    const accepted = await runCli(['generate', REQUEST, '--url', `${app.url}/search`, '--json'], { env: project.env(fake.url), cwd: project.dir });
    expect(JSON.parse(accepted.stdout), accepted.stdout).toMatchObject({ success: true });
    const failed = await runCli(['generate', 'open the invoices and see the total', '--url', `${app.url}/about`, '--no-run', '--json'], { env: project.env(fake.url), cwd: project.dir });
    expect(failed.code, failed.stderr).toBe(1);

    const run = await runCli(['report', '--out', 'out/report.html'], { env: project.env(fake.url), cwd: project.dir });
    expect(run.code).toBe(0);
    const file = path.join(project.dir, 'out', 'report.html');
    expect(readFileSync(file, 'utf8')).not.toMatch(/(src|href)="https?:/);

    const browser = await chromium.launch(launchOptions());
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(file).href);
      const accepted = page.locator('article.request', { hasText: REQUEST });
      expect(await accepted.getByRole('heading', { name: REQUEST }).isVisible()).toBe(true);
      const acceptedText = await accepted.innerText();
      expect(acceptedText).toContain('accepted');
      expect(acceptedText).toContain('attempt 1: passed every rule');
      const shot = accepted.locator('img.shot');
      expect(await shot.count()).toBe(1);
      expect(await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await accepted.locator('summary').click();
      expect(await accepted.locator('pre code').innerText()).toContain("getByTestId('search-submit')");
      // The run's trace is kept and linked, with the command that opens it; it recorded the spec's actions.
      const traceCommand = await accepted.locator('code', { hasText: 'npx playwright show-trace' }).innerText();
      const trace = traceCommand.replace('npx playwright show-trace ', '');
      expect(await accepted.getByRole('link', { name: 'trace.zip' }).getAttribute('href')).toBe(pathToFileURL(trace).href);
      // Each action with the DOM snapshots show-trace renders for it; no screencast (artifacts.trace_screenshots is off).
      // The page before and at each action; the one after a click that submits may be skipped while the page navigates.
      const recorded = readTrace(trace);
      const actions = snapshottedActions(recorded).filter((action) => action.method !== 'expect');
      const withSnapshots = (snapshots: string[]) => expect.arrayContaining(snapshots) as unknown as string[];
      expect(actions).toEqual([
        { method: 'fill', selector: 'internal:testid=[data-testid="search-input"s]', snapshots: withSnapshots(['action', 'before']) },
        { method: 'click', selector: 'internal:testid=[data-testid="search-submit"s]', snapshots: withSnapshots(['action', 'before']) },
      ]);
      expect(screencastFrames(recorded)).toBe(0);

      // A generation that wrote nothing has no provenance record: it is shown by its id, with why it gave up.
      const gaveUp = await page.locator('article.request', { hasText: 'max_retries' }).innerText();
      expect(gaveUp).toMatch(/^generation [0-9a-f]{8}/);
      expect(gaveUp).toContain('no-code-block');

      expect(await page.getByRole('img', { name: 'First-attempt pass rate' }).locator('circle').count()).toBeGreaterThan(0);
      expect(await page.getByRole('img', { name: 'Issues by rule' }).textContent()).toContain('no-code-block');
      expect(requested.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
