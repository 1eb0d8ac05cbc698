import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { SpecModel } from '../../src/analysis/model.ts';

/** The last expression in the file whose text is exactly `text` (the last, so a use wins over its declaration). */
function find(model: SpecModel, text: string): ts.Expression {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isExpression(node) && node.getText(model.sourceFile) === text) found = node;
    ts.forEachChild(node, visit);
  };
  visit(model.sourceFile);
  if (!found) throw new Error(`no expression ${text}`);
  return found;
}

const parse = (code: string, name = 'model.spec.ts') => SpecModel.fromText(`/virtual/${name}`, code);

describe('SpecModel.kindOf', () => {
  const model = parse(
    [
      "import { test, type Page, type Locator } from '@playwright/test';",
      'class Checkout {',
      '  readonly pay: Locator;',
      '  private readonly root;',
      '  constructor(private readonly page: Page, other) {',
      "    this.pay = page.getByTestId('pay');",
      '    this.root = other;',
      '  }',
      '  async go() { await this.page.goto("/"); await this.pay.click(); await this.root.click(); }',
      '}',
      "test('t', async ({ page, context, request }) => {",
      '  const p = page;',
      '  const q = p;',
      "  const popup = await page.waitForEvent('popup');",
      "  const popupPromise = context.waitForEvent('page');",
      '  const later = await popupPromise;',
      "  const [fromAll, clicked] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('x').click()]);",
      '  const fresh = await context.newPage();',
      "  const frame = page.frame({ name: 'f' });",
      "  const handle = await page.$('#a');",
      "  const loc = page.getByTestId('a').filter({ hasText: 'x' }).first();",
      "  const m = 'getByTestId';",
      "  const computed = page[m]('b');",
      '  const first = context.pages()[0];',
      '  const either = Math.random() > 0.5 ? page : fresh;',
      '  const mixed = Math.random() > 0.5 ? page : loc;',
      '  const api = page.request;',
      "  const plain = { goto: (url: string) => url };",
      '  q; popup; later; fromAll; clicked; fresh; frame; handle; loc; computed; first; either; mixed; api; plain; request;',
      '});',
    ].join('\n'),
  );
  const kind = (text: string) => model.kindOf(find(model, text));

  it('follows aliases, popups, Promise.all destructuring, new pages and frames', () => {
    expect(kind('q')).toBe('page');
    expect(kind('popup')).toBe('page');
    expect(kind('later')).toBe('page');
    expect(kind('fromAll')).toBe('page');
    expect(kind('clicked')).toBe('unknown');
    expect(kind('fresh')).toBe('page');
    expect(kind('frame')).toBe('frame');
    expect(kind('first')).toBe('page');
    expect(kind('either')).toBe('page');
    expect(kind('request')).toBe('request');
    expect(kind('api')).toBe('request');
  });

  it('tells locators and handles apart, also through computed members', () => {
    expect(kind('loc')).toBe('locator');
    expect(kind('computed')).toBe('locator');
    expect(kind('handle')).toBe('elementHandle');
  });

  it('knows `this.x` in a page object from its type, its constructor parameter or its assignment', () => {
    expect(kind('this.page')).toBe('page');
    expect(kind('this.pay')).toBe('locator');
    expect(kind('this.root')).toBe('unknown');
  });

  it('says unknown for mixed or plain values', () => {
    expect(kind('mixed')).toBe('unknown');
    expect(kind('plain')).toBe('unknown');
  });

  it("knows what a page object's getters and methods return, and an untyped `readonly page` by its name", () => {
    const pageObject = parse(
      [
        'class TodoPage {',
        '  constructor(readonly page, readonly other) {}',
        "  get input() { return this.page.getByTestId('new-todo'); }",
        "  get either() { if (Math.random() > 0.5) return this.page.getByTestId('a'); return this.page; }",
        "  row() { const make = () => 1; return this.page.getByTestId('row'); }",
        '  nothing() { if (Math.random() > 0.5) return; return this.page; }',
        '  self() { return this.self(); }',
        '  async use() { this.input; this.either; this.row(); this.nothing(); this.self(); this.other; }',
        '}',
      ].join('\n'),
    );
    const kindIn = (text: string) => pageObject.kindOf(find(pageObject, text));
    expect(kindIn('this.input')).toBe('locator');
    expect(kindIn('this.row()')).toBe('locator');
    expect(kindIn('this.either')).toBe('unknown');
    expect(kindIn('this.nothing()')).toBe('unknown');
    expect(kindIn('this.self()')).toBe('unknown');
    expect(kindIn('this.other')).toBe('unknown');
  });

  it('survives cyclic aliases', () => {
    const cyclic = parse('let a = b;\nlet b = a;\na;');
    expect(cyclic.kindOf(find(cyclic, 'a'))).toBe('unknown');
  });
});

