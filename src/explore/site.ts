/**
 * Site exploration: from the start URL, the same-origin pages its links reach, breadth first, bounded
 * by depth, page count and time (agents/scribe.yaml `explore:`), signed in through a storage state when
 * the project gives one, or through the start page's login form with the declared credentials. The result is the start page's inventory carrying the others in `pages`, all
 * capped together to the one token budget (render.ts renders it, naming what was cut).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { PageInventory } from '../contracts.ts';
import { launchOptions } from './browser.ts';
import { ExploreError, inventoryOfPage, watchRequests, type ExploreOptions, type PageRequests } from './inventory.ts';
import { capSite } from './render.ts';
import { isSignInPage, signedInBy, signInThroughForm, type FormCredentials } from './sign-in.ts';

export interface SiteOptions extends ExploreOptions {
  /** A Playwright storage state file to explore signed in. */
  storageState?: string;
  /**
   * Credentials to sign in with when the start URL lands on a sign-in page: typed into its form, and the
   * page that answers explored with the rest (signed in, if they were right; the start page stays the sign-in page).
   */
  formSignIn?: FormCredentials;
  /** The clock, so a test can bound the time without waiting. */
  now?: () => number;
}

/** Explores the start URL and the same-origin pages it links to, within the configured bounds. */
export async function exploreSite(url: string, options: SiteOptions): Promise<PageInventory> {
  return (await exploreSiteSigningIn(url, options)).inventory;
}

export interface SiteExploration {
  inventory: PageInventory;
  /** Whether signing in through the start page's form (options.formSignIn) got past it; undefined when it was not tried. */
  signedInThroughForm?: boolean;
}

/** exploreSite, saying whether it signed in through the start page's login form. */
export async function exploreSiteSigningIn(url: string, options: SiteOptions): Promise<SiteExploration> {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new ExploreError(`Cannot explore "${url}": give an absolute http(s) URL.`);
  const browser: Browser = options.browser ?? (await (await import('@playwright/test')).chromium.launch(launchOptions()));
  try {
    const context = await browser.newContext(options.storageState ? { storageState: options.storageState } : {});
    try {
      return await crawl(context, url, options);
    } finally {
      await context.close();
    }
  } finally {
    if (!options.browser) await browser.close();
  }
}

async function crawl(context: BrowserContext, startUrl: string, options: SiteOptions): Promise<SiteExploration> {
  const { settings } = options;
  const now = options.now ?? Date.now;
  const deadline = now() + settings.max_time_ms;
  const origin = new URL(startUrl).origin;
  const page = await context.newPage();
  const requests = watchRequests(page);
  const queue: Array<{ url: string; depth: number }> = [{ url: startUrl, depth: 0 }];
  const seen = new Set([pathKey(startUrl)]);
  const explored: PageInventory[] = [];
  const unexplored: string[] = [];
  let signedInThroughForm: boolean | undefined;
  const take = (inventory: PageInventory, depth: number) => {
    seen.add(pathKey(inventory.url));
    explored.push(inventory);
    for (const link of inventory.links) {
      const target = sameOrigin(link.href, inventory.url, origin);
      if (!target || seen.has(pathKey(target))) continue;
      seen.add(pathKey(target));
      if (depth + 1 > settings.max_depth) unexplored.push(pathKey(target));
      else queue.push({ url: target, depth: depth + 1 });
    }
  };
  while (queue.length > 0) {
    const next = queue.shift()!;
    const isStart = explored.length === 0;
    if (!isStart && (explored.length >= settings.max_pages || now() > deadline)) {
      unexplored.push(pathKey(next.url));
      continue;
    }
    const inventory = await visit(page, requests, next.url, options, isStart);
    if (!inventory) continue;
    // A redirect (to a login page, say) lands on a page that may already be known.
    if (!isStart && explored.some((known) => pathKey(known.url) === pathKey(inventory.url))) continue;
    take(inventory, next.depth);
    if (isStart && options.formSignIn && isSignInPage(inventory)) {
      // The sign-in page stays the start page (a spec without a storage state signs in there); the page the
      // form leads to is explored next, and the pages it links to, signed in.
      const landed = await signedIn(page, requests, options.formSignIn, options);
      signedInThroughForm = landed !== undefined;
      if (landed) take(landed, next.depth);
    }
  }
  const [start, ...others] = explored;
  return { inventory: capSite({ ...start!, pages: others, unexplored }, settings), ...(signedInThroughForm === undefined ? {} : { signedInThroughForm }) };
}

/**
 * The page signing in through the form led to; undefined when it did not sign in (sign-in.ts's signedInBy),
 * or the form could not be filled or sent. The error is not passed on: Playwright's messages about a fill
 * may quote what was typed.
 */
async function signedIn(page: Page, requests: PageRequests, credentials: FormCredentials, options: SiteOptions): Promise<PageInventory | undefined> {
  try {
    const signs = await signInThroughForm(page, credentials, options.settings.navigation_timeout_ms);
    return signedInBy(signs) ? await inventoryOfPage(page, options, requests) : undefined;
  } catch {
    return undefined;
  }
}

/** The inventory of one page; the start page must open, a linked page that fails is skipped. */
async function visit(page: Page, requests: PageRequests, url: string, options: SiteOptions, required: boolean): Promise<PageInventory | undefined> {
  let status: number | undefined;
  try {
    status = (await page.goto(url, { waitUntil: 'load', timeout: options.settings.navigation_timeout_ms }))?.status();
  } catch (error) {
    if (required) throw new ExploreError(`Cannot explore ${url}: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (status !== undefined && status >= 400) {
    if (required) throw new ExploreError(`Cannot explore ${url}: the server answered ${status}.`);
    return undefined;
  }
  return inventoryOfPage(page, options, requests);
}

/** A same-origin page address (no fragment), or undefined for other origins and non-page links. */
function sameOrigin(href: string, base: string, origin: string): string | undefined {
  if (!URL.canParse(href, base)) return undefined;
  const target = new URL(href, base);
  if (target.origin !== origin || !/^https?:$/.test(target.protocol)) return undefined;
  target.hash = '';
  return target.href;
}

/** A page's path and query: how pages are told apart and how specs name them (`page.goto('/cart')`). */
export function pathKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
