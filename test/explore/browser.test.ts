import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCandidates, BrowserNotFoundError, CHROMIUM_ARGS, findBrowser, launchingBrowser, launchOptions } from '../../src/explore/browser.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'scribe-browser-'));
// findBrowser checks that the executable exists; an empty file stands for a Chromium of the user's choice.
const chosen = path.join(dir, 'my-chromium');
writeFileSync(chosen, '');
chmodSync(chosen, 0o755);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findBrowser', () => {
  it('takes SCRIBE_BROWSER first, even when another Chromium is installed', () => {
    expect(findBrowser({ SCRIBE_BROWSER: chosen })).toEqual({ executablePath: chosen, source: 'SCRIBE_BROWSER' });
  });

  it('falls back to Playwright\'s browser or a system Chromium without SCRIBE_BROWSER', () => {
    const found = findBrowser({});
    expect(['playwright', 'system']).toContain(found.source);
    expect(existsSync(found.executablePath)).toBe(true);
  });

  it("looks for Debian's headless shell before its full Chromium, both after Playwright's own", () => {
    const candidates = browserCandidates({});
    expect(candidates.indexOf('/usr/bin/chromium-headless-shell')).toBeGreaterThanOrEqual(0);
    expect(candidates.indexOf('/usr/bin/chromium-headless-shell')).toBeLessThan(candidates.indexOf('/usr/bin/chromium'));
    expect(candidates[0]).toBe(chromium.executablePath());
  });

  it('fails with a message naming the fix when SCRIBE_BROWSER points nowhere', () => {
    const missing = path.join(dir, 'no-such-chromium');
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(BrowserNotFoundError);
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(`at SCRIBE_BROWSER=${missing}`);
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(/npx playwright install chromium.*apt-get install chromium-headless-shell.*SCRIBE_BROWSER/s);
  });

  it('gives launch options with the browser found and the flags this network needs', () => {
    expect(launchOptions({ SCRIBE_BROWSER: chosen })).toEqual({ executablePath: chosen, args: CHROMIUM_ARGS, headless: true });
  });
});

describe('launchingBrowser: Scribe\'s browser launched before the work that needs it', () => {
  it('hands over the launch under way; its teardown starts the close, which close() waits for', async () => {
    const early = launchingBrowser(process.env);
    const { value: { browser }, teardown } = await early.setup(undefined);
    const page = await browser.newPage();
    await page.setContent('<h1>launched early</h1>');
    await expect(page.locator('h1').textContent()).resolves.toBe('launched early');
    expect(teardown()).toBeUndefined();
    await early.close();
    expect(browser.isConnected()).toBe(false);
  });

  it('hands over a blank page opened meanwhile, in a context of its own with nothing in it', async () => {
    const early = launchingBrowser(process.env);
    try {
      const { value: { browser, blankPage } } = await early.setup(undefined);
      expect(blankPage?.url()).toBe('about:blank');
      const context = blankPage!.context();
      expect(browser.contexts()).toEqual([context]);
      expect(context.pages()).toEqual([blankPage]);
      expect(await context.cookies()).toEqual([]);
    } finally {
      await early.close();
    }
  });

  it('closes a browser nobody used', async () => {
    const early = launchingBrowser(process.env);
    await early.close();
    const { value: { browser } } = await early.setup(undefined);
    expect(browser.isConnected()).toBe(false);
  });

  it('gives a failed launch to the setup that uses it, and closes quietly when nobody does', async () => {
    const missing = path.join(dir, 'no-such-chromium');
    const used = launchingBrowser({ SCRIBE_BROWSER: missing });
    await expect(used.setup(undefined)).rejects.toThrow(BrowserNotFoundError);
    await expect(used.close()).resolves.toBeUndefined();
    // Never used: its failure is nobody's (vitest fails a run on an unhandled rejection).
    await expect(launchingBrowser({ SCRIBE_BROWSER: missing }).close()).resolves.toBeUndefined();
  });
});
