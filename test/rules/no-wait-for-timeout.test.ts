import { describe, expect, it } from 'vitest';
import { fix, inTest, lint } from './harness.ts';

const RULE = 'no-wait-for-timeout';
const lines = (code: string) => lint(RULE, code).map((i) => i.line);

describe('no-wait-for-timeout', () => {
  it('accepts web-first waits and a local function named setTimeout', () => {
    expect(lines(inTest(`
  await expect(page.getByTestId('toast')).toBeVisible();
  await page.waitForURL('/done');
  await page.getByTestId('spinner').waitFor({ state: 'hidden' });
  test.setTimeout(120_000);
  const timers = { setTimeout: (ms: number) => ms };
  timers.setTimeout(10);`))).toEqual([]);
    const shadowed = `import { test } from '@playwright/test';
function setTimeout(ms: number) { return ms; }
test('x', async () => { setTimeout(5); });
`;
    expect(lines(shadowed)).toEqual([]);
  });

  it('reports waitForTimeout and setTimeout sleeps, with what to do instead', () => {
    const issues = lint(RULE, inTest(`
  await page.waitForTimeout(500);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await new Promise((r) => globalThis.setTimeout(r, 200));`));
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7]);
    expect(issues.every((i) => i.severity === 'error' && i.fixable)).toBe(true);
    expect(issues[0]!.message).toContain('wait for a condition instead');
    expect(issues[0]!.message).toContain('toBeVisible()');
    expect(issues[1]!.message).toContain('web-first assertion');
  });

  it('follows page aliases, popups, frames, page objects and computed members', () => {
    const code = `import { test, type Page } from '@playwright/test';

class Home {
  constructor(private readonly page: Page) {}
  async settle() { await this.page.waitForTimeout(300); }
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.waitForTimeout(100);
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup['waitForTimeout'](100);
  const method = 'waitForTimeout';
  await page.mainFrame()[method](100);
  await new Home(page).settle();
});
`;
    expect(lines(code)).toEqual([5, 10, 13, 15]);
  });

  it('sees setTimeout called through a node timers namespace', () => {
    const code = `import { test } from '@playwright/test';
import * as timers from 'timers';
test('x', async () => {
  await new Promise((r) => timers.setTimeout(r, 10));
});
`;
    expect(lines(code)).toEqual([4]);
  });

  // Known gap, reported to the lead: the rule matches the callee's name, so a renamed import of
  // timers/promises' setTimeout slips through. This test starts failing once the rule follows the binding.
  it('sees setTimeout from timers/promises imported under another name', () => {
    const code = `import { test } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
test('x', async () => {
  await sleep(1000);
});
`;
    expect(lines(code)).toEqual([4]);
  });

  it('autofixes by removing a sleep that is a statement of its own, and nothing else', () => {
    const before = inTest(`
  await page.getByTestId('save').click();
  await page.waitForTimeout(500);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await expect(page.getByTestId('saved')).toBeVisible();`);
    expect(fix(RULE, before)).toBe(inTest(`
  await page.getByTestId('save').click();
  await expect(page.getByTestId('saved')).toBeVisible();`));
  });

  it('reports but does not remove a sleep that is part of a larger expression', () => {
    const code = inTest(`  await Promise.all([page.waitForTimeout(500), page.getByTestId('go').click()]);`);
    expect(lint(RULE, code).map((i) => [i.line, i.fixable])).toEqual([[4, false]]);
    expect(fix(RULE, code)).toBe(code);
  });

  it('a delay inside a page.route handler simulates the server, not a wait of the test; one outside still counts', () => {
    const code = inTest(`
  await page.route('**/api/orders', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.fulfill({ json: [] });
  });
  await page.context().route('**/api/slow', (route) => setTimeout(() => route.continue(), 300));
  await new Promise((resolve) => setTimeout(resolve, 800));`);
    expect(lines(code)).toEqual([10]);
  });

  it('a callback setTimeout that settles no promise schedules app code the test hands the page, it waits for nothing', () => {
    const code = `import { test } from '@playwright/test';
import { appInit } from './helpers';
test('plugin hooks run later', async ({ page }) => {
  await appInit(page, {
    plugins: [
      function (hook) {
        hook.beforeEach((markdown, next) => {
          setTimeout(() => next(markdown), 100);
        });
      },
    ],
    routes: { '/async': async (route, matched, next) => { window.setTimeout(() => next('# done'), 100); } },
  });
  await page.evaluate(() => { setTimeout(() => document.body.classList.add('late'), 50); });
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  await new Promise((resolve) => { setTimeout(() => { console.log('slept'); resolve(undefined); }, 300); });
});
`;
    expect(lines(code)).toEqual([15, 16]);
  });

  it('a timer a handler clears when the awaited event comes is a fallback, not a sleep; one never cleared, or cleared where it cannot have run, sleeps', () => {
    // A dev server helper's stop(): wait for the child's exit, with a SIGKILL and a last resolve as fallbacks.
    const code = `import { test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
class Server {
  constructor(private child: ChildProcess) {}
  stop(): Promise<void> {
    return new Promise<void>((resolve) => {
      let killTimer: ReturnType<typeof setTimeout> | undefined;
      let giveUpTimer: ReturnType<typeof setTimeout> | undefined;
      const finished = () => {
        clearTimeout(killTimer);
        clearTimeout(giveUpTimer);
        resolve();
      };
      this.child.once('exit', finished);
      this.child.kill('SIGTERM');
      killTimer = setTimeout(() => {
        this.child.kill('SIGKILL');
        giveUpTimer = setTimeout(finished, 400);
      }, 2500);
    });
  }
}
test('stops', async ({ page }) => {
  let pause, nap: ReturnType<typeof setTimeout> | undefined;
  await new Promise((resolve) => { pause = setTimeout(resolve, 700); });
  await new Promise((resolve) => { nap = setTimeout(resolve, 900); if (page.isClosed()) clearTimeout(nap); });
  await new Promise((resolve) => setTimeout(resolve, 300));
});
`;
    expect(lines(code)).toEqual([25, 26, 27]);
  });
});
