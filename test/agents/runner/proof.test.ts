/**
 * The proof run against the demo app, with Playwright's real CLI and a real Chromium: a spec whose
 * assertions depend on its actions is proved; one whose assertions hold without them is not, whatever it
 * does before its last navigation; one that does nothing after it has no proof to give.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { chromium } from '@playwright/test';
import { runSpec } from '../../../src/agents/runner.ts';
import { readPlaywrightReport, testsOf, type PlaywrightReport } from '../../../src/agents/runner/playwright-report.ts';
import { splitReport } from '../../../src/agents/runner/proof.ts';
import { RUN_FOLDER_VARIABLE } from '../../../src/agents/runner/run-folder/scribe-run.ts';
import { createWorkspace, resolvePlaywright } from '../../../src/agents/runner/workspace.ts';
import { neutraliseActions } from '../../../src/analysis/neutralise.ts';
import { loadRunnerConfig } from '../../../src/config/runner.ts';
import { launchOptions } from '../../../src/explore/browser.ts';
import { startDemoApp, type DemoApp } from '../../../src/demo-app/server.ts';
import { startLateContentApp, type LateContentApp } from '../../fixtures/late-content-app.ts';
import { GOOD_SPEC } from '../../fixtures/model-answers.ts';
import { bundledRunTarget } from '../../fixtures/run-target.ts';

let app: DemoApp;
let project: string;

beforeAll(async () => {
  app = await startDemoApp();
});
afterAll(() => app.close());
beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'scribe-proof-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const run = (specText: string) => runSpec({ specText, fileName: 'case.spec.ts', baseURL: app.url, cwd: project, proof: {}, untrusted: true, ...bundledRunTarget() });

/** Signs in on the demo app's login page (a fill of a credential variable and its submit), then opens the search page: the way there, not the actions under test. */
const SIGNED_IN_SEARCH = `import { test, expect } from '@playwright/test';

test('search', async ({ page }) => {
  await page.goto('/login.html');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('login-button').click();
  await page.goto('/search.html');
  await page.getByTestId('search-input').fill('playwright');
  await page.getByTestId('search-button').click();
  ASSERTION
});
`;

