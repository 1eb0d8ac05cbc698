/**
 * The proof run's fixtures: the run's own, with assertions that fail fast on a page that has stopped changing,
 * and no trace, failure screenshot or reading of its pages' elements: the proof is judged on its errors alone
 * (it fails, as it should), and the evidence kept is the spec's own. What it keeps of the evidence fixture is
 * the containment and the screenshots it took (files the spec's evidence must not count: evidence.ts).
 *
 * An assertion that holds without the actions holds once the page has shown what it loads; one that fails
 * would otherwise wait its whole limit, the copy's cost. So each web-first assertion on a page or locator
 * first waits until its page is still — no request of it in flight and its accessibility tree unchanged for
 * `quietMs`, at most `expectTimeoutMs` — and then has `afterQuietMs` to pass. Both are read from outside the
 * page (Playwright's events, its utility world): nothing the page's own script can see tells the copy from
 * the spec. Other assertions (values, `expect.poll`, `expect.soft`) wait `expectTimeoutMs`.
 */
import type { Locator, Page, Request } from '@playwright/test';
import { expect as runExpect, test as runTest } from './scribe-fixtures.js';
import { readRunSettings } from './scribe-run.js';

export * from './scribe-fixtures.js';

const { proof } = readRunSettings();
if (!proof) throw new Error('scribe-run.json has no proof settings: this run has no proof spec');

/** Playwright's web-first matchers: those that poll a page or locator until they pass or time out. */
const WEB_FIRST_MATCHERS: ReadonlySet<string> = new Set([
  'toBeAttached', 'toBeChecked', 'toBeDisabled', 'toBeEditable', 'toBeEmpty', 'toBeEnabled', 'toBeFocused', 'toBeHidden',
  'toBeInViewport', 'toBeVisible', 'toContainClass', 'toContainText', 'toHaveAccessibleDescription', 'toHaveAccessibleErrorMessage',
  'toHaveAccessibleName', 'toHaveAttribute', 'toHaveClass', 'toHaveCount', 'toHaveCSS', 'toHaveId', 'toHaveJSProperty', 'toHaveRole',
  'toHaveText', 'toHaveValue', 'toHaveValues', 'toMatchAriaSnapshot', 'toHaveTitle', 'toHaveURL',
]);

/** Requests that stay open by design: a page with one is still as soon as nothing else loads. */
const LASTING_RESOURCES: ReadonlySet<string> = new Set(['eventsource', 'websocket', 'media']);

/**
 * Each page's requests in flight. Keyed by the page, which is the test's own: nothing outlives its test, and
 * the expect below, which the copy imports as a module, has no other way to reach what its fixture saw.
 */
const inFlight = new WeakMap<Page, Set<Request>>();

function pageOfRequest(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined; // a service worker's request: no page of the test waits on it
  }
}

/** How often the page is read while waiting for it to be still: each read is a round trip through Playwright's server, CPU the spec's run shares. */
const STILL_POLL_MS = 100;

/** Until the page is still (no request of it in flight, its accessibility tree unchanged for quietMs), at most expectTimeoutMs. */
async function untilStill(page: Page): Promise<void> {
  const deadline = Date.now() + proof!.expectTimeoutMs;
  let shown: string | undefined;
  let shownSince = Date.now();
  while (Date.now() < deadline && !page.isClosed()) {
    const now = await page
      .locator(':root')
      .ariaSnapshot({ timeout: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
    if (now === undefined || now !== shown) {
      shown = now;
      shownSince = Date.now();
    } else if ((inFlight.get(page)?.size ?? 0) === 0 && Date.now() - shownSince >= proof!.quietMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, STILL_POLL_MS));
  }
}

function pageOf(subject: unknown): Page | undefined {
  if (typeof subject !== 'object' || subject === null) return undefined;
  const candidate = subject as Partial<Page & Locator>;
  if (typeof candidate.mainFrame === 'function' && typeof candidate.goto === 'function') return subject as Page;
  if (typeof candidate.page === 'function' && typeof candidate.evaluateAll === 'function') return (subject as Locator).page();
  return undefined;
}

const boundedExpect = runExpect.configure({ timeout: proof.expectTimeoutMs });
const afterQuietExpect = runExpect.configure({ timeout: proof.afterQuietMs });

/**
 * The matchers of `expect(subject)` whose web-first ones wait for the page to be still first. The wait and
 * the assertion run in a boxed step, called where the spec calls the matcher: Playwright reports a failure
 * at the box's caller, the spec's line, which is what the proof's verdict reads.
 */
function stillFirst(matchers: object, quietMatchers: object, page: Page): object {
  return new Proxy(matchers, {
    get(target, key, receiver) {
      if (key === 'not') return stillFirst(Reflect.get(target, key, receiver) as object, Reflect.get(quietMatchers, key) as object, page);
      const matcher = Reflect.get(quietMatchers, key) as unknown;
      if (typeof key !== 'string' || !WEB_FIRST_MATCHERS.has(key) || typeof matcher !== 'function') return Reflect.get(target, key, receiver) as unknown;
      // Async, and awaiting the step: Playwright boxes at the step's caller's caller, found by the async stack.
      return async (...args: unknown[]) =>
        await test.step(
          `Expect ${key}, once the page is still`,
          async () => {
            await untilStill(page);
            return (matcher as (...a: unknown[]) => Promise<unknown>).apply(quietMatchers, args);
          },
          { box: true },
        );
    },
  });
}

export const expect = new Proxy(boundedExpect, {
  apply(target, thisArg, [subject, ...rest]: unknown[]) {
    const matchers = Reflect.apply(target, thisArg, [subject, ...rest]) as unknown as object;
    const page = pageOf(subject);
    return page ? stillFirst(matchers, afterQuietExpect(subject, ...(rest as [])), page) : matchers;
  },
});

/** Counts each page's requests in flight, from the context's events (which the page's script cannot see). */
export const test = runTest.extend<{ scribeProofRequests: void }>({
  scribeProofRequests: [
    async ({ context }, use) => {
      const started = (request: Request) => {
        const page = pageOfRequest(request);
        if (!page || LASTING_RESOURCES.has(request.resourceType())) return;
        const requests = inFlight.get(page) ?? new Set<Request>();
        requests.add(request);
        inFlight.set(page, requests);
      };
      const ended = (request: Request) => {
        const page = pageOfRequest(request);
        if (page) inFlight.get(page)?.delete(request);
      };
      context.on('request', started);
      context.on('requestfinished', ended);
      context.on('requestfailed', ended);
      await use();
    },
    { auto: true },
  ],
});

export default test;

// Loaded by the proof spec alone, while Playwright loads it: this applies to the proof file's tests only.
test.use({ trace: 'off', screenshot: 'off', scribeReadsPages: false });
