import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'allowed-paths';
const issues = (code: string) => lint(RULE, code);
const lines = (code: string) => issues(code).map((i) => i.line);
const header = "import { test, expect } from '@playwright/test';";

describe('allowed-paths: files', () => {
  it("accepts relative paths without '..' and testInfo.outputPath, directly or through constants", () => {
    const code = [
      header,
      "const SHOTS = 'screenshots';",
      "test('x', async ({ page, browser }, testInfo) => {",
      "  await page.screenshot({ path: 'screenshots/home.png', fullPage: true });",
      '  await page.screenshot({ path: `${SHOTS}/login.png` });',
      "  await page.screenshot({ path: testInfo.outputPath('dashboard.png') });",
      "  await page.screenshot({ path: test.info().outputPath('shots', 'b.png') });",
      "  const options = { path: 'screenshots/c.png' };",
      '  await page.screenshot(options);',
      '  await page.screenshot();',
      "  await page.getByTestId('avatar').setInputFiles('fixtures/avatar.png');",
      "  await page.getByTestId('avatar').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });",
      "  const download = await page.waitForEvent('download');",
      "  await download.saveAs(testInfo.outputPath(download.suggestedFilename()));",
      "  await expect(page).toHaveScreenshot('home.png');",
      "  await testInfo.attach('note', { body: 'text', contentType: 'text/plain' });",
      "  const other = await browser.newContext({ recordVideo: { dir: 'videos' }, storageState: { cookies: [], origins: [] } });",
      "  await page.context().storageState({ path: 'state/auth.json' });",
      '  await other.close();',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it("refuses absolute paths, '..', and paths computed at run time, wherever the options come from", () => {
    const code = inTest(
      [
        "  await page.screenshot({ path: '/tmp/x.png' });",
        "  await page.screenshot({ path: '../../../../tmp/x.png' });",
        "  await page.screenshot({ path: 'C:\\\\x.png' });",
        "  const shot = { path: '/tmp/y.png' };",
        '  await page.screenshot(shot);',
        "  const name = ['', 'tmp', 'z.png'].join('/');",
        '  await page.screenshot({ path: name });',
        "  let later = 'a.png';",
        '  await page.screenshot({ path: later });',
        "  await page.context().storageState({ path: '/tmp/state.json' });",
        "  await page.getByTestId('upload').setInputFiles(['ok.txt', '/etc/passwd']);",
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6, 7, 10, 12, 13, 14]);
    expect(issues(code)[0]!.message).toBe(
      "screenshot() option `path`: \"/tmp/x.png\" is an absolute path, outside the test's output folder; use a relative path without '..' (such as 'screenshots/home.png') or testInfo.outputPath('home.png').",
    );
  });

  it('refuses options it cannot see: a parameter, a spread of unknown data, getters and computed keys', () => {
    const code = [
      header,
      'async function shoot(page: any, options: any) { await page.screenshot(options); }',
      "test('x', async ({ page }, testInfo) => {",
      "  await page.screenshot({ ...JSON.parse('{}') });",
      "  await page.screenshot({ get path() { return '/tmp/x'; } });",
      "  const key = ['pa', 'th'].join('');",
      "  await page.screenshot({ [key]: '/tmp/x' });",
      "  await testInfo.attach('host', { path: '/etc/hostname' });",
      "  const fake = { outputPath: (name: string) => '/etc/' + name };",
      "  await page.screenshot({ path: fake.outputPath('x') });",
      "  await shoot(page, {});",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([2, 4, 5, 7, 8, 10]);
  });

  it('checks storageState, recordHar and recordVideo in test.use and newContext, and snapshot names', () => {
    const code = [
      header,
      "test.use({ storageState: '/root/auth.json' });",
      "test('x', async ({ page, browser }) => {",
      "  await browser.newContext({ recordHar: { path: '/tmp/h.har' } });",
      "  await browser.newContext({ recordVideo: { dir: '../../tmp' } });",
      "  await expect(page).toHaveScreenshot('../../x.png');",
      "  await page.route('**/a', (route) => route.fulfill({ path: '/etc/hostname' }));",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([2, 4, 5, 6, 7]);
  });
});

describe('allowed-paths: options that hold files or URLs', () => {
  it('checks baseURL, proxy servers and client certificates, and wants their containers written out', () => {
    const code = [
      header,
      "test.use({ baseURL: 'file:///' });",
      "test('x', async ({ browser }) => {",
      "  await browser.newContext({ proxy: { server: 'http://127.0.0.1:9' } });",
      "  await browser.newContext({ clientCertificates: [{ origin: 'https://x', certPath: '/etc/key.pem' }] });",
      "  const certificates = JSON.parse('[]');",
      '  await browser.newContext({ clientCertificates: certificates });',
      "  await browser.newContext({ clientCertificates: [{ origin: 'https://x', certPath: 'certs/client.pem' }], baseURL: process.env.BASE_URL });",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([2, 4, 5, 7]);
  });
});

describe('allowed-paths: navigation', () => {
  it('accepts paths under baseURL and BASE_URL, for pages and API requests', () => {
    const code = [
      header,
      "const HOME = '/home';",
      "test('x', async ({ page, baseURL, request }) => {",
      "  await page.goto('/login');",
      "  await page.goto('login?next=%2F');",
      '  await page.goto(HOME);',
      "  await page.goto(`/items/${String(1)}`);",
      "  const response = await request.get('/api/items?page=1');",
      "  await page.goto(process.env.BASE_URL ?? '/');",
      "  await page.goto(`${process.env.BASE_URL}/login`);",
      "  await page.goto(baseURL + '/x');",
      "  const base = process.env.BASE_URL!;",
      "  await page.goto(base + '/y');",
      "  await page.request.post(`${base}/api/items`, { data: { title: 'x' } });",
      "  const params = new URL(page.url()).searchParams;",
      "  const cache = new Map<string, string>();",
      "  expect(params.get(String(response.status())) ?? cache.get(String(1))).toBeNull();",
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('refuses absolute URLs (file:, data:, chrome:, another host) and URLs whose start is computed at run time', () => {
    const code = inTest(
      [
        "  await page.goto('file:///etc/hostname');",
        "  await page.goto(['file:', '', '', 'etc', 'hostname'].join('/'));",
        "  await page.goto('data:text/html,hi');",
        "  await page.goto('CHROME://version');",
        "  await page.goto('fi' + 'le:///etc/hostname');",
        "  let scheme = 'https:';",
        '  await page.goto(`${scheme}//x`);',
        "  const where = String(process.env.E2E_USERNAME);",
        '  await page.goto(where);',
        "  await page.goto('https://example.com/');",
        "  await page.request.get('http://127.0.0.1:9/?p=' + process.env.E2E_PASSWORD);",
        "  await page.route('**/x', (route) => route.fetch({ url: 'http://127.0.0.1:9/' }));",
        '  async function send(api: any, url: string) { await api.post(url); }',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16]);
    expect(issues(code)[0]!.message).toBe(
      "goto(): an absolute \"file:\" URL leaves the app; generated code reaches only the app. Reach the app with a path under baseURL, such as page.goto('/login') or request.get('/api/items').",
    );
  });
});

describe('allowed-paths: URLs as the browser parses them', () => {
  it('refuses protocol-relative, backslash and whitespace-prefixed URLs (WHATWG URL against a base), and hosts glued after baseURL', () => {
    const code = [
      header,
      "test('x', async ({ page, baseURL, request }) => {",
      "  await page.goto('//127.0.0.1:9/secret');",
      "  await page.goto('/\\\\127.0.0.1:9/secret');",
      "  await page.goto('\\\\/127.0.0.1:9/secret');",
      "  await page.goto('\\t//127.0.0.1:9/');",
      "  await page.goto('/\\t/127.0.0.1:9/');",
      "  await page.goto(' http://127.0.0.1:9/');",
      "  await request.get('http:127.0.0.1:9/');",
      '  await page.goto(`${baseURL}@127.0.0.1:9/`);',
      "  await page.goto(baseURL + '.evil.test/');",
      "  const id = String(Math.random());",
      "  await page.goto('/' + id);",
      '  await page.goto(`${baseURL}${id}`);',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]);
    expect(issues(code)[0]!.message).toContain('names another host: a URL starting with // or a backslash');
  });

  it('accepts what stays on the app: paths, queries, fragments, relative paths and a fixed first segment before a computed rest', () => {
    const code = [
      header,
      "test('x', async ({ page, baseURL }) => {",
      "  const id = String(Math.random());",
      "  await page.goto('/items/' + id);",
      '  await page.goto(`/search?q=${id}`);',
      "  await page.goto('#top');",
      "  await page.goto('./settings');",
      '  await page.goto(`items/${id}`);',
      '  await page.goto(`${baseURL}/items/${id}`);',
      '  await page.goto(`${baseURL}?tab=${id}`);',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });
});

describe('allowed-paths: every way of calling a method', () => {
  it('checks element-access calls, `(0, x.y)()` calls and refuses tagged templates on checked methods', () => {
    const code = [
      header,
      "test('x', async ({ page, browser }) => {",
      "  await page['goto']('file:///etc/hostname');",
      "  const context = await browser['newContext']({ baseURL: 'file:///' });",
      "  await (0, page.goto)('chrome://version');",
      '  await page.goto`file:///etc/hostname`;',
      "  await page.request['post']('//127.0.0.1:9/', { data: {} });",
      "  await page['screenshot']({ path: '/tmp/x.png' });",
      '  await context.close();',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(issues(code).find((i) => i.line === 6)!.message).toContain('call it with parentheses');
  });

  it("checks route.continue and route.fallback options and a new page's options", () => {
    const code = [
      header,
      "test('x', async ({ page, browser }) => {",
      "  await page.route('**/api/**', (route) => route.continue({ url: 'http://127.0.0.1:9/' }));",
      "  await page.route('**/api/**', (route) => route.fallback({ url: '//127.0.0.1:9/' }));",
      "  await page.route('**/api/**', (route) => route.continue({ url: '/api/v2/items' }));",
      "  const other = await browser.newPage({ baseURL: '//127.0.0.1:9' });",
      '  await other.close();',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 6]);
  });
});

describe("allowed-paths: URLs through the spec's own helpers, tables and constants", () => {
  it('follows a parameter to every call of a helper or page-object method, rows of a table and properties of a constant object', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      "const ROUTES = { home: '/', cart: '/cart' };",
      "const PAGES = [{ path: '/a' }, { path: '/b' }] as const;",
      'class Shop {',
      '  constructor(private readonly page: Page) {}',
      '  async open(path: string) { await this.page.goto(path); }',
      '}',
      "async function visit(page: Page, where = '/') { await page.goto(where); }",
      "test('x', async ({ page }) => {",
      '  const shop = new Shop(page);',
      '  await shop.open(ROUTES.cart);',
      "  await shop.open('/orders');",
      '  await visit(page);',
      '  await visit(page, ROUTES.home);',
      '  for (const { path } of PAGES) await page.goto(path);',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('refuses a helper called with another host, handed on as a value, or a constant whose property is rewritten', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      "const ROUTES = { home: '/' };",
      "async function visit(page: Page, where: string) { await page.goto(where); }",
      "async function go(where: string) { await test.info().attach(where); }",
      "async function open(page: Page, where: string) { await page.goto(where); }",
      "test('x', async ({ page }) => {",
      "  await visit(page, '//127.0.0.1:9/');",
      "  ROUTES.home = 'file:///etc/hostname';",
      '  await page.goto(ROUTES.home);',
      "  ['file:///etc/hostname'].forEach((url) => open(page, url));",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 5, 9]);
    expect(issues(code)[0]!.message).toContain('(passed at line 7)');
  });
});

describe('allowed-paths: a constant no code changes', () => {
  const spec = (body: string[]) =>
    [header, "const ROUTES = { home: '/' };", "const PAGES = [{ path: '/a' }, { path: '/b' }];", "const LIST = ['/a', '/b'];", "test('x', async ({ page }) => {", ...body, '});'].join('\n');
  const visitsHome = '  await page.goto(ROUTES.home);';
  const walksPages = '  for (const { path } of PAGES) await page.goto(path);';
  const walksList = '  for (const path of LIST) await page.goto(path);';

  it('reads a constant object, a table and their const aliases, however often', () => {
    const code = spec([visitsHome, "  expect(ROUTES.home).toBe('/');", walksPages, walksList, '  expect(PAGES.length).toBe(2);', '  const ALSO = PAGES;', '  for (const { path } of ALSO) await page.goto(path);']);
    expect(issues(code)).toEqual([]);
  });

  // Each of these changed the URL before it was visited and passed the gate: the writes were found by the
  // access's own parent, not through `as`/`satisfies`/`<T>`, a cast receiver, an alias or a method call.
  it.each([
    ['a write through `as`', ["  (ROUTES.home as string) = 'file:///etc/hostname';", visitsHome]],
    ['a write through `satisfies`', ["  (ROUTES.home satisfies string) = 'file:///etc/hostname';", visitsHome]],
    ['a write to a cast receiver', ["  (ROUTES as any).home = 'file:///etc/hostname';", visitsHome]],
    ['a write through a const alias', ['  const SAME = ROUTES;', "  SAME.home = 'file:///etc/hostname';", visitsHome]],
    ['a for…of that assigns the property', ["  for (ROUTES.home of ['file:///etc/hostname']) {}", visitsHome]],
    ['a row pushed onto a table', ["  PAGES.push({ path: 'file:///etc/hostname' });", walksPages]],
    ['an element written', ["  LIST[0] = 'file:///etc/hostname';", walksList]],
    ['an element written through a cast', ["  (LIST as string[])[0] = 'file:///etc/hostname';", walksList]],
    ['splice', ["  LIST.splice(0, 1, 'file:///etc/hostname');", walksList]],
    ['fill', ["  LIST.fill('file:///etc/hostname');", walksList]],
  ])('refuses a URL read from a constant changed by %s', (_, body) => {
    const code = spec(body);
    expect(lines(code)).toEqual([5 + body.length]);
    expect(issues(code)[0]!.message).toMatch(/goto\(\): the URL (is computed at run time|comes from a value the analysis cannot follow)/);
  });
});

describe('allowed-paths: attachment names', () => {
  it("refuses names Scribe or Playwright read as their own evidence, and names computed at run time", () => {
    const code = inTest(
      [
        "  await test.info().attach('cart-summary', { body: 'ok', contentType: 'text/plain' });",
        "  await test.info().attach('scribe-evidence', { body: '{}' });",
        "  await test.info().attach('error-context', { body: 'page snapshot' });",
        "  await test.info().attach(String(Math.random()), { body: 'x' });",
      ].join('\n'),
    );
    expect(lines(code)).toEqual([5, 6, 7]);
  });
});

describe("allowed-paths: testInfo.outputPath() only as a file's path (its folder differs in the proof's copy)", () => {
  const withTestInfo = (body: string[]) => [header, "test('x', async ({ page, browser }, testInfo) => {", ...body, '});'].join('\n');

  it("accepts it as the path a call writes or reads a file at, directly, through a ?: branch or a const used only there", () => {
    const code = withTestInfo([
      "  await page.screenshot({ path: testInfo.outputPath('home.png') });",
      "  await page.screenshot({ path: (test.info().outputPath('shots', 'b.png') as string) });",
      "  await page.screenshot({ path: page.url().endsWith('/') ? testInfo.outputPath('root.png') : 'other.png' });",
      "  const file = testInfo.outputPath('cart.png');",
      '  await page.screenshot({ path: file });',
      "  await testInfo.attach('cart', { path: file });",
      "  await page.getByTestId('avatar').setInputFiles(file);",
      "  const download = await page.waitForEvent('download');",
      '  await download.saveAs(testInfo.outputPath(download.suggestedFilename()));',
      "  const other = await browser.newContext({ recordVideo: { dir: testInfo.outputPath('videos') } });",
      "  await other.storageState({ path: testInfo.outputPath('state', 'auth.json') });",
      "  const unused = testInfo.outputPath('later.png');",
      '  await other.close();',
    ]);
    expect(issues(code)).toEqual([]);
  });

  it('refuses it read, compared, stored or passed on as a value, and every evasion of that: aliases, destructuring, String(), templates, a helper', () => {
    const code = [
      header,
      'function isCopy(where: string) {',
      "  return where.includes('proof');",
      '}',
      "test('x', async ({ page }, testInfo) => {",
      "  expect(testInfo.outputPath('a.png')).not.toContain('proof');",
      "  expect(testInfo.outputPath('a.png').length).toBeLessThan(200);",
      "  const p = testInfo.outputPath('a.png');",
      '  await page.screenshot({ path: p });',
      "  expect(p).toMatch(/search/);",
      '  const alias = testInfo.outputPath;',
      "  const { outputPath } = testInfo;",
      "  expect(String(test.info().outputPath('x'))).toContain('x');",
      "  await page.getByRole('textbox').fill(`${testInfo.outputPath('x')}`);",
      "  expect(isCopy(testInfo.outputPath('x'))).toBe(false);",
      "  await page.screenshot({ path: testInfo.outputPath('a.png') + '' });",
      "  const bound = testInfo.outputPath.bind(testInfo);",
      "  const list = [testInfo.outputPath('y.png')];",
      '});',
      "test('y', async ({ page }, { outputPath }) => {",
      "  await page.screenshot({ path: outputPath('a.png') });",
      '});',
    ].join('\n');
    // Line 16 is also a path computed at run time, line 21 a call allowed-paths cannot tell is outputPath's.
    expect(lines(code)).toEqual([6, 7, 10, 11, 12, 13, 14, 15, 16, 16, 17, 18, 20, 21]);
    expect(issues(code)[0]!.message).toContain("its path differs in the proof's copy of the spec");
  });

  it('refuses the output folder itself (no file named in it), and an upload whose name is computed at run time', () => {
    const code = withTestInfo([
      "  await page.getByTestId('folder').setInputFiles(testInfo.outputPath());",
      "  await page.getByTestId('folder').setInputFiles(testInfo.outputPath('.'));",
      "  await page.getByTestId('folder').setInputFiles(testInfo.outputPath('a', '..'));",
      "  await page.getByTestId('folder').setInputFiles(testInfo.outputPath(await page.title()));",
      "  await page.screenshot({ path: testInfo.outputPath('') });",
      "  await page.getByTestId('folder').setInputFiles(testInfo.outputPath('shots'));",
    ]);
    expect(lines(code)).toEqual([3, 4, 5, 6, 7]);
    expect(issues(code)[0]!.message).toContain("names the test's output folder itself");
  });
});
