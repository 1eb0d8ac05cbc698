/**
 * The page inventory: what a live page offers a test (test ids, form fields, named roles, headings,
 * links), read in one pass inside the page and capped to a token budget so it fits any prompt.
 */
import type { Browser, Page, Request } from '@playwright/test';
import type { PageInventory } from '../contracts.ts';
import { launchOptions } from './browser.ts';
import { INVENTORY_SECTIONS, cutNote, headerLine, renderInventory, type InventoryListKey } from './render.ts';
import type { ExploreSettings } from './settings.ts';

export interface InventoryOptions {
  /** The attribute page.getByTestId reads (critic.yaml settings.test_id_attribute). */
  testIdAttribute: string;
  settings: ExploreSettings;
}

export interface ExploreOptions extends InventoryOptions {
  /** A browser to reuse; without one, a Chromium is launched for this page and closed after. */
  browser?: Browser;
}

export class ExploreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExploreError';
  }
}

/** Opens the URL in Chromium and returns its inventory. */
export async function exploreUrl(url: string, options: ExploreOptions): Promise<PageInventory> {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new ExploreError(`Cannot explore "${url}": give an absolute http(s) URL.`);
  // Loaded here, not at startup: only exploring needs the browser driver.
  const browser = options.browser ?? (await (await import('@playwright/test')).chromium.launch(launchOptions()));
  try {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requests = watchRequests(page);
      await open(page, url, options.settings.navigation_timeout_ms);
      return await inventoryOfPage(page, options, requests);
    } finally {
      await context.close();
    }
  } finally {
    if (!options.browser) await browser.close();
  }
}

