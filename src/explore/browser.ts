/**
 * Finds a Chromium to drive: SCRIBE_BROWSER, then Playwright's own download, then a system Chromium.
 * Fails with a message that names the fix, since a missing browser is the most common first-run problem.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { LaunchOptions } from '@playwright/test';

/** Without these, Chromium's background connections hang on a closed network. */
export const CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];

export class BrowserNotFoundError extends Error {
  constructor(detail: string) {
    super(
      `No Chromium found${detail}. Fix: run \`npx playwright install chromium\`, or install the system package ` +
        '(`apt-get install chromium`), or point SCRIBE_BROWSER at a Chromium executable.',
    );
    this.name = 'BrowserNotFoundError';
  }
}

export interface BrowserChoice {
  executablePath: string;
  source: 'SCRIBE_BROWSER' | 'playwright' | 'system';
}

/**
 * The files findBrowser may look at, in its order: SCRIBE_BROWSER, Playwright's own Chromium, the system's.
 * A contained run may look at them too: a project's config that finds its browser as Scribe does (this
 * repository's own does) must not be refused the look.
 */
export function browserCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env.SCRIBE_BROWSER, playwrightChromium(), ...SYSTEM_CHROMIUMS].filter((file): file is string => Boolean(file));
}

export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserChoice {
  const configured = env.SCRIBE_BROWSER;
  if (configured) {
    if (!existsSync(configured)) throw new BrowserNotFoundError(` at SCRIBE_BROWSER=${configured}`);
    return { executablePath: configured, source: 'SCRIBE_BROWSER' };
  }
  const bundled = playwrightChromium();
  if (bundled && existsSync(bundled)) return { executablePath: bundled, source: 'playwright' };
  const system = SYSTEM_CHROMIUMS.find((candidate) => existsSync(candidate));
  if (system) return { executablePath: system, source: 'system' };
  throw new BrowserNotFoundError('');
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
