import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-conditional-in-test';
const header = "import { test, expect, type Page } from '@playwright/test';";
const lines = (code: string) => lint(RULE, code).map((i) => i.line);

describe('no-conditional-in-test', () => {
  it('accepts straight-line tests, and branches in helpers, hooks, browser callbacks and handlers', () => {
    const code = [
      header,
      'async function login(page: Page, admin: boolean) {',
      "  if (admin) await page.getByTestId('admin').click();",
      "  else await page.getByTestId('user').click();",
      '}',
      'test.beforeEach(async ({ page }, testInfo) => {',
      "  if (testInfo.retry > 0) await page.context().clearCookies();",
      '});',
      'test.afterEach(async ({ page }, testInfo) => {',
      '  if (testInfo.status !== testInfo.expectedStatus) await page.screenshot();',
      '});',
      "test('straight', async ({ page }) => {",
      '  await login(page, true);',
      "  const base = process.env.BASE_URL ?? '/';",
      '  await page.goto(base);',
      "  const count = await page.getByTestId('rows').evaluate((el) => (el.children.length > 2 ? 'many' : 'few'));",
      "  await page.evaluate(() => { if (window.scrollY > 0) window.scrollTo(0, 0); });",
      "  await page.route('**/api/**', (route) => {",
      "    if (route.request().method() === 'POST') return route.abort();",
      '    return route.continue();',
      '  });',
      "  const filter = (url: URL) => url.pathname === '/done' || url.pathname === '/ok';",
      "  page.on('dialog', (dialog) => (dialog.type() === 'alert' ? dialog.accept() : dialog.dismiss()));",
      '  await page.waitForURL(filter);',
      '  try {',
      "    await page.getByTestId('save').click();",
      '  } catch (error) {',
      "    console.log('save failed');",
      '    throw error;',
      '  } finally {',
      "    await page.screenshot({ path: 'after.png' });",
      '  }',
      "  await expect(page.getByTestId('count')).toHaveText(count);",
      '});',
    ].join('\n');
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags if, ternary, switch and logical statements in a test body', () => {
    const code = [
      header,
      "test('branches', async ({ page, isMobile }) => {",
      "  if (await page.getByTestId('cookie').isVisible()) {",
      "    await page.getByTestId('cookie-accept').click();",
      '  }',
      "  const menu = isMobile ? 'burger' : 'nav';",
      '  switch (menu) {',
      "    case 'burger': await page.getByTestId('burger').click(); break;",
      "    default: await page.getByTestId('nav').click();",
      '  }',
      "  isMobile && (await page.getByTestId('zoom').click());",
      "  await (isMobile || page.getByTestId('wide').click());",
      "  await expect(page.getByTestId('menu')).toBeVisible();",
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([3, 6, 7, 11, 12]);
    expect(issues[0]!.message).toMatch(/`if` in a test.*a test follows one path/);
    expect(issues[1]!.message).toContain('conditional expression');
    expect(issues[2]!.message).toContain('`switch`');
    expect(issues[3]!.message).toContain('`&&` used as a statement');
  });

  it('flags a catch that swallows a failure, including a promise .catch()', () => {
    const code = [
      header,
      "test('swallow', async ({ page }) => {",
      '  try {',
      "    await expect(page.getByTestId('banner')).toBeVisible();",
      '  } catch {',
      "    console.log('no banner');",
      '  }',
      "  await page.getByTestId('close').click().catch(() => {});",
      "  await page.getByTestId('x').click().catch((e) => { throw e; });",
      '  try {',
      "    await page.getByTestId('y').click();",
      '  } catch (error) {',
      '    const report = () => { throw error; };',
      '  }',
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([3, 8, 10]);
    expect(issues[0]!.message).toMatch(/swallows failures.*does not rethrow/);
    expect(issues[1]!.message).toContain('`.catch(…)` swallows');
  });

  it('checks every kind of test block, test.step bodies and functions defined inside a test', () => {
    const code = [
      "import { test as base } from '@playwright/test';",
      'const test = base.extend({});',
      "test.only('a', async ({ page }) => { if (page) await page.goto('/'); });",
      "test.fixme('b', async ({ page }) => { if (page) await page.goto('/'); });",
      "test('c', async ({ page }) => {",
      "  await test.step('open', async () => { if (page) await page.goto('/'); });",
      '  const open = async () => { if (page) await page.goto("/"); };',
      '  await open();',
      '});',
      "test.describe('group', () => {",
      "  base('d', async ({ page }) => { if (page) await page.goto('/'); });",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 6, 7, 11]);
  });

  it('does not follow a callback held in a variable into the browser or a handler', () => {
    const code = [
      header,
      "test('handlers', async ({ page }) => {",
      "  const handler = (route: any) => (route.request().method() === 'GET' ? route.continue() : route.abort());",
      "  await page.route('**/*', handler);",
      '  function inBrowser() { if (document.hidden) return 0; return 1; }',
      '  await page.evaluate(inBrowser);',
      "  const pick = (n: number) => (n > 1 ? page.getByTestId('wide') : page.getByTestId('narrow'));",
      '  await pick(2).click();',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([7]);
  });

  it('human suites: a throwing guard, a branch inside a polled callback, and a catch recorded for a later assertion are one path', () => {
    const code = inTest(`
  const token = process.env.API_TOKEN;
  if (!token) throw new Error('API_TOKEN must be set');
  await expect.poll(async () => ((await page.getByTestId('rows').count()) > 2 ? 'many' : 'few')).toBe('many');
  await expect(async () => {
    const text = await page.getByTestId('status').textContent();
    expect(text === 'ready' ? 1 : 0).toBe(1);
  }).toPass();
  let failed = false;
  try {
    await page.getByTestId('locked').click({ timeout: 500 });
  } catch {
    failed = true;
  }
  expect(failed).toBe(true);
  try {
    await page.getByTestId('maybe').click();
  } catch {
    console.log('ignored');
  }
  if (token.length > 3) await page.goto('/');`);
    expect(lint('no-conditional-in-test', code).map((i) => i.line)).toEqual([19, 24]);
  });

  it("flags a swallowed assertion's failure: a catch that records it, or a .then() rejection handler (the message says how long it waited, shorter in the proof's copy)", () => {
    const code = inTest(`
  let message = '';
  try {
    await expect(page.getByTestId('absent')).toBeVisible();
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).not.toContain('1500ms');
  const seen = await expect(page.getByTestId('absent')).toBeVisible().then(() => '', (error: Error) => error.message);
  await page.getByTestId('save').click().then(() => undefined, (error: Error) => { throw error; });
  await page.getByTestId('save').click().then(() => undefined);`);
    expect(lint('no-conditional-in-test', code).map((i) => i.line)).toEqual([6, 12]);
  });

  it('accepts skip guards, sort comparators and callbacks a local helper runs in the browser; the rest is still flagged', () => {
    const code = `${header}
async function inBrowser(page: Page, fn: () => unknown) {
  return page.evaluate(fn);
}
test('t', async ({ page, browserName }) => {
  if (browserName === 'webkit') {
    test.skip();
  }
  const rows = ['b', 'a'].sort((a, b) => (a < b ? -1 : 1));
  await inBrowser(page, () => (document.hidden ? 'hidden' : 'shown'));
  if (rows.length > 1) {
    await page.getByRole('button').click();
  }
  if (browserName === 'webkit') {
    test.skip();
    await page.reload();
  }
});
`;
    expect(lines(code)).toEqual([11, 14]);
  });

  it('a function that only computes a value shapes data (reduce, map, a recursive search); one that takes a step is a path of the test', () => {
    const code = [
      header,
      "test('data', async ({ page, request }) => {",
      "  const rows: Array<{ n: number; ok: boolean }> = await (await request.get('/api/rows')).json();",
      '  const max = rows.reduce((m, row) => (row.n > m ? row.n : m), 0);',
      "  const labels = rows.map((row) => { if (row.ok) return 'yes'; return 'no'; });",
      '  function find(node: any): any {',
      "    if (node && typeof node === 'object') { for (const key in node) { const hit = find(node[key]); if (hit) return hit; } }",
      '    return null;',
      '  }',
      "  await expect(page.getByTestId('max')).toHaveText(String(max) + labels.join() + find(rows));",
      '  rows.forEach((row) => { if (row.ok) expect(row.n).toBeGreaterThan(0); });',
      "  const open = (row: { ok: boolean }) => (row.ok ? page.getByTestId('ok') : page.getByTestId('ko'));",
      '  await open(rows[0]!).click();',
      "  const clickAll = (names: string[]) => names.map((name) => (name ? clickIt(name) : undefined));",
      '  clickAll([]);',
      '});',
      "async function clickIt(name: string) { await fetch(name); }",
    ].join('\n');
    expect(lines(code)).toEqual([11, 12, 14]);
  });

  it('a catch that tries the same step again, its last attempt uncaught, fails the test still; another step in the catch swallows', () => {
    const code = [
      header,
      "test('retry', async ({ page }) => {",
      "  const widthIs = async (w: number) => expect(page.getByTestId('img')).toHaveJSProperty('offsetWidth', w, { timeout: 1000 });",
      '  try {',
      '    await widthIs(153);',
      '  } catch {',
      '    try {',
      '      await widthIs(154);',
      '    } catch {',
      '      await widthIs(152);',
      '    }',
      '  }',
      '  try {',
      "    await expect(page.getByTestId('banner')).toBeVisible();",
      '  } catch {',
      "    await page.getByTestId('open-banner').click();",
      '  }',
      '  try {',
      '    await widthIs(10);',
      '  } catch {',
      '    try {',
      '      await widthIs(11);',
      '    } catch {}',
      '  }',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([13, 18, 21]);
  });

  it('accepts a branch on the parameters of the loop or function that declares the test: each generated test takes one path', () => {
    // The router suite's redirect specs: a test per scenario of a matrix, branching on its own scenario.
    const code = `${header}
const matrix = combinate({ scenario: ['navigate', 'direct_visit'], reloadDocument: [false, true] });
matrix.forEach(({ scenario, reloadDocument }) => {
  test(\`redirects: \${scenario}\`, async ({ page }) => {
    await page.goto(\`/redirect\${reloadDocument ? '?reload=1' : ''}\`);
    if (scenario === 'navigate') { await page.getByTestId('link').click(); } else { await page.goto('/target'); }
  });
});
for (const mode of ['build', 'dev'] as const) {
  test(\`builds in \${mode}\`, async ({ page }) => {
    switch (mode) { case 'build': await expect(page.getByTestId('a')).toBeVisible(); break; default: break; }
  });
}
// A wait chosen through a const computed from the scenario's parameters alone.
[{ warm: false, cached: true }, { warm: true, cached: false }].forEach(({ warm, cached }) => {
  test(\`prefetch: warm \${warm}\`, async ({ page }) => {
    const expectsPrefetch = warm && !cached;
    const patience = expectsPrefetch ? 4000 : 300;
    await page.goto(\`/shop\${cached ? '?cache=1' : ''}\`);
    await page.getByTestId('next').hover({ timeout: patience });
  });
});
[{ to: '/a' }, { to: '/b', search: { where: 'x' } }].forEach((options) => {
  test(\`loads \${options.to}\`, async ({ page }) => {
    let url: string = options.to;
    if ('search' in options) url = \`\${url}?where=\${options.search?.where}\`;
    await page.goto(url);
  });
});
`;
    expect(lines(code)).toEqual([]);
  });

  it('still reports a branch on what the test reads at run time, a fixture, a module constant, or a loop variable or parameter it reassigns (even by ++)', () => {
    const code = `${header}
const isSpaMode = process.env.MODE === 'spa';
['a', 'b'].forEach((name) => {
  test(\`runs \${name}\`, async ({ page, browserName }) => {
    if (isSpaMode) await expect(page.getByTestId(name)).toBeVisible();
    if (browserName === 'webkit') await page.reload();
    if (name === (await page.title())) await page.reload();
    const label = await page.getByTestId(name).textContent();
    if (label === name) await page.reload();
  });
});
for (let round of [1, 2]) {
  test(\`round \${round}\`, async ({ page }) => {
    round = Number(await page.title());
    if (round === 1) await page.reload();
  });
}
test('a plain test', async ({ page }) => {
  for (const step of ['a', 'b']) {
    if (step === 'a') await page.reload();
  }
});
[1, 2].forEach((attempt) => {
  test(\`attempt \${attempt}\`, async ({ page }) => {
    attempt++;
    if (attempt === 2) await page.reload();
  });
});
[true, false].forEach((warm) => {
  test(\`warm \${warm}\`, async ({ page }) => {
    const shown = warm && (await page.getByTestId('banner').isVisible());
    const fromModule = warm && isSpaMode;
    let changing = warm;
    changing = !changing;
    await page.goto(shown ? '/a' : '/b');
    await page.goto(fromModule ? '/a' : '/b');
    await page.goto(changing ? '/a' : '/b');
  });
});
`;
    expect(lines(code)).toEqual([5, 6, 7, 9, 15, 20, 26, 35, 36, 37]);
  });

  it('accepts a loop of the test that skips data records with continue; reports one that skips steps or leaves on the page’s word', () => {
    // The router suite's import-protection spec: trace steps filtered before each is checked.
    const code = `${header}
test('trace steps have lines', async ({ page }) => {
  const trace = await readTrace();
  for (let i = 1; i < trace.length; i++) {
    const step = trace[i];
    if (step.specifier?.includes('?split')) continue;
    if (step.line == null && step.file.startsWith('src/')) { continue; }
    expect(step.line).toBeGreaterThan(0);
  }
  for (const row of await page.getByRole('row').all()) {
    if (await row.isHidden()) continue;
    if (row) break;
    if (trace.length > 3) return;
    await expect(row).toBeVisible();
  }
});
`;
    expect(lines(code)).toEqual([11, 12, 13]);
  });

  it('accepts branches in a timer callback that samples the page beside the test, as in a handler', () => {
    const code = `${header}
test('no flash', async ({ page }) => {
  const texts: string[] = [];
  const poll = setInterval(async () => {
    const text = await page.locator('body').textContent().catch(() => '');
    if (text) texts.push(text);
  }, 50);
  await page.getByTestId('increase').click();
  clearInterval(poll);
  if (texts.length > 0) await page.reload();
});
`;
    expect(lines(code)).toEqual([10]);
  });

  it('accepts a timer callback on every name of the global object; a local object of such a name runs the callback in the test', () => {
    const code = `${header}
test('no flash', async ({ page }) => {
  const texts: string[] = [];
  const poll = self.setInterval(async () => {
    const text = await page.locator('body').textContent();
    if (text) texts.push(text);
  }, 50);
  global.setTimeout(async () => { if (texts.length > 9) await page.getByTestId('pause').click(); }, 10);
  (window as Window).setTimeout(async () => { if (!texts.length) await page.getByTestId('pause').click(); }, 10);
  clearInterval(poll);
});
test('own scheduler', async ({ page }) => {
  const self = { setTimeout: (run: () => Promise<void>) => run() };
  await self.setTimeout(async () => {
    if (await page.getByTestId('banner').isVisible()) await page.getByTestId('close').click();
  });
});
`;
    expect(lines(code)).toEqual([15]);
  });

  it("checks tests declared with the suite's own wrapper (a test.extend under another name) as tests", () => {
    const code = `import { expect, testWithHydration } from './fixtures';
import { seed } from './helpers';
testWithHydration('streams', async ({ page }) => {
  if (await page.getByTestId('fallback').isVisible()) await page.reload();
  await expect(page.getByTestId('data')).toBeVisible();
});
seed('users', async ({ db }) => {
  if (await db.count()) return;
});
`;
    expect(lines(code)).toEqual([4]);
  });

  it('leaves a setup or teardown step that only prepares state alone, as a hook; one that drives the page is checked', () => {
    // The router suite's mock-db-teardown.test.ts: delete the user if it is there.
    const code = `import { test as teardown } from '@playwright/test';
import { db } from './db';
teardown('clean database', async () => {
  if (await db.user.findUnique({ where: { email: 'a@b.c' } })) await db.user.delete({ where: { email: 'a@b.c' } });
});
teardown('sign out', async ({ page }) => {
  if (await page.getByTestId('logout').isVisible()) await page.getByTestId('logout').click();
});
`;
    expect(lines(code)).toEqual([7]);
  });
});