async function open(page: Page, url: string, timeout: number): Promise<void> {
  let status: number | undefined;
  try {
    status = (await page.goto(url, { waitUntil: 'load', timeout }))?.status();
  } catch (error) {
    throw new ExploreError(`Cannot explore ${url}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (status !== undefined && status >= 400) throw new ExploreError(`Cannot explore ${url}: the server answered ${status}.`);
}

/**
 * The inventory of a page that is already open, read once it has rendered (or the wait for it is over).
 * `requests`, watched since before the page was opened, lets the wait see what the page is still fetching.
 */
export async function inventoryOfPage(page: Page, options: InventoryOptions, requests?: PageRequests): Promise<PageInventory> {
  await rendered(page, options.settings, requests);
  const args: CollectArgs = {
    testIdAttribute: options.testIdAttribute,
    maxText: options.settings.max_text_chars,
    maxPerKind: options.settings.max_scanned_per_kind,
  };
  const scan = await page.evaluate<PageScan>(inPageCall(collectPage, args));
  return capInventory(scan, options.testIdAttribute, options.settings);
}

/**
 * Waits, within render_wait_ms, until the page shows a control, its DOM has been still for render_quiet_ms and
 * it fetches nothing (the data or code a client-rendered page renders next): a quiet DOM while a request is out
 * is a page waiting for its answer, not a rendered one. A static page is read after one quiet period.
 */
async function rendered(page: Page, settings: ExploreSettings, requests: PageRequests | undefined): Promise<void> {
  const deadline = performance.now() + settings.render_wait_ms;
  for (;;) {
    await page.evaluate(inPageCall(settle, { waitMs: Math.max(0, deadline - performance.now()), quietMs: settings.render_quiet_ms }));
    const left = deadline - performance.now();
    if (!requests || requests.inFlight() === 0 || left <= 0) return;
    await requests.drained(left);
  }
}

/** The kinds of request a page renders from: its scripts' fetches and XHRs, and code it loads on demand (not images, fonts or streams). */
const RENDERED_FROM = new Set(['fetch', 'xhr', 'script']);

/** A page's requests of the kinds it renders from, in flight. */
export interface PageRequests {
  inFlight(): number;
  /** Resolves once none is in flight, or after timeoutMs. */
  drained(timeoutMs: number): Promise<void>;
}

/**
 * Watches the page's requests from now on. A navigation of the page ends the previous document's (their
 * answers no longer render anything there).
 */
export function watchRequests(page: Page): PageRequests {
  const pending = new Set<Request>();
  const waiting = new Set<() => void>();
  const settleIfDone = () => {
    if (pending.size > 0) return;
    for (const wake of waiting) wake();
    waiting.clear();
  };
  const ended = (request: Request) => {
    if (pending.delete(request)) settleIfDone();
  };
  page.on('request', (request) => {
    if (RENDERED_FROM.has(request.resourceType())) pending.add(request);
  });
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    pending.clear();
    settleIfDone();
  });
  return {
    inFlight: () => pending.size,
    drained: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (pending.size === 0) return resolve();
        const timer = setTimeout(() => {
          waiting.delete(wake);
          resolve();
        }, timeoutMs);
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        waiting.add(wake);
      }),
  };
}

/**
 * In the page: resolves once it shows a control to act on and its DOM has not changed for quietMs, or
 * waitMs after it was called, whichever is first. A client-rendered form appears a moment after load; a
 * static page resolves after one quiet period.
 */
function settle({ waitMs, quietMs }: { waitMs: number; quietMs: number }): Promise<void> {
  const CONTROLS = 'a[href], button, input, select, textarea, [role="button"], [role="link"], [role="textbox"], [contenteditable="true"]';
  return new Promise<void>((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
      resolve();
    };
    const restart = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        if (document.querySelector(CONTROLS)) finish();
      }, quietMs);
    };
    const observer = new MutationObserver(restart);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const cap = setTimeout(finish, waitMs);
    restart();
  });
}

/**
 * A call of `fn` as an expression for page.evaluate. tsx (esbuild keepNames) wraps inner functions in
 * `__name(...)`, a helper that does not exist in the page; the wrapper defines it as the identity.
 */
function inPageCall<A, R>(fn: (args: A) => R, args: A): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(args)}); })()`;
}

// --- the size cap ----------------------------------------------------------------------------------

type Lists = Pick<PageInventory, InventoryListKey>;

/** What the page holds, before the cap: every list as read, with how many distinct entries there were. */
export interface PageScan extends Lists {
  url: string;
  title: string;
  totals: Record<InventoryListKey, number>;
}

/**
 * Keeps entries from the most useful kind down until the rendering would pass the budget; everything
 * after that point is cut and counted in `truncated`.
 */
export function capInventory(scan: PageScan, testIdAttribute: string, settings: ExploreSettings): PageInventory {
  const budget = settings.max_tokens * settings.chars_per_token;
  let reserve = 0;
  for (;;) {
    const inventory = keep(scan, testIdAttribute, entriesWithin(scan, testIdAttribute, budget - reserve));
    const chars = renderInventory(inventory).length;
    const nothingKept = INVENTORY_SECTIONS.every((section) => inventory[section.key].length === 0);
    if (chars <= budget || nothingKept) return { ...inventory, estimatedTokens: Math.ceil(chars / settings.chars_per_token) };
    // The note on what was cut takes room too: make that much more room and measure again.
    reserve += chars - budget;
  }
}

function entriesWithin(scan: PageScan, testIdAttribute: string, limit: number): Record<InventoryListKey, number> {
  const full = keep(scan, testIdAttribute, undefined);
  const kept = { testIds: 0, fields: 0, roles: 0, headings: 0, links: 0 };
  let chars = headerLine(full).length + 1;
  for (const section of INVENTORY_SECTIONS) {
    const titleCost = section.title(full).length + 1;
    for (const line of section.lines(full)) {
      const cost = line.length + 1 + (kept[section.key] === 0 ? titleCost : 0);
      if (chars + cost > limit) return kept;
      chars += cost;
      kept[section.key]++;
    }
  }
  return kept;
}

function keep(scan: PageScan, testIdAttribute: string, counts: Record<InventoryListKey, number> | undefined): PageInventory {
  const lists = Object.fromEntries(
    INVENTORY_SECTIONS.map((section) => [section.key, counts ? scan[section.key].slice(0, counts[section.key]) : scan[section.key]]),
  ) as unknown as Lists;
  const truncated = INVENTORY_SECTIONS.flatMap((section) => {
    const cut = scan.totals[section.key] - lists[section.key].length;
    return cut > 0 ? [cutNote(section, cut)] : [];
  });
  return { url: scan.url, title: scan.title, testIdAttribute, ...lists, truncated, estimatedTokens: 0 };
}

// --- inside the page ---------------------------------------------------------------------------------

/** Distinct entries of one kind: the ones built (up to the limit) and every key seen. */
interface Tally<T> {
  entries: Map<string, T>;
  seen: Set<string>;
}

interface CollectArgs {
  testIdAttribute: string;
  maxText: number;
  maxPerKind: number;
}

/**
 * Runs in the page (serialized by page.evaluate): it may use only its argument and the DOM. Every
 * list is deduplicated; at most `maxPerKind` entries of a kind are built, the rest only counted.
 */
function collectPage({ testIdAttribute, maxText, maxPerKind }: CollectArgs): PageScan {
  const NAMED_ROLES = new Set([
    'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider',
    'spinbutton', 'switch', 'tab', 'tabpanel', 'tablist', 'menu', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'dialog', 'alertdialog', 'alert', 'status', 'navigation', 'main', 'region', 'form', 'search', 'img', 'table',
    'progressbar', 'tree', 'treeitem', 'grid',
  ]);
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'option', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'heading']);
  const INPUT_BUTTONS = new Set(['button', 'submit', 'reset', 'image']);
  const INPUT_ROLES: Record<string, string> = {
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
    text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox',
  };
  const TAG_ROLES: Record<string, string> = {
    button: 'button', textarea: 'textbox', nav: 'navigation', main: 'main', dialog: 'dialog', table: 'table',
    ul: 'list', ol: 'list', li: 'listitem', output: 'status', progress: 'progressbar', option: 'option',
    fieldset: 'group', details: 'group', summary: 'button', article: 'article', h1: 'heading', h2: 'heading',
    h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
  };

  const clean = (text: string | null | undefined): string | null => {
    const collapsed = (text ?? '').replace(/\s+/g, ' ').trim();
    if (collapsed === '') return null;
    return collapsed.length > maxText ? `${collapsed.slice(0, maxText - 1)}…` : collapsed;
  };
  const isVisible = (el: Element): boolean => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const textOf = (el: Element): string | null => clean(el instanceof HTMLElement && isVisible(el) ? el.innerText : el.textContent);
  const implicitRole = (el: Element): string | null => {
    const tag = el.localName;
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : null;
    if (tag === 'input') {
      const type = (el as HTMLInputElement).type;
      if (INPUT_BUTTONS.has(type)) return 'button';
      if (type === 'text' && el.hasAttribute('list')) return 'combobox';
      return INPUT_ROLES[type] ?? null;
    }
    if (tag === 'select') return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    if (tag === 'img') return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    if (tag === 'form' || tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? (tag === 'form' ? 'form' : 'region') : null;
    return TAG_ROLES[tag] ?? null;
  };
  const roleOf = (el: Element): string | null => el.getAttribute('role')?.trim().split(/\s+/)[0] || implicitRole(el);
  const labelOf = (el: Element): string | null => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const text = labelledBy.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      if (clean(text)) return clean(text);
    }
    const ariaLabel = clean(el.getAttribute('aria-label'));
    if (ariaLabel) return ariaLabel;
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) {
      const text = clean([...labels].map((label) => label.textContent ?? '').join(' '));
      if (text) return text;
    }
    return clean(el.getAttribute('alt')) ?? clean(el.getAttribute('title'));
  };
  const nameOf = (el: Element, role: string): string | null => {
    const label = labelOf(el);
    if (label) return label;
    if (NAME_FROM_CONTENT.has(role)) return textOf(el);
    if (el.localName === 'input' && INPUT_BUTTONS.has((el as HTMLInputElement).type)) return clean((el as HTMLInputElement).value);
    return clean(el.getAttribute('placeholder'));
  };
  const relativeHref = (anchor: HTMLAnchorElement): string => {
    try {
      const target = new URL(anchor.href);
      return target.origin === location.origin ? `${target.pathname}${target.search}${target.hash}` : target.href;
    } catch {
      return anchor.getAttribute('href') ?? '';
    }
  };
  const tally = <T>(): Tally<T> => ({ entries: new Map<string, T>(), seen: new Set<string>() });
  /** Adds an entry once per key; a repeated key only runs `repeat` on the entry already built. */
  const add = <T>(list: Tally<T>, key: string, make: () => T, repeat?: (entry: T) => void): void => {
    const known = list.entries.get(key);
    if (known) {
      repeat?.(known);
      return;
    }
    if (list.seen.has(key)) return;
    list.seen.add(key);
    if (list.entries.size < maxPerKind) list.entries.set(key, make());
  };

  const testIds = tally<PageScan['testIds'][number]>();
  for (const el of document.querySelectorAll(`[${CSS.escape(testIdAttribute)}]`)) {
    const testId = el.getAttribute(testIdAttribute) ?? '';
    add(
      testIds,
      testId,
      () => {
        const text = textOf(el);
        const label = labelOf(el) ?? clean(el.getAttribute('placeholder'));
        return { testId, tag: el.localName, role: roleOf(el), text, label: label === text ? null : label, count: 1, visible: isVisible(el) };
      },
      (entry) => entry.count++,
    );
  }

  const fields = tally<PageScan['fields'][number]>();
  for (const el of document.querySelectorAll('input, textarea, select')) {
    const type = el.localName === 'input' ? (el as HTMLInputElement).type : el.localName;
    if (type === 'hidden' || INPUT_BUTTONS.has(type)) continue;
    const field = {
      type,
      label: labelOf(el),
      placeholder: clean(el.getAttribute('placeholder')),
      name: clean(el.getAttribute('name')),
      testId: el.getAttribute(testIdAttribute),
    };
    add(fields, JSON.stringify(field), () => field);
  }

  const roles = tally<PageScan['roles'][number]>();
  const headings = tally<PageScan['headings'][number]>();
  const links = tally<PageScan['links'][number]>();
  for (const el of document.body?.querySelectorAll('*') ?? []) {
    const role = roleOf(el);
    if (!role || (!NAMED_ROLES.has(role) && role !== 'heading') || !isVisible(el)) continue;
    if (role === 'heading') {
      const text = textOf(el);
      const level = Number(el.getAttribute('aria-level') ?? el.localName.slice(1)) || 2;
      if (text) add(headings, `${level} ${text}`, () => ({ level, text }));
      continue;
    }
    const name = nameOf(el, role);
    if (name) add(roles, `${role} ${name}`, () => ({ role, name, count: 1 }), (entry) => entry.count++);
    if (role === 'link' && el instanceof HTMLAnchorElement) {
      const link = { text: name ?? '', href: relativeHref(el), testId: el.getAttribute(testIdAttribute) };
      add(links, JSON.stringify(link), () => link);
    }
  }

  return {
    url: location.href,
    title: clean(document.title) ?? '',
    testIds: [...testIds.entries.values()],
    fields: [...fields.entries.values()],
    roles: [...roles.entries.values()],
    headings: [...headings.entries.values()],
    links: [...links.entries.values()],
    totals: {
      testIds: testIds.seen.size,
      fields: fields.seen.size,
      roles: roles.seen.size,
      headings: headings.seen.size,
      links: links.seen.size,
    },
  };
}
