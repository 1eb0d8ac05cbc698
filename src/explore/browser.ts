/**
 * Finds a Chromium to drive: SCRIBE_BROWSER, then Playwright's own download, then a system Chromium.
 * Fails with a message that names the fix, since a missing browser is the most common first-run problem.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, LaunchOptions, Page } from '@playwright/test';
import type { Setup } from '../util/lifetimes.ts';

/** Without these, Chromium's background connections hang on a closed network. */
export const CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * System Chromiums, in order. Debian's headless shell (`chromium-headless-shell`) comes first: it is the build
 * Playwright itself runs headless tests in, and a launch and two pages cost about half the CPU of the full
 * browser's (bench/browser-build.ts); the page sees the same viewport, WebGL and hover, and a user agent whose
 * version is given in full.
 */
const SYSTEM_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];

export class BrowserNotFoundError extends Error {
  constructor(detail: string) {
    super(
      `No Chromium found${detail}. Fix: run \`npx playwright install chromium\`, or install the system package ` +
        '(`apt-get install chromium-headless-shell`, or `chromium`), or point SCRIBE_BROWSER at a Chromium executable.',
    );
    this.name = 'BrowserNotFoundError';
  }
}

export interface BrowserChoice {
  executablePath: string;
  source: 'SCRIBE_BROWSER' | 'playwright' | 'system';
}

/** Where findBrowser looks, in its order: SCRIBE_BROWSER alone when set, else Playwright's own Chromium, then the system's. */
function browserSearch(env: NodeJS.ProcessEnv): BrowserChoice[] {
  if (env.SCRIBE_BROWSER) return [{ executablePath: env.SCRIBE_BROWSER, source: 'SCRIBE_BROWSER' }];
  const bundled = playwrightChromium();
  return [...(bundled ? [{ executablePath: bundled, source: 'playwright' as const }] : []), ...SYSTEM_CHROMIUMS.map((file) => ({ executablePath: file, source: 'system' as const }))];
}

/**
 * The files findBrowser may look at. A contained run may look at them too: a project's config that finds
 * its browser as Scribe does (this repository's own does) must not be refused the look.
 */
export function browserCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  return browserSearch(env).map((choice) => choice.executablePath);
}

export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserChoice {
  const found = browserSearch(env).find((choice) => existsSync(choice.executablePath));
  if (found) return found;
  throw new BrowserNotFoundError(env.SCRIBE_BROWSER ? ` at SCRIBE_BROWSER=${env.SCRIBE_BROWSER}` : '');
}

const require = createRequire(import.meta.url);

/** Where Playwright's own Chromium would be. Loaded here, not at startup: most commands never need a browser. */
function playwrightChromium(): string | undefined {
  try {
    const { chromium } = require('@playwright/test') as typeof import('@playwright/test');
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** Launch options for Playwright: the browser found and the flags this network needs. */
export function launchOptions(env: NodeJS.ProcessEnv = process.env): LaunchOptions {
  return { executablePath: findBrowser(env).executablePath, args: CHROMIUM_ARGS, headless: true };
}

/**
 * The setup of Scribe's own browser (exploring pages; runs launch theirs inside their boundary): launched on
 * loopback, closed at teardown. Loaded on demand, as a generation without a URL never needs Playwright.
 */
export function launchedBrowser(env: NodeJS.ProcessEnv): Setup<Browser> {
  return async () => {
    const { chromium } = await import('@playwright/test');
    const browser = await chromium.launch(launchOptions(env));
    return { value: browser, teardown: () => browser.close() };
  };
}

/** Scribe's browser as exploring is handed it. */
export interface ExploringBrowser {
  browser: Browser;
  /**
   * A blank page of a context of its own with no state, opened while the browser waited for its work, for an
   * exploration that needs no storage state (whose context it then is, to close).
   */
  blankPage?: Page;
}

/** A launch of Scribe's browser as exploring is handed it (no page opened ahead). */
export function exploringBrowser(launch: Setup<Browser>): Setup<ExploringBrowser> {
  return async (signal) => {
    const { value, teardown } = await launch(signal);
    return { value: { browser: value }, teardown };
  };
}

/**
 * Scribe's own browser, its launch begun now, before the work that needs it (`generate` starts it first, so it
 * launches while the project's config is read and the run starts), and a blank page opened in it as soon as it is
 * up (a renderer's start, which exploring would otherwise wait for): `setup` hands over the launch under way (its
 * failure is the setup's, as a launch's; a page that could not be opened is simply not there), and `close` closes
 * it, used or not, launched or failed. The setup's teardown starts the close without waiting for it: Chromium's
 * shutdown then overlaps the work after exploring, and `close`, awaited at the end, waits for it.
 */
export function launchingBrowser(env: NodeJS.ProcessEnv): { setup: Setup<ExploringBrowser>; close: () => Promise<void> } {
  const launching = launchNow(env);
  // Seen by the setup when it is used; unused, a failed launch is nobody's error.
  launching.catch(() => undefined);
  const blankPage = launching.then(async ({ value }) => (await value.newContext()).newPage()).catch(() => undefined);
  let closing: Promise<void> | undefined;
  // A browser that will not close cleanly (it crashed) is no reason to fail the work it served.
  const close = () => (closing ??= launching.then(async ({ teardown }) => teardown()).catch(() => undefined));
  return {
    setup: async () => {
      const browser = (await launching).value;
      const page = await blankPage;
      return { value: { browser, ...(page ? { blankPage: page } : {}) }, teardown: () => void close() };
    },
    close,
  };
}

/**
 * The launch asked for in this turn: Playwright is loaded here, not by a dynamic import, whose turns would queue
 * the launch behind whatever the caller does next (reading the project, starting the contained run, readying the
 * type checker), so that Chromium's own start-up, on another core, overlaps that work rather than following it.
 */
async function launchNow(env: NodeJS.ProcessEnv): Promise<{ value: Browser; teardown: () => Promise<void> }> {
  // Everything before the first await runs in the caller's turn: the require and the launch's request.
  const { chromium } = require('@playwright/test') as typeof import('@playwright/test');
  const browser = await chromium.launch(launchOptions(env));
  return { value: browser, teardown: () => browser.close() };
}

/**
 * Starts loading Playwright, which takes this thread a while, so that it loads while something else waits
 * (reading the project's Playwright config in a child process) rather than when the browser is launched.
 * A failure to load is reported by the launch.
 */
export function preloadPlaywright(): void {
  void import('@playwright/test').catch(() => undefined);
}