describe('SpecModel.stringValue', () => {
  const model = parse(
    [
      "const base = '/app';",
      'const id = `save`;',
      "const sel = `[data-testid=\"${id}\"]`;",
      "const joined = base + '/' + 'login';",
      "const urls = { home: '/home', nested: { deep: base } };",
      'const key = "home";',
      'const unknown = process.env.X;',
      'const partial = `.css-${unknown}`;',
      'const n = 42;',
      "const next = `/?next=${encodeURIComponent('/products')}`;",
      'const encodedUnknown = encodeURIComponent(unknown);',
      "const notEncoder = constructor('x');",
      "sel; joined; urls.home; urls['home']; urls[key]; urls.nested.deep; unknown; partial; n; urls.missing; next; encodedUnknown; notEncoder;",
    ].join('\n'),
  );
  const value = (text: string, placeholder?: string) => model.stringValue(find(model, text), placeholder);

  it('follows constants, templates, concatenation and object properties', () => {
    expect(value('sel')).toBe('[data-testid="save"]');
    expect(value('joined')).toBe('/app/login');
    expect(value('urls.home')).toBe('/home');
    expect(value("urls['home']")).toBe('/home');
    expect(value('urls[key]')).toBe('/home');
    expect(value('urls.nested.deep')).toBe('/app');
    expect(value('n')).toBe('42');
    expect(value('next')).toBe('/?next=%2Fproducts');
  });

  it('is undefined for unknown parts unless a placeholder stands in for them', () => {
    expect(value('unknown')).toBeUndefined();
    expect(value('partial')).toBeUndefined();
    expect(value('partial', 'x0')).toBe('.css-x0');
    expect(value('urls.missing')).toBeUndefined();
    expect(value('encodedUnknown')).toBeUndefined();
    expect(value('encodedUnknown', 'x0')).toBe('x0');
    expect(value('notEncoder')).toBeUndefined();
  });
});

describe('SpecModel.constantString', () => {
  const model = parse(
    [
      "const base = '/app';",
      "const joined = `${base}/login` + '?next=' + 1;",
      "let moving = '/safe';",
      "moving = 'file:///etc/passwd';",
      "const fromLet = base + moving;",
      "const urls = { home: '/home' };",
      "joined; moving; fromLet; urls.home; base + urls.home;",
    ].join('\n'),
  );
  const constant = (text: string) => model.constantString(find(model, text));
  const value = (text: string) => model.stringValue(find(model, text));

  it('follows literals, templates and concatenations of const declarations, as stringValue does', () => {
    expect(constant('joined')).toBe('/app/login?next=1');
    expect(constant('joined')).toBe(value('joined'));
  });

  it('does not trust a let or an object property, which stringValue reads', () => {
    expect(value('moving')).toBe('/safe');
    expect(constant('moving')).toBeUndefined();
    expect(constant('fromLet')).toBeUndefined();
    expect(value('urls.home')).toBe('/home');
    expect(constant('urls.home')).toBeUndefined();
    expect(constant('base + urls.home')).toBeUndefined();
  });
});

describe('SpecModel.property', () => {
  const model = parse(
    [
      'const defaults = { timeout: 100, force: false };',
      'const forced = { ...defaults, force: true };',
      'const overridden = { force: true, ...defaults };',
      "const named = { ['for' + 'ce']: true, 'timeout': 5 };",
      'const force = true;',
      'const short = { force };',
      'const alias = forced;',
      'forced; overridden; named; short; alias; defaults;',
    ].join('\n'),
  );
  const hit = (object: string, name: string) => {
    const found = model.property(find(model, object), name);
    return found && model.text(found.value);
  };

  it('follows variables and spreads, the last property winning', () => {
    expect(hit('forced', 'force')).toBe('true');
    expect(hit('forced', 'timeout')).toBe('100');
    expect(hit('overridden', 'force')).toBe('false');
    expect(hit('alias', 'force')).toBe('true');
  });

  it('reads computed, quoted and shorthand names', () => {
    expect(hit('named', 'force')).toBe('true');
    expect(hit('named', 'timeout')).toBe('5');
    expect(hit('short', 'force')).toBe('force');
    expect(hit('defaults', 'missing')).toBeUndefined();
  });
});

