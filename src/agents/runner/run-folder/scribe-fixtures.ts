/**
 * The run's `test`: @playwright/test with an auto fixture that gathers evidence. Every page of the test's
 * context reports its console errors and uncaught exceptions, and every `page.screenshot({ path })` the
 * path it wrote, in one attachment the Runner reads from the JSON report. The spec imports this module
 * where it imported @playwright/test (workspace.ts rewrites the specifier).
 */
import path from 'node:path';
import { test as base, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { readPageElements, type PageElements } from './scribe-page-elements.js';
import { readRunSettings } from './scribe-run.js';

export * from '@playwright/test';

/** Read when the spec imports this module: before its own code runs, so a spec that rewrites the file changes nothing of its run. */
const runSettings = readRunSettings();

/**
 * An untrusted run's context reaches only http(s): requests elsewhere are aborted, `page.goto` to another
 * scheme (file:, chrome:, view-source:, data:) throws, and a page that gets there anyway is closed before
 * the test can read it (not Chromium's error page for a failed navigation: it shows only the error).
 * Playwright's routing never sees file: navigations, hence the navigation checks.
 */
async function containNavigation(context: BrowserContext, testInfo: TestInfo, consoleErrors: string[]): Promise<void> {
  const reachable = (url: string) => /^(https?:|about:blank$)/.test(url);
  // Chromium's own page for a navigation that failed (an unreachable app, a blocked iframe): closing it raced
  // the navigation's net::ERR_ error and, under load, turned it into "page closed", a test bug.
  const failedNavigation = (url: string) => url === 'chrome-error://chromewebdata/';
  const blocked = (url: string) => `Scribe blocked a navigation outside http(s): ${url}`;
  // A regular expression, not a function: Playwright's server matches it itself and lets every http(s)
  // request go on there, where a function makes it hand each request to the test's worker and wait for
  // its answer (in a contained run through the browser's front: CPU in four processes for each request).
  await context.route(/^(?!https?:)/i, (route) => route.abort('blockedbyclient'));
  const contain = (page: Page) => {
    // Named as the method: Playwright names the API in its errors by the call site's name ("page.goto: net::ERR_…").
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const target = new URL(url, testInfo.project.use.baseURL ?? 'about:blank').href;
      if (!reachable(target)) throw new Error(blocked(target));
      return goto(url, options);
    };
    page.on('framenavigated', (frame) => {
      if (reachable(frame.url()) || failedNavigation(frame.url())) return;
      consoleErrors.push(blocked(frame.url()));
      void page.close().catch(() => undefined);
    });
  };
  context.pages().forEach(contain);
  context.on('page', contain);
}

export const test = base.extend<{ scribeEvidence: void; scribeReadsPages: boolean }>({
  /**
   * Whether the evidence holds each page's elements (one evaluate per load and one at the end): the spec's
   * does; the proof copy's (run-folder/scribe-proof-fixtures.ts) does not, as nobody reads it.
   */
  scribeReadsPages: [true, { option: true }],
  scribeEvidence: [
    async ({ context, scribeReadsPages }, use, testInfo) => {
      const consoleErrors: string[] = [];
      const screenshots: string[] = [];
      if (runSettings.contained) await containNavigation(context, testInfo, consoleErrors);
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        page.on('pageerror', (error) => consoleErrors.push(error.message));
        const screenshot = page.screenshot.bind(page);
        page.screenshot = async (options) => {
          const image = await screenshot(options);
          if (options?.path) screenshots.push(path.resolve(options.path));
          return image;
        };
      };
      // Run-time grounding: the test ids and named elements of each page the test reaches (on every
      // load, and the page it ends on, where a failing step failed), read in one evaluate each.
      const testIdAttribute = testInfo.project.use.testIdAttribute ?? 'data-testid';
      const pages: PageElements[] = [];
      const reading: Array<Promise<void>> = [];
      const readPage = (page: Page) => {
        const read = page.evaluate(readPageElements, testIdAttribute).then(
          (found) => void pages.push(found),
          () => undefined,
        );
        reading.push(Promise.race([read, new Promise<void>((resolve) => setTimeout(resolve, 2000))]));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      if (scribeReadsPages) {
        context.on('page', (page) => page.on('load', () => readPage(page)));
        context.pages().forEach((page) => page.on('load', () => readPage(page)));
      }
      await use();
      if (scribeReadsPages) context.pages().forEach(readPage);
      await Promise.all(reading);
      await testInfo.attach(runSettings.evidenceAttachment, {
        body: JSON.stringify({ consoleErrors, screenshots, pages }),
        contentType: 'application/json',
      });
    },
    { auto: true },
  ],
});

export default test;