describe('the proof run', { timeout: 180_000 }, () => {
  it('proves a spec whose assertion fails without its actions, and keeps its own verdict green', async () => {
    const report = await run(GOOD_SPEC.replace("'/search'", "'/search.html'").replaceAll('search-submit', 'search-button').replace("fill('milk')", "fill('locators')").replace("toContainText('milk')", "toContainText('Locators and test ids')"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('proved');
    expect(report.proof?.actions).toEqual(["page.getByTestId('search-input').fill('locators')", "page.getByTestId('search-button').click()"]);
  });

  it('refuses a spec that asserts what the page shows before any action, even after signing in first', async () => {
    const report = await run(SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
    expect(report.proof?.actions).toEqual(["page.getByTestId('search-input').fill('playwright')", "page.getByTestId('search-button').click()"]);
    expect(report.proof?.message).toMatch(/pass even when .*search-button.* never done/);
    expect(report.proof?.line).toBe(8);
  });

  it('proves the same signed-in spec once it asserts what searching changes', async () => {
    const report = await run(SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-status')).toHaveText('2 results for \"playwright\"');"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('proved');
  });

  it('does not take a check the test moves on from for proof: it must end on what its actions change', async () => {
    // The status depends on the search, but the spec then reloads the page and ends on its heading, which holds without it.
    const report = await run(
      SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-status')).toHaveText('2 results for \"playwright\"');\n  await page.reload();\n  await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');"),
    );
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
    expect(report.proof?.message).toMatch(/^your last assertions pass even when .*search-button.* never done/);
    expect(report.proof?.message).toContain('the check at line 10, which the test moves on from, does not count');
  });

  it('gives no proof, without running a copy, for actions retried inside an assertion: the copy would retry no-ops until the test limit', async () => {
    const report = await run(`import { test, expect } from '@playwright/test';

test('search', async ({ page }) => {
  await page.goto('/search.html');
  await expect(async () => {
    await page.getByTestId('search-input').fill('playwright');
    await page.getByTestId('search-button').click();
    await expect(page.getByTestId('search-status')).toHaveText('2 results for "playwright"', { timeout: 1000 });
  }).toPass();
});
`);
    expect(report.classification).toBe('pass');
    expect(report.proof).toMatchObject({ verdict: 'inconclusive', line: 6 });
    expect(report.proof?.message).toContain('are retried inside the assertion at line 5');
    // The run held the spec alone: no copy's test was run beside it.
    expect(report.segment?.content).toMatch(/Running 1 test using 1 worker/);
  });

  it("lets a spec read nothing of TestInfo or the browser that differs in its copy: asserting all of it, a vacuous spec stays unproved", async () => {
    // The spec's own values, each asserted: had the copy any other, it would fail there and pass as proved.
    const report = await run(
      SIGNED_IN_SEARCH.replace(
        'ASSERTION',
        [
          "await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');",
          'const info = test.info();',
          "  expect(info.title).toBe('search');",
          '  expect(info.timeout).toBe(30_000);',
          '  expect(info.retry).toBe(0);',
          "  expect(info.status).toBe('passed');",
          "  expect(info.expectedStatus).toBe('passed');",
          '  expect(info.annotations).toEqual([]);',
          '  expect(info.tags).toEqual([]);',
          '  expect(page.context().browser()!.contexts()).toHaveLength(1);',
          '  expect(page.context().pages()).toHaveLength(1);',
          '  expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });',
          // The copy's expect and matchers are Playwright's own, as the spec's: the same source text as any other.
          "  expect(String(expect).includes('[native code]')).toBe(false);",
          '  expect(String(expect(page).toHaveURL)).toBe(String(expect(1).toBe));',
          "  expect(String(expect(page.getByTestId('search-heading')).toHaveText)).toBe(String(expect(1).toBe));",
        ].join('\n'),
      ),
    );
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
  });

  it("does not take the copy's missing snapshot for proof: a vacuous spec whose screenshot the project has a snapshot for stays unproved", async () => {
    // The project's snapshot of the spec (any image of the page's size: the comparison allows every pixel to differ).
    const snapshot = path.join(project, 'case.spec.ts-snapshots', 'shot-linux.png');
    const browser = await chromium.launch(launchOptions());
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      mkdirSync(path.dirname(snapshot), { recursive: true });
      writeFileSync(snapshot, await page.screenshot());
    } finally {
      await browser.close();
    }
    const report = await run(
      SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');\n  await expect(page).toHaveScreenshot('shot.png', { maxDiffPixelRatio: 1 });"),
    );
    expect(report.classification).toBe('pass');
    expect(report.proof).toMatchObject({ verdict: 'inconclusive', message: expect.stringContaining('the copy has no snapshot to compare against') });
  });

  it('says a spec that only navigates and looks has no actions to prove', async () => {
    const report = await run(SIGNED_IN_SEARCH.replace(/  await page.getByTestId\('search-(input|button)'\).*\n/g, '').replace('ASSERTION', "await expect(page.getByTestId('search-heading')).toBeVisible();"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('no_actions');
    expect(report.proof?.message).toContain('does nothing besides signing in that an assertion checks afterwards');
  });

  it('gives no proof for a spec that fails on its own', async () => {
    const report = await run(SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-status')).toHaveText('no such text');"));
    expect(report.classification).toBe('app_bug');
    expect(report.proof).toBeUndefined();
  });

  it('records no trace or failure screenshot of the proof copy, nor reads its pages: the evidence kept is the spec’s own', async () => {
    // The run folder as the Runner writes it, run by Playwright's CLI as it is, and its results read before any cleanup.
    const spec = SIGNED_IN_SEARCH.replace('ASSERTION', "await expect(page.getByTestId('search-status')).toHaveText('2 results for \"playwright\"');");
    const playwright = resolvePlaywright(process.cwd());
    const config = loadRunnerConfig();
    const workspace = createWorkspace(path.join(project, 'run'), 'r1', { text: spec, fileName: 'search.spec.ts', sourceDir: project }, playwright, {
      baseURL: app.url,
      testIdAttribute: 'data-testid',
      launch: launchOptions(),
      runner: config,
      proof: { texts: [neutraliseActions(spec, 'search.spec.ts', {}).text], timings: { expectTimeoutMs: config.proof.expect_ms, quietMs: config.proof.quiet_ms, afterQuietMs: config.proof.after_quiet_ms } },
    });
    // As the Runner starts it: in the run's working folder, told where the run folder's settings are. Not
    // spawnSync: the demo app answers from this process, and a blocked event loop left both copies' page.goto to time out.
    const jsonReport = path.join(project, 'report.json');
    const ran = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(process.execPath, [playwright.cli, 'test', '--config', workspace.configFile, '--reporter', 'list,json'], { cwd: workspace.workDir, env: { ...process.env, [RUN_FOLDER_VARIABLE]: workspace.dir, PLAYWRIGHT_JSON_OUTPUT_FILE: jsonReport } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    // The spec passes; its proof copy fails on its assertion, as it should.
    expect(ran.output).toMatch(/✓ .*search\.spec\.ts:\d+:\d+ › search/);
    expect(ran.output).toMatch(/✘ .*search\.spec\.ts\.proof\.ts:\d+:\d+ › search/);
    expect(ran.output).toContain("expect(locator).toHaveText(expected)");
    // Its page was still (nothing loading, nothing changing): the browser was asked to check within proof.after_quiet_ms, not the whole limit.
    expect(ran.output).toContain(`with timeout ${config.proof.after_quiet_ms}ms`);
    expect(ran.code).toBe(1);
    const filesOf = (prefix: string) => readdirSync(workspace.outputDir).filter((folder) => folder.startsWith(prefix)).flatMap((folder) => readdirSync(path.join(workspace.outputDir, folder)));
    expect(filesOf('search-')).toContain('trace.zip');
    const proofFiles = filesOf('search.spec.ts.proof');
    expect(proofFiles.length).toBeGreaterThan(0); // its error context: the failure is there to judge
    expect(proofFiles.filter((file) => file.endsWith('.zip') || file.endsWith('.png'))).toEqual([]);
    // The evidence fixture reads the elements of the spec's pages, not of the copy's: nobody reads those.
    const parsed = readPlaywrightReport(project, jsonReport);
    if (!('report' in parsed)) throw new Error(parsed.problem);
    const pagesRead = (report: PlaywrightReport) =>
      testsOf(report)
        .flatMap((test) => test.result?.attachments ?? [])
        .filter((attachment) => attachment.name === workspace.evidenceAttachment)
        .map((attachment) => (JSON.parse(Buffer.from(attachment.body ?? '', 'base64').toString('utf8')) as { pages: unknown[] }).pages.length);
    const { spec: specPart, proofs: [proofPart] } = splitReport(parsed.report, workspace.proofFiles.map((file) => path.basename(file)));
    expect(pagesRead(specPart)).toEqual([expect.any(Number)]);
    expect(pagesRead(specPart)[0]).toBeGreaterThan(0);
    expect(pagesRead(proofPart!)).toEqual([0]);
  });
});

describe("the proof copy's assertions wait for a still page, then fail fast", { timeout: 180_000 }, () => {
  let lateApp: LateContentApp;
  beforeAll(async () => {
    lateApp = await startLateContentApp();
  });
  afterAll(() => lateApp.close());

  const markThen = (page: string, assertion: string) => `import { test, expect } from '@playwright/test';

test('late', async ({ page }) => {
  await page.goto('/${page}');
  await page.getByTestId('mark').click();
  ${assertion}
});
`;
  const runLate = (specText: string) => runSpec({ specText, fileName: 'late.spec.ts', baseURL: lateApp.url, cwd: project, proof: {}, untrusted: true, ...bundledRunTarget() });

  it('keeps a vacuous spec unproved when what it asserts comes by a request slower than the copy’s short limit', async () => {
    const report = await runLate(markThen('fetching.html', "await expect(page.getByTestId('status')).toHaveText('Ready');"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
  });

  it('keeps a vacuous spec unproved on a page of a context it made itself, whose requests the copy does not count', async () => {
    const report = await runLate(`import { test, expect } from '@playwright/test';

test('late', async ({ browser, baseURL, page }) => {
  await page.goto('/stepping.html');
  const context = await browser.newContext({ baseURL });
  const other = await context.newPage();
  await other.goto('/fetching.html');
  await other.getByTestId('mark').click();
  await expect(other.getByTestId('status')).toHaveText('Ready');
  await context.close();
});
`);
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
  });

  it('keeps a vacuous spec unproved when the page keeps changing, with no request, until it shows what the spec asserts', async () => {
    const report = await runLate(markThen('stepping.html', "await expect(page.getByTestId('status')).toHaveText('Ready');"));
    expect(report.classification).toBe('pass');
    expect(report.proof?.verdict).toBe('unproved');
  });

  it('proves a spec on a page that keeps changing, once it asserts what its action changes', async () => {
    const report = await runLate(markThen('stepping.html', "await expect(page.getByTestId('mark-result')).toHaveText('Marked');\n  await expect(page.getByTestId('status')).toHaveText('Ready');"));
    expect(report.classification).toBe('pass');
    expect(report.proof).toMatchObject({ verdict: 'proved', line: 5 });
  });
});
