import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserNotFoundError, CHROMIUM_ARGS, findBrowser, launchOptions } from '../../src/explore/browser.ts';

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

  it('fails with a message naming the fix when SCRIBE_BROWSER points nowhere', () => {
    const missing = path.join(dir, 'no-such-chromium');
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(BrowserNotFoundError);
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(`at SCRIBE_BROWSER=${missing}`);
    expect(() => findBrowser({ SCRIBE_BROWSER: missing })).toThrow(/npx playwright install chromium.*apt-get install chromium.*SCRIBE_BROWSER/s);
  });

  it('gives launch options with the browser found and the flags this network needs', () => {
    expect(launchOptions({ SCRIBE_BROWSER: chosen })).toEqual({ executablePath: chosen, args: CHROMIUM_ARGS, headless: true });
  });
});
