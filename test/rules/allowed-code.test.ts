import { describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { Validator } from '../../src/validate/validator.ts';
import { inTest, lint, SPEC_FILE } from './harness.ts';

const RULE = 'allowed-code';
const issues = (code: string) => lint(RULE, code);
const lines = (code: string) => [...new Set(issues(code).map((i) => i.line))];
const header = "import { test, expect } from '@playwright/test';";

describe("allowed-code: the project's own objects do not open a way around the list", () => {
  const project = "import { test, expect } from './fixtures';\nimport { SearchPage } from './pages/search-page';";
  it.each([
    ['a prototype or constructor of a project object', "test('t', async ({ searchPage }) => { searchPage.constructor('return process')(); });"],
    ['a private internal of a project object', "test('t', async ({ searchPage }) => { await searchPage._connection.send(); });"],
    ['an unlisted member of what a project method returns', "test('t', async ({ searchPage }) => { await searchPage.browser().browserType().launch(); });"],
    ["a fixture destructured from test.step's argument", "test('t', async ({ page }) => { await test.step('s', async ({ anything }: any) => anything.launch()); });"],
    ['a parameter of a helper called with anything', "const f = async ({ searchPage }: any) => searchPage.launch();\ntest('t', async ({ page }) => { await f({ searchPage: page.context().browser() }); });"],
    ['a variable that may be reassigned', "test('t', async ({ page }) => { let sp: any = new SearchPage(page); sp = page.context().browser(); await sp.newBrowserCDPSession(); });"],
    ["Playwright's own fixture under a project test", "test('t', async ({ browser }) => { await browser.newBrowserCDPSession(); });"],
  ])('refuses %s', (_, body) => {
    expect(issues(`${project}\n${body}`).length).toBeGreaterThan(0);
  });

  it("refuses a fixture of @playwright/test's own test (no project module defines it)", () => {
    expect(issues(`${header}\ntest('t', async ({ searchPage }: any) => { await searchPage.launch(); });`).length).toBeGreaterThan(0);
  });
});

describe('allowed-code: a page object of the spec', () => {
  const pageObject = (use: string) => `${header}
import type { Page } from '@playwright/test';
class Newsletter {
  constructor(private readonly page: Page) {}
  get email() { return this.page.getByLabel('Email'); }
  status() { return this.page.getByRole('status'); }
}
test('subscribes', async ({ page }) => {
  const newsletter = new Newsletter(page);
  ${use}
});`;

  it('reads its getters, which run on their own object', () => {
    expect(issues(pageObject("await newsletter.email.fill('reader@example.com');"))).toEqual([]);
  });

  it('refuses a method handed on without its object, whose this could become anything', () => {
    expect(issues(pageObject("page.on('load', newsletter.status);")).map((i) => i.message)).toEqual([expect.stringContaining('hands on a method without its object')]);
  });
});

describe('allowed-code: what a good generated spec writes passes', () => {
  it('accepts test, expect, fixtures and their methods, steps, web-first assertions and declared env variables', () => {
    const code = [
      header,
      "test('logs in', async ({ page, context, baseURL }, testInfo) => {",
      "  await test.step('open', async () => { await page.goto('/login'); });",
      "  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');",
      "  const { E2E_PASSWORD } = process.env;",
      "  await page.getByTestId('password-input').fill(E2E_PASSWORD ?? '');",
      "  await page.getByRole('button', { name: 'Log in' }).click();",
      "  await expect(page).toHaveURL(/dashboard/);",
      "  await expect.soft(page.getByTestId('items')).toHaveCount(3);",
      "  await expect(page.getByTestId('title')).not.toHaveText('Error');",
      "  const popupPromise = page.waitForEvent('popup');",
      "  const [popup] = await Promise.all([popupPromise, page.getByTestId('help').click()]);",
      "  await expect(popup.getByTestId('help-title')).toBeVisible();",
      "  page.on('dialog', (dialog) => dialog.accept());",
      "  await page.screenshot({ path: testInfo.outputPath('dashboard.png') });",
      "  expect(context.pages().length + String(baseURL).length).toBeGreaterThan(0);",
      "  console.log(testInfo.title, Math.round(Date.now() / 1000), new URL('/x', 'http://a').pathname, JSON.stringify({ a: [1, 2].map((n) => n * 2) }));",
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('accepts page objects as local classes, helper functions, data tables and test.extend fixtures', () => {
    const code = [
      "import { test as base, expect, type Page, type Locator } from '@playwright/test';",
      'class LoginPage {',
      '  readonly submit: Locator;',
      '  constructor(private readonly page: Page) {',
      "    this.submit = page.getByTestId('login-button');",
      '  }',
      '  async open() { await this.page.goto(\'/login\'); }',
      '  async login(user: string, password: string) {',
      "    await this.page.getByTestId('username-input').fill(user);",
      "    await this.page.getByTestId('password-input').fill(password);",
      '    await this.submit.click();',
      '  }',
      '}',
      'async function expectWelcome(page: Page, name: string) {',
      "  await expect(page.getByTestId('welcome-message')).toContainText(name);",
      '}',
      "const USERS = [{ name: 'ada', role: 'admin' }, { name: 'bob', role: 'viewer' }] as const;",
      "const settings = { timeouts: { short: 500 }, labels: ['a', 'b'] };",
      'const test = base.extend<{ loginPage: LoginPage }>({',
      '  loginPage: async ({ page }, use) => { await use(new LoginPage(page)); },',
      '});',
      "test.describe('login', () => {",
      "  test.describe.configure({ mode: 'serial' });",
      '  let shared: Page;',
      '  test.beforeEach(async ({ loginPage }) => { await loginPage.open(); });',
      '  for (const user of USERS) {',
      '    test(`logs in as ${user.name}`, async ({ page, loginPage }) => {',
      "      await loginPage.login(user.name, process.env.E2E_PASSWORD ?? '');",
      '      await expectWelcome(page, user.name + user.role + settings.labels[0] + settings.timeouts.short);',
      '      shared = page;',
      '      expect(shared).toBeTruthy();',
      '    });',
      '  }',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('accepts JSON read from responses, the project fixtures module, devices and browser-side functions', () => {
    const code = [
      "import { test, expect, devices } from '@playwright/test';",
      "import { test as authed } from './fixtures';",
      "test.use({ ...devices['Pixel 7'], locale: 'en-GB' });",
      "test('api', async ({ request, page }) => {",
      "  const response = await request.get('/api/items');",
      '  await expect(response).toBeOK();',
      '  const body = await response.json();',
      '  expect(body.items[0].title).toBe(body.first.title);',
      '  const { total, items } = await response.json();',
      '  expect(items.map((item: { id: string }) => item.id)).toHaveLength(total);',
      '  const title = await page.evaluate(() => document.title + window.location.href);',
      "  const rows = JSON.parse('[{\"id\":1}]');",
      '  for (const row of rows) expect(row.id).toBe(1);',
      '  expect(title).toBeTruthy();',
      '});',
      "authed('uses a project fixture', async ({ adminPage }) => {",
      "  await expect(adminPage.getByTestId('dashboard')).toBeVisible();",
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it("accepts the members of the project's own code: its fixtures as its test passes them, its page objects and helpers imported", () => {
    const code = [
      "import { test, expect } from './fixtures';",
      "import { SearchPage } from './pages/search-page';",
      "import * as helpers from './helpers';",
      'test.beforeEach(async ({ searchPage }) => {',
      '  await searchPage.open();',
      '});',
      "test('searches', async ({ searchPage, page }) => {",
      "  await searchPage.searchFor('milk');",
      "  await expect(searchPage.results).toContainText('Milk');",
      '  const other = new SearchPage(page);',
      '  await other.open();',
      '  await helpers.signIn(page);',
      "  await expect(page.getByTestId('total')).toHaveText(helpers.money(250));",
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });
});

describe('allowed-code: globals, process and modules', () => {
  it('refuses globals off the list, wherever they are read', () => {
    const code = inTest(
      [
        "  await fetch('http://127.0.0.1:9/');",
        "  require('fs');",
        '  globalThis.process;',
        "  Reflect.get(page, 'x');",
        "  eval('1');",
        "  new Function('return 1');",
        '  setTimeout(() => 0, 10);',
        '  const g = { f: fetch };',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(issues(code)[0]!.message).toMatch(/^`fetch` is not a global generated code may use \(allowed: Math, JSON/);
  });

  it('lets process be read only as process.env.NAME of a declared variable', () => {
    const code = inTest(
      [
        '  process.env.BASE_URL;',
        '  process.env.OPENAI_API_KEY;',
        "  process.env['SCRIBE_API_' + 'TOKEN'];",
        '  const { OPENAI_API_KEY } = process.env;',
        '  const env = process.env;',
        "  process.getBuiltinModule('fs');",
        '  const { getBuiltinModule } = process;',
        '  const name = String(Date.now());',
        '  process.env[name];',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([5, 6, 7, 8, 9, 10, 12]);
    expect(issues(code)[0]!.message).toBe(
      "process.env.OPENAI_API_KEY is not a variable generated code may read (allowed: BASE_URL, E2E_USERNAME, E2E_PASSWORD); secrets and the runner's settings stay out of specs.",
    );
  });

  it('allows only listed imports from packages, and project modules that stay in the project and out of node_modules', () => {
    const code = [
      "import { test, expect, chromium, type Page } from '@playwright/test';",
      "import * as pw from '@playwright/test';",
      "import spawn from '../node_modules/cross-spawn';",
      "import { LoginPage } from './pages/login';",
      "import { secrets } from '../../etc/secrets';",
      "import lodash from 'lodash';",
      "test('x', async ({ page }) => { await chromium.launch(); pw.test; expect(page as Page).toBeTruthy(); new LoginPage(); secrets; lodash; });",
    ].join('\n');
    const found = issues(code).map((i) => `${i.line}:${i.message.slice(0, 30)}`);
    expect(found).toEqual([
      '3:Import of "../node_modules/cro',
      '5:Import of "../../etc/secrets" ',
      '6:Import of "lodash" is not allo',
      '7:`chromium` (chromium from "@pl',
      '7:`pw` (the whole module from "@',
      '7:`lodash` (default from "lodash',
    ]);
  });

  it('refuses dynamic import(), import.meta, import = require, re-exports, with and `this` outside a class', () => {
    const code = [
      header,
      "import cp = require('child_process');",
      "export * from './other';",
      'const self = this;',
      "test('x', async ({ page }) => {",
      "  await import('node:fs');",
      '  import.meta.url;',
      '  with (page) { title(); }',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([2, 3, 4, 6, 7, 8]);
  });
});

describe('allowed-code: members', () => {
  it('refuses constructor, prototypes and private members, however they are written', () => {
    const code = inTest(
      [
        '  (() => 0).constructor;',
        "  page['constructor'];",
        "  const key = 'con' + 'structor';",
        '  [][key];',
        '  ({}).__proto__;',
        '  Array.prototype.map;',
        '  const { constructor } = () => 0;',
        '  (page as any)._platform;',
        "  const o = { __proto__: page };",
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 7, 8, 9, 10, 11, 12]);
    expect(issues(code)[0]!.message).toBe('`.constructor` reaches an object\'s prototype or constructor (and from there Function); generated code may not use it.');
  });

  it('refuses member names computed at run time, but not numeric indexes or keys of its own constant data', () => {
    const code = inTest(
      [
        "  const parts = ['e', 'v', 'a', 'l'];",
        "  (globalThis as any)[parts.join('')];",
        '  parts[0];',
        "  const labels = { 'sign in': 'Sign in' };",
        "  labels['sign in'];",
        '  const i = parts.length - 1;',
        '  parts[i];',
      ].join('\n'),
    );
    expect(issues(code).map((i) => i.line)).toEqual([5, 10]);
  });

  it('refuses Playwright members off the list (browserType, CDP sessions, bind) and invented ones', () => {
    const code = [
      header,
      "test('x', async ({ page, browser }) => {",
      '  await browser.browserType().launch();',
      '  await page.context().newCDPSession(page);',
      "  await browser.bind('x');",
      '  await page.clickOn();',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 5, 6]);
  });

  it("refuses what tells the proof copy from the spec (its file, title path, output folder, worker, an error's stack), so an assertion cannot fail in the copy alone", () => {
    const code = inTest(
      [
        "  expect(test.info().titlePath.join('/')).not.toContain('.proof.');",
        "  expect(test.info().outputDir).not.toContain('proof');",
        '  expect(test.info().workerIndex).toBe(0);',
        '  expect(test.info().parallelIndex).toBe(0);',
        "  expect(test.info().snapshotPath('a.png')).toContain('search');",
        "  expect(test.info().testId).toBe('x');",
        "  expect(new Error('where').stack).not.toContain('proof');",
        "  await expect(page.getByRole('heading')).toHaveText(test.info().title);",
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6, 7, 8, 9, 10]);
  });

  it("refuses everything else that differs in the proof copy: the file's name and place, the worker's process, index and timing, the run's config", () => {
    const code = inTest(
      [
        "  expect(import.meta.url).not.toContain('proof');",
        "  expect(__filename).not.toContain('proof');",
        "  expect(__dirname).not.toContain('proof');",
        "  expect(test.info().file).not.toContain('proof');",
        '  expect(test.info().line).toBe(3);',
        '  expect(test.info().column).toBe(1);',
        '  expect(test.info().config.workers).toBe(2);',
        "  expect(test.info().project.name).toBe('chromium');",
        "  expect(process.argv.join(' ')).not.toContain('proof');",
        "  expect(process.env.TEST_WORKER_INDEX).toBe('0');",
        '  expect(process.pid).toBeGreaterThan(0);',
        '  expect(test.info().repeatEachIndex).toBe(0);',
        '  expect(test.info().errors).toHaveLength(0);',
        '  expect(test.info().duration).toBe(0);',
        '  expect(test.info().attachments).toHaveLength(0);',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it("refuses a download's or video's path(): it names the folder the file was written to, which differs in the proof copy", () => {
    const code = inTest(
      [
        "  const download = await page.waitForEvent('download');",
        "  expect(await download.path()).not.toContain('proof');",
        "  expect(await page.video()!.path()).toContain('search');",
        '  expect(download.suggestedFilename()).toBe(\'report.csv\');',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([5, 6]);
  });

  it('follows values, not names: an object literal does not make its keys safe on other values, and reassignable variables are not trusted', () => {
    const code = inTest(
      [
        '  const holder = { browserType: 1, page };',
        '  holder.browserType;',
        '  holder.page.context().browser()!.browserType();',
        '  let swap = { launch: 1 };',
        '  swap.launch;',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([6, 8]);
  });

  it('refuses writing to Playwright objects and globals, not to its own objects', () => {
    const code = inTest(
      [
        '  (page as any).evaluate = (fn: () => unknown) => fn();',
        '  Object.assign(page, {});',
        "  Object.defineProperty(page, 'title', { get: () => 1 });",
        '  const mine = { count: 0 };',
        '  mine.count += 1;',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([4, 5, 6]);
  });

  it('walks functions handed to evaluate on a fake page, and skips only those that run in the browser', () => {
    const code = inTest(
      [
        '  await page.evaluate(() => document.title);',
        '  const fake = { evaluate: (fn: () => unknown) => fn() };',
        "  await fake.evaluate(() => require('fs'));",
        '  await page.evaluate((k) => k, process.env.OPENAI_API_KEY);',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([6, 7]);
  });
});

describe('allowed-code: fixtures, structure and test.use', () => {
  it('refuses fixtures off the list, such as playwright', () => {
    const code = [header, "test('x', async ({ page, playwright }) => { await page.goto('/'); playwright; });"].join('\n');
    expect(issues(code).map((i) => i.message)).toEqual([expect.stringMatching(/^The fixture `playwright` is not one generated code may use/)]);
  });

  it('lets only declarations and the test structure stand at the top level and in describe blocks', () => {
    const code = [
      header,
      "const data = { user: 'ada', list: [1, 2], when: `${1 + 1}` };",
      'const helper = async () => 1;',
      "console.log('loaded');",
      'const computed = helper();',
      'if (data.user) {}',
      "test.describe('group', () => {",
      '  const inner = [data.user];',
      "  console.log('also loaded');",
      "  test('x', async ({ page }) => { await page.goto('/'); expect(inner).toHaveLength(1); });",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([4, 5, 6, 9]);
    expect(issues(code)[0]!.message).toMatch(/^Code at the top level of the file runs when the file is loaded, outside any test/);
  });

  it('lets test.use set only the listed options, written out', () => {
    const code = [
      header,
      "test.use({ viewport: { width: 800, height: 600 }, locale: 'fr-FR' });",
      "test.use({ launchOptions: { executablePath: '/bin/sh', args: ['-c', 'id'] } });",
      "test.use({ channel: 'chrome' });",
      "test.use({ connectOptions: { wsEndpoint: 'ws://127.0.0.1:9' } });",
      'const options = JSON.parse(\'{}\');',
      'test.use(options);',
      '// A page without its scripts is another app than the one asked about.',
      'test.use({ javaScriptEnabled: false });',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 5, 6, 7, 9]);
  });
});

describe('allowed-code: only for model-written code', () => {
  it('does not run when the validator is not told the code is untrusted', () => {
    const critic = loadCriticConfig();
    const code = inTest('  await fetch(\'http://127.0.0.1:9/\');');
    const trusted = new Validator(critic, { typeCheck: false });
    expect(trusted.validateText(SPEC_FILE, code).issues.map((i) => i.rule)).not.toContain(RULE);
    expect(trusted.forUntrustedCode('/virtual').validateText(SPEC_FILE, code).issues.map((i) => i.rule)).toContain(RULE);
  });

  it('lets specs read every declared credential variable (settings.credentials), a newly declared one too, and no other', () => {
    const critic = loadCriticConfig();
    const withAdmin = { ...critic, credentials: { ...critic.credentials, admin_password: 'ADMIN_PASSWORD' } };
    const gate = new Validator(withAdmin, { typeCheck: false }).forUntrustedCode('/virtual');
    const reads = (name: string) => gate.validateText(SPEC_FILE, inTest(`  await page.getByTestId('password').fill(process.env.${name} ?? '');`)).issues.filter((i) => i.rule === RULE);
    expect(reads('E2E_PASSWORD')).toEqual([]);
    expect(reads('ADMIN_PASSWORD')).toEqual([]);
    expect(reads('BASE_URL')).toEqual([]);
    expect(reads('OPENAI_API_KEY').map((i) => i.message)).toEqual([expect.stringMatching(/process\.env\.OPENAI_API_KEY is not a variable generated code may read/)]);
  });

  it('keeps its member list free of what reaches prototypes, Function or private internals', () => {
    const options = loadCriticConfig().criteria.find((c) => c.id === RULE)!.options as { members: string[]; globals: Record<string, string[]> };
    const forbidden = ['constructor', '__proto__', 'prototype', 'call', 'apply', 'bind', 'caller', 'callee', 'arguments', '__defineGetter__', '__lookupGetter__', 'browserType', 'launch', 'connect', 'newCDPSession', 'newBrowserCDPSession', 'exposeBinding', 'addInitScript'];
    expect(options.members.filter((m) => forbidden.includes(m) || m.startsWith('_'))).toEqual([]);
    expect(Object.keys(options.globals).filter((g) => ['process', 'require', 'module', 'globalThis', 'Reflect', 'Function', 'eval', 'fetch', 'Symbol', 'Proxy'].includes(g))).toEqual([]);
    expect(options.globals.Object).not.toContain('defineProperty');
  });
});

describe('allowed-code: data Playwright hands back', () => {
  it('lets any own key be read from responses, headers, boxes and evaluate results, also after Promise.all', () => {
    const code = inTest(
      [
        "  const [response] = await Promise.all([page.waitForResponse('**/api/items'), page.getByTestId('load').click()]);",
        '  const body = await response.json();',
        "  expect(body.items.length + response.headers()['content-type'].length).toBeGreaterThan(0);",
        "  const box = await page.getByTestId('logo').boundingBox();",
        '  expect(box!.width * box!.height).toBeGreaterThan(0);',
        '  const info = await page.evaluate(() => ({ path: location.pathname }));',
        "  expect(info.path).toBe('/');",
        "  expect({ id: crypto.randomUUID() }).toEqual({ id: expect.any(String) });",
        '  const fake = { json: () => page };',
        '  fake.json().context;',
        '  (await Promise.all([fake]))[0].json().browserType;',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([14]);
  });
});

describe('allowed-code: imports of project code only', () => {
  it('refuses data files, dotfiles and hidden folders, and files Node would load without an extension', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const root = mkdtempSync(path.join(tmpdir(), 'scribe-imports-'));
    try {
      mkdirSync(path.join(root, 'tests', 'pages'), { recursive: true });
      writeFileSync(path.join(root, 'tests', 'pages', 'login.page.ts'), 'export class LoginPage {}\n');
      writeFileSync(path.join(root, 'tests', 'users.json'), '{}');
      writeFileSync(path.join(root, 'tests', 'Notes'), 'secret');
      mkdirSync(path.join(root, 'tests', 'helpers'));
      writeFileSync(path.join(root, 'tests', 'helpers', 'index.ts'), 'export const x = 1;\n');
      const code = [
        header,
        "import { LoginPage } from './pages/login.page';",
        "import { x } from './helpers';",
        "import state from '../playwright/.auth/user.json';",
        "import '../.env';",
        "import users from './users.json';",
        "import data from './users';",
        "import notes from './Notes';",
        "import rows from './rows.csv';",
        "test('x', async ({ page }) => { new LoginPage(); expect(x + state + users + data + notes + rows).toBeTruthy(); await page.goto('/'); });",
      ].join('\n');
      const validator = new Validator(loadCriticConfig(), { typeCheck: false }).forUntrustedCode(root);
      const found = validator.validateText(path.join(root, 'tests', 'a.spec.ts'), code).issues.filter((i) => i.rule === RULE);
      expect(found.map((i) => i.line)).toEqual([4, 5, 6, 7, 8, 9]);
      expect(found[0]!.message).toContain('hidden file or folder ".auth"');
      expect(found[2]!.message).toContain('loads a .json file, which is data');
      expect(found[3]!.message).toContain('does not resolve to a code module');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('allowed-code: no runner configuration, no tagged templates, contexts from the options list', () => {
  it('refuses test.info().project and .config, aliases and destructuring of them', () => {
    const code = [
      header,
      "test('x', async ({ page }, testInfo) => {",
      '  const use = test.info().project.use;',
      '  const { project } = testInfo;',
      '  const info = test.info();',
      '  const config = info.config;',
      "  await page.goto('/');",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([3, 4, 6]);
  });

  it('refuses tagged templates but String.raw, and new contexts with options outside the list', () => {
    const code = [
      header,
      "const pick = (parts: TemplateStringsArray) => parts.join('');",
      "test('x', async ({ page, browser }) => {",
      '  const name = pick`user`;',
      '  const pattern = String.raw`\\d+`;',
      "  const a = await browser.newContext({ locale: 'de-DE', recordVideo: { dir: 'videos' } });",
      "  const b = await browser['newContext']({ proxy: { server: 'http://127.0.0.1:9' } });",
      "  const c = await browser.newPage({ executablePath: '/bin/sh', viewport: { width: 800, height: 600 } });",
      "  expect(name + pattern).toBeTruthy(); await Promise.all([a.close(), b.close(), c.close()]); await page.goto('/');",
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([4, 7, 8]);
  });
});

describe('allowed-code: expect.extend', () => {
  it("refuses redefining Playwright's matchers and matchers that always pass, accepts a matcher of its own", () => {
    const code = [
      "import { test, expect as base, type Locator } from '@playwright/test';",
      'const expect = base.extend({',
      '  toBeVisible: () => ({ pass: true, message: () => "" }),',
      '  async toHaveCartTotal(locator: Locator, total: number) {',
      "    const text = await locator.textContent();",
      "    return { pass: text === `${total} €`, message: () => `expected ${total}` };",
      '  },',
      '  toBeFine: (_value: unknown) => ({ pass: !0, message: () => "ok" }),',
      '});',
      "base.extend({ async toHaveText() { return { pass: true, message: () => '' }; } });",
      "test('x', async ({ page }) => { await page.goto('/'); await expect(page.getByTestId('cart')).toHaveCartTotal(3); });",
    ].join('\n');
    expect(lines(code)).toEqual([3, 8, 10]);
    expect(issues(code)[0]!.message).toContain("expect.extend may not redefine `toBeVisible`");
  });
});

describe('allowed-code: nothing of the spec runs when the file is loaded', () => {
  it('refuses getters run by a spread or a read, conversions, destructuring defaults, computed keys, extends of a call and structure arguments computed by calls', () => {
    const code = [
      header,
      "function payload(): string { return 'x'; }",
      'const sneaky = { get path() { return payload(); } };',
      'const copy = { ...sneaky };',
      'const read = sneaky.path;',
      'const text = { toString: () => payload() };',
      'const title = `${text}`;',
      'const { value = payload() } = { value: undefined };',
      'class Key { [payload()]() {} }',
      'class Base {}',
      'class Child extends (payload(), Base) {}',
      'class Statics { static get v() { return payload(); } }',
      'const viaStatic = Statics.v;',
      "test(`case ${payload()}`, async ({ page }) => { await page.goto('/'); });",
      'test.use({ get locale() { return payload(); } });',
      'for (const { name = payload() } of [{ name: undefined }]) test(String(name), async () => {});',
    ].join('\n');
    expect(lines(code)).toEqual([4, 5, 7, 8, 9, 11, 13, 14, 15, 16]);
  });

  it('accepts data, constants, credentials, devices, loops over rows and object helpers that nothing converts at load', () => {
    const code = [
      "import { test, expect, devices } from '@playwright/test';",
      "const USERS = [{ name: 'ann', role: 'admin' }, { name: 'bob', role: 'viewer' }] as const;",
      "const CREDENTIALS = { username: process.env.E2E_USERNAME ?? '', password: process.env.E2E_PASSWORD ?? '' };",
      "const BASE = process.env.BASE_URL ?? 'http://localhost:3000';",
      'const TIMEOUT = 5 * 1000;',
      "const ROUTES = { home: '/', login: `/login?next=${'%2F'}` };",
      "const helpers = { async open(page: import('@playwright/test').Page) { await page.goto(ROUTES.home); }, get label() { return 'x'; } };",
      "const PHONE = { ...devices['iPhone 13'] };",
      'const LIST = [...USERS];',
      'const { home } = ROUTES;',
      "test.use({ ...PHONE, locale: 'en-GB' });",
      'test.describe(`login at ${BASE}`, () => {',
      '  for (const user of USERS) {',
      '    test(`shows the ${user.role} badge for ${user.name}`, async ({ page }) => {',
      '      test.setTimeout(TIMEOUT);',
      '      await helpers.open(page);',
      "      await page.getByTestId('username-input').fill(CREDENTIALS.username);",
      "      await page.getByTestId('password-input').fill(CREDENTIALS.password);",
      "      await expect(page.getByTestId('badge')).toHaveText(user.role + home + helpers.label + LIST.length);",
      '    });',
      '  }',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });
});

describe('allowed-code: where a credential may go', () => {
  it('accepts fill, type, pressSequentially, httpCredentials, helpers and page objects that do, and the username as an expected value', () => {
    const code = [
      "import { test, expect, type Page } from '@playwright/test';",
      "const PASSWORD = process.env.E2E_PASSWORD ?? '';",
      'async function logIn(page: Page, user: string, secret: string) {',
      "  await page.getByTestId('username-input').fill(user);",
      "  await page.getByTestId('password-input').pressSequentially(secret);",
      '}',
      "test.use({ httpCredentials: { username: process.env.E2E_USERNAME ?? '', password: process.env.E2E_PASSWORD ?? '' } });",
      "test('x', async ({ page, browser }) => {",
      "  test.skip(!process.env.E2E_PASSWORD, 'needs credentials');",
      "  await page.goto('/login');",
      "  await logIn(page, process.env.E2E_USERNAME!, PASSWORD);",
      "  await page.getByTestId('password-input').type(process.env.E2E_PASSWORD as string);",
      "  const other = await browser.newContext({ httpCredentials: { username: 'u', password: PASSWORD } });",
      "  await expect(page.getByTestId('current-user')).toHaveText(process.env.E2E_USERNAME ?? '');",
      '  await other.close();',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('refuses URLs, headers, messages, the console, evaluate, attachments, encodings and reversals', () => {
    const code = inTest(
      [
        "  const secret = process.env.E2E_PASSWORD ?? '';",
        "  await page.goto('/search?q=' + secret);",
        "  await page.setExtraHTTPHeaders({ authorization: secret });",
        '  expect(page.url(), `failed for ${secret}`).toContain("/");',
        '  console.log(process.env.E2E_PASSWORD);',
        '  await page.evaluate((s) => s, secret);',
        "  await test.info().attach('note', { body: secret });",
        "  await page.getByTestId('x').fill(Buffer.from(secret).toString('base64'));",
        "  await page.getByTestId('x').fill(secret.split('').reverse().join(''));",
        '  throw new Error(secret);',
        "  await expect(page.getByTestId('pw')).toHaveValue(secret);",
      ].join('\n'),
    );
    expect(lines(code)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(issues(code).find((i) => i.line === 5)!.message).toContain('The credential E2E_PASSWORD may go only into');
  });
});

describe('allowed-code: test and expect are Playwright’s', () => {
  it('refuses a local expect or test, a fixture named expect, and accepts extends of them', () => {
    const code = [
      "import { test as base, expect as baseExpect } from '@playwright/test';",
      'const test = base.extend<{ ready: boolean }>({ ready: async ({}, use) => { await use(true); } });',
      "const expect = baseExpect.configure({ timeout: 10_000 });",
      "test('x', async ({ page, ready }) => {",
      "  await page.goto('/');",
      '  expect(ready).toBe(true);',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
    const fake = [
      "import { test } from '@playwright/test';",
      'const expect = (value: unknown) => ({ toBeVisible: async () => value });',
      "test('x', async ({ page }) => {",
      "  await page.goto('/');",
      "  await expect(page.getByTestId('dashboard')).toBeVisible();",
      '});',
    ].join('\n');
    expect(lines(fake)).toEqual([2]);
    expect(issues(fake)[0]!.message).toContain('may not declare its own `expect`');
  });
});