describe('SpecModel.playwrightPath', () => {
  const model = parse(
    [
      "import { test as base, expect } from '@playwright/test';",
      "import { test as fixtures } from '../validate/fixtures';",
      'const test = base.extend<{ user: string }>({});',
      'const { describe } = base;',
      'const { describe: { only: focusGroup } } = base;',
      'const soft = expect.configure({ soft: true });',
      "const mode = 'skip';",
      'const it = test;',
      'function local() {}',
      'it.only; describe.serial; focusGroup; soft; test[mode]; fixtures.fixme; expect.soft; local; base.step;',
    ].join('\n'),
  );
  const path = (text: string) => model.playwrightPath(find(model, text));

  it('follows imports, renames, aliases, test.extend, expect.configure, destructuring and computed members', () => {
    expect(path('it.only')).toBe('test.only');
    expect(path('describe.serial')).toBe('test.describe.serial');
    expect(path('focusGroup')).toBe('test.describe.only');
    expect(path('soft')).toBe('expect');
    expect(path('test[mode]')).toBe('test.skip');
    expect(path('fixtures.fixme')).toBe('test.fixme');
    expect(path('expect.soft')).toBe('expect.soft');
    expect(path('base.step')).toBe('test.step');
  });

  it('is undefined for anything else', () => {
    expect(path('local')).toBeUndefined();
  });

  it('follows CommonJS: test and expect destructured from require, and test.expect', () => {
    const cjs = parse(
      ["const { test, expect: check } = require('@playwright/test');", "const { helper } = require('../validate/helpers');", 'test.only; check.soft; test.expect; test.expect.soft; helper;'].join('\n'),
      'a.spec.js',
    );
    const at = (text: string) => cjs.playwrightPath(find(cjs, text));
    expect(at('test.only')).toBe('test.only');
    expect(at('check.soft')).toBe('expect.soft');
    expect(at('test.expect.soft')).toBe('expect.soft');
    expect(at('helper')).toBeUndefined();
  });
});

describe('SpecModel.isAwaited', () => {
  const model = parse(
    [
      "import { test, expect } from '@playwright/test';",
      "test('t', async ({ page }) => {",
      "  await page.goto('/a');",
      "  await Promise.all([page.goto('/b'), page.goto('/c')]);",
      "  const stored = page.goto('/d');",
      '  await stored;',
      "  const never = page.goto('/e');",
      "  page.goto('/f');",
      "  void page.goto('/g');",
      "  await page.goto('/h').then(() => 1);",
      "  page.goto('/i').catch(() => 1);",
      "  await expect(page.goto('/j')).resolves.toBeTruthy();",
      "  Promise.all([page.goto('/k')]);",
      "  const chained = page.goto('/l');",
      '  const copy = chained;',
      '  await copy;',
      "  (page.goto('/m'), page.goto('/n'));",
      '});',
      "const open = () => page.goto('/o');",
      "function ret() { return page.goto('/p'); }",
    ].join('\n'),
  );
  const awaited = (url: string) => model.isAwaited(find(model, `page.goto('${url}')`));

  it('sees await, return, arrow bodies, Promise.all, expect and awaited then-chains', () => {
    for (const url of ['/a', '/b', '/c', '/h', '/j', '/o', '/p']) expect(awaited(url), url).toBe(true);
  });

  it('follows a promise stored in a variable (and its aliases) to its await', () => {
    expect(awaited('/d')).toBe(true);
    expect(awaited('/l')).toBe(true);
    expect(awaited('/e')).toBe(false);
  });

  it('flags dropped promises: statements, void, un-awaited chains and combinators, comma lists', () => {
    for (const url of ['/f', '/g', '/i', '/k', '/m', '/n']) expect(awaited(url), url).toBe(false);
  });
});

