/**
 * The proof run's fixtures: the run's own, with assertions that fail fast on a page that has stopped changing,
 * and no trace, failure screenshot or reading of its pages' elements: the proof is judged on its errors alone
 * (it fails, as it should), and the evidence kept is the spec's own. What it keeps of the evidence fixture is
 * the containment and the screenshots it took (files the spec's evidence must not count: evidence.ts).
 *
 * An assertion that holds without the actions holds once the page has shown what it loads; one that fails
 * would otherwise wait its whole limit, the copy's cost. So each web-first assertion on a page or locator
 * first waits until its page is still — no request of it in flight and its accessibility tree unchanged for
 * `quietMs`, at most `expectTimeoutMs` — and then has `afterQuietMs` to pass. Other assertions (values,
 * `expect.poll`, a URL matched by a pattern or function) wait `expectTimeoutMs`, as does one the spec gives a
 * longer limit of its own.
 *
 * Nothing the spec can reach tells the copy from the spec: `expect` and its matchers are Playwright's own;
 * the wait is made where every web-first matcher asks the browser (the client's `_expect` of a frame, or of
 * a locator in Playwright releases whose locators ask themselves), a member the gate lets no generated code
 * name; the page is read from outside its script (Playwright's events, its isolated world).
 */
import type { Page, Request } from '@playwright/test';
import { expect as runExpect, test as runTest } from './scribe-fixtures.js';
import { readRunSettings, type ProofTimings } from './scribe-run.js';

export * from './scribe-fixtures.js';

const { proof } = readRunSettings();
if (!proof) throw new Error('scribe-run.json has no proof settings: this run has no proof spec');
const timings: ProofTimings = proof;

export const expect = runExpect.configure({ timeout: timings.expectTimeoutMs });

/** Requests that stay open by design: a page with one is still as soon as nothing else loads. */
const LASTING_RESOURCES: ReadonlySet<string> = new Set(['eventsource', 'websocket', 'media']);

/** How often the page is read while waiting for it to be still: each read is a round trip through Playwright's server, CPU the spec's run shares. */
const STILL_POLL_MS = 100;

/** What a web-first matcher hands the client's `_expect`: its own limit among the rest. */
interface ExpectOptions {
  timeout?: number;
}

type ExpectMethod = (this: unknown, expression: string, options: ExpectOptions) => Promise<unknown>;

function pageOfRequest(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined; // a service worker's request: no page of the test waits on it
  }
}

/** Until the page is still (none of `inFlight` is its, its accessibility tree unchanged for quietMs), at most expectTimeoutMs. */
async function untilStill(page: Page, inFlight: ReadonlyMap<Page, ReadonlySet<Request>>): Promise<void> {
  const deadline = Date.now() + timings.expectTimeoutMs;
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
    } else if ((inFlight.get(page)?.size ?? 0) === 0 && Date.now() - shownSince >= timings.quietMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, STILL_POLL_MS));
  }
}

/**
 * The client class whose `_expect` every web-first matcher reaches, found on a page of the test: the frame's
 * where it has one (a locator's delegates to it; a page's matchers call it), else the locator's (where a
 * locator asks the browser itself and a page's matchers use the locator of `:root`). Undefined: a release
 * unlike both, whose assertions then wait expectTimeoutMs as the other ones do.
 */
function expectingClass(page: Page): { prototype: object; pageOf: (receiver: unknown) => Page } | undefined {
  const frame = Object.getPrototypeOf(page.mainFrame()) as object;
  if (typeof Object.getOwnPropertyDescriptor(frame, '_expect')?.value === 'function') return { prototype: frame, pageOf: (receiver) => (receiver as ReturnType<Page['mainFrame']>).page() };
  const locator = Object.getPrototypeOf(page.locator(':root')) as object;
  if (typeof Object.getOwnPropertyDescriptor(locator, '_expect')?.value === 'function') return { prototype: locator, pageOf: (receiver) => (receiver as ReturnType<Page['locator']>).page() };
  return undefined;
}

export const test = runTest.extend<{ scribeProofWaitsForStill: void }>({
  /**
   * For the test's life: counts each page's requests in flight from the context's events, and makes each
   * web-first assertion on a page of the context wait for its page to be still, then check within
   * afterQuietMs. The method is put back after the test, with the very property it had (not enumerable, as
   * a class's methods are).
   */
  scribeProofWaitsForStill: [
    async ({ context }, use) => {
      const inFlight = new Map<Page, Set<Request>>();
      const started = (request: Request) => {
        const page = pageOfRequest(request);
        if (!page || LASTING_RESOURCES.has(request.resourceType())) return;
        inFlight.set(page, (inFlight.get(page) ?? new Set<Request>()).add(request));
      };
      const ended = (request: Request) => {
        const page = pageOfRequest(request);
        if (page) inFlight.get(page)?.delete(request);
      };
      context.on('request', started);
      context.on('requestfinished', ended);
      context.on('requestfailed', ended);
      // Set once the method is replaced: the class is every page's, so the first page does it for all.
      let restore: (() => void) | undefined;
      const patch = (page: Page) => {
        if (restore) return;
        const expecting = expectingClass(page);
        if (!expecting) return;
        const descriptor = Object.getOwnPropertyDescriptor(expecting.prototype, '_expect')!;
        const original = descriptor.value as ExpectMethod;
        const waitingForStill: ExpectMethod = async function (this: unknown, expression, options) {
          // An error of the wait must not fail the assertion (the copy would pass as proved): it then waits its whole limit.
          const still = await (async () => {
            const page = expecting.pageOf(this);
            // A page of another context (one the spec made) has no requests counted here: it waits as the others do.
            if ((options.timeout ?? 0) > timings.expectTimeoutMs || page.context() !== context) return false;
            await untilStill(page, inFlight);
            return true;
          })().catch(() => false);
          return original.call(this, expression, still ? { ...options, timeout: timings.afterQuietMs } : options);
        };
        Object.defineProperty(expecting.prototype, '_expect', { ...descriptor, value: waitingForStill });
        restore = () => Object.defineProperty(expecting.prototype, '_expect', descriptor);
      };
      context.pages().forEach(patch);
      context.on('page', patch);
      await use();
      restore?.();
    },
    { auto: true },
  ],
});

export default test;

// Loaded by the proof spec alone, while Playwright loads it: this applies to the proof file's tests only.
test.use({ trace: 'off', screenshot: 'off', scribeReadsPages: false });