describe('SpecModel.moduleBinding', () => {
  const model = parse(
    [
      "import fs from 'node:fs';",
      "import * as cp from 'child_process';",
      "import { exec as run, spawn } from 'child_process';",
      "import net = require('net');",
      "const os = require('os');",
      "const { readFile, promises: { rm } } = require('fs');",
      "const dyn = await import('node:dns');",
      "const { lookup } = await import('node:dns');",
      'const alias = cp;',
      'const member = cp.execSync;',
      "const loader = createRequire(import.meta.url);",
      "const viaLoader = loader('http');",
      "const viaModule = module.require('https');",
      'const local = 1;',
      'fs; cp; run; spawn; net; os; readFile; rm; dyn; lookup; alias; member; viaLoader; viaModule; local; process;',
    ].join('\n'),
  );
  const binding = (name: string) => {
    const uses = model.nodes<ts.Identifier>(ts.SyntaxKind.Identifier).filter((id) => id.text === name && ts.isExpressionStatement(id.parent));
    return model.moduleBinding(uses[0]!);
  };

  it('follows default, namespace, named and renamed imports and import = require', () => {
    expect(binding('fs')).toEqual({ module: 'node:fs', imported: 'default' });
    expect(binding('cp')).toEqual({ module: 'child_process', imported: '*' });
    expect(binding('run')).toEqual({ module: 'child_process', imported: 'exec' });
    expect(binding('spawn')).toEqual({ module: 'child_process', imported: 'spawn' });
    expect(binding('net')).toEqual({ module: 'net', imported: '*' });
  });

  it('follows require, dynamic import, destructuring, aliases and members', () => {
    expect(binding('os')).toEqual({ module: 'os', imported: '*' });
    expect(binding('readFile')).toEqual({ module: 'fs', imported: 'readFile' });
    expect(binding('rm')?.module).toBe('fs');
    expect(binding('dyn')).toEqual({ module: 'node:dns', imported: '*' });
    expect(binding('lookup')).toEqual({ module: 'node:dns', imported: 'lookup' });
    expect(binding('alias')).toEqual({ module: 'child_process', imported: '*' });
    expect(binding('member')).toEqual({ module: 'child_process', imported: 'execSync' });
  });

  it('recognises other module loaders: createRequire and module.require', () => {
    expect(binding('viaLoader')).toEqual({ module: 'http', imported: '*' });
    expect(binding('viaModule')).toEqual({ module: 'https', imported: '*' });
  });

  it('is undefined for local values and globals', () => {
    expect(binding('local')).toBeUndefined();
    expect(binding('process')).toBeUndefined();
  });
});

describe('SpecModel.tests', () => {
  it('lists test blocks with their modifier, and leaves annotations and conditions out', () => {
    const model = parse(
      [
        "import { test } from '@playwright/test';",
        "test.skip(({ browserName }) => browserName === 'webkit', 'not on webkit');",
        "test('plain', async () => { test.skip(); test.fixme(true, 'later'); });",
        "test.only('focused', { tag: '@smoke' }, async () => {});",
        "test.fixme('broken', async () => {});",
        "test.describe('group', () => { test.fail('known', async () => {}); });",
      ].join('\n'),
    );
    expect(model.tests().map((t) => [t.path, t.title, t.body !== undefined])).toEqual([
      ['test', 'plain', true],
      ['test.only', 'focused', true],
      ['test.fixme', 'broken', true],
      ['test.fail', 'known', true],
    ]);
    const inner = find(model, 'test.skip()');
    expect(model.enclosingTest(inner)?.title).toBe('plain');
  });

  it("lists tests declared with the suite's own wrapper (a test.extend under another name), not helpers called like it", () => {
    // The router suite's streaming-ssr specs: testWithHydration = test.extend(…) in ./fixtures.
    const model = parse(
      [
        "import { test, testWithHydration, describeEach } from './fixtures';",
        "import { seed } from './helpers';",
        "const { expect, signedInTest } = require('./auth-fixtures');",
        "import { run } from 'some-runner';",
        "test.describe('stream', () => {",
        "  testWithHydration('resolves', async ({ page }) => { await page.goto('/'); });",
        "  testWithHydration(`streams ${1}`, async function ({ page }) { await page.goto('/s'); });",
        '});',
        "describeEach('per processor', (processor) => { test('renders', async ({ page }) => {}); });",
        "run('title', async ({ page }) => {});",
        "seed('users', async ({ db }) => {});",
        "signedInTest('account', async ({ page }) => {});",
      ].join('\n'),
    );
    expect(model.tests().map((t) => [t.path, t.title, t.body !== undefined])).toEqual([
      ['test', 'resolves', true],
      ['test', 'streams 1', true],
      ['test', 'renders', true],
      ['test', 'account', true],
    ]);
    expect(model.enclosingTest(find(model, "page.goto('/s')"))?.title).toBe('streams 1');
  });
});
