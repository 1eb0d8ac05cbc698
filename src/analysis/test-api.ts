/**
 * Playwright's `test` and `expect` as the spec uses them: the API path an expression leads to (through aliases,
 * `test.extend`, fixtures modules and destructuring), the tests of the file and the expectations.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { ModuleModel } from './modules.ts';
import { MemoKey } from './parsed-spec.ts';
import { isFunctionLike } from './syntax.ts';

export interface TestBlock {
  call: ts.CallExpression;
  /** `test`, `test.only`, `test.skip`, `test.fixme`, `test.fail`, `test.slow`. */
  path: string;
  title: string | undefined;
  body: ts.FunctionLikeDeclaration | undefined;
}

export interface Expectation {
  /** The call of the matcher: `expect(x).not.toBeVisible()`. */
  call: ts.CallExpression;
  /** The `expect(...)` call at the root of the chain. */
  expectCall: ts.CallExpression;
  /** `expect`, `expect.soft`, `expect.poll`. */
  flavour: string;
  subject: ts.Expression | undefined;
  matcher: string;
  matcherNode: ts.Node;
  negated: boolean;
  modifiers: string[];
}

const PLAYWRIGHT_PATH = new MemoKey<string | undefined>('the Playwright API path of an expression');

const TEST_PATHS = new Set(['test', 'test.only', 'test.skip', 'test.fixme', 'test.fail', 'test.slow']);
const EXPECT_FLAVOURS = new Set(['expect', 'expect.soft', 'expect.poll']);
const EXPECT_MODIFIERS = new Set(['not', 'resolves', 'rejects']);

export class TestApiModel extends ModuleModel {
  private testBlocks: TestBlock[] | undefined;

  // --- Playwright's test and expect --------------------------------------------------------------

  /**
   * Where an expression leads in Playwright's API, as a dotted path rooted at `test` or `expect`:
   * `test.describe.only`, `expect.soft`. Followed through aliases, `test.extend(...)`,
   * `expect.configure(...)` and fixtures modules that re-export `test`.
   */
  playwrightPath(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    // Depth only guards cycles: an answer found at any depth is the answer.
    return this.memo(PLAYWRIGHT_PATH, expr, () => this.computePlaywrightPath(expr, depth));
  }

  private computePlaywrightPath(expr: ts.Expression, depth: number): string | undefined {
    const e = this.unwrap(expr);
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      if (!declaration) return e.text === 'test' || e.text === 'expect' ? e.text : undefined;
      if (ts.isImportSpecifier(declaration)) {
        const imported = (declaration.propertyName ?? declaration.name).text;
        return imported === 'test' || imported === 'expect' ? imported : undefined;
      }
      if (ts.isVariableDeclaration(declaration) && declaration.initializer) return this.playwrightPath(declaration.initializer, depth + 1) ?? this.factoryTest(declaration);
      if (ts.isBindingElement(declaration)) return this.destructuredPath(declaration, depth + 1);
      return undefined;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const base = this.playwrightPath(e.expression, depth + 1);
      const name = this.memberName(e);
      // test.expect is expect itself.
      if (base === 'test' && name === 'expect') return 'expect';
      return base && name ? `${base}.${name}` : undefined;
    }
    if (ts.isCallExpression(e)) {
      const path = this.playwrightPath(e.expression, depth + 1);
      if (path?.endsWith('.extend') || path?.endsWith('.configure')) return path.slice(0, path.lastIndexOf('.'));
      // `baseTest().extend({...})`, `fixtures.base.extend({...})`: a test factory of the project's, imported.
      if (path === undefined && this.memberName(this.unwrap(e.expression)) === 'extend' && this.importedRoot(e.expression)) return 'test';
    }
    return undefined;
  }

  /**
   * `const test = testFactory(import.meta.url, …)`, `const test = await fixtures.create()`: a `test` a
   * project's helper module makes (typed or not), which the spec then calls as Playwright's.
   */
  private factoryTest(declaration: ts.VariableDeclaration): 'test' | undefined {
    if (!ts.isIdentifier(declaration.name) || declaration.name.text !== 'test' || !declaration.initializer) return undefined;
    let init = this.unwrap(declaration.initializer);
    if (ts.isAwaitExpression(init)) init = this.unwrap(init.expression);
    return ts.isCallExpression(init) && this.importedRoot(init.expression) ? 'test' : undefined;
  }

  /** `const { describe } = test` → `test.describe`; a nested pattern adds a segment per level. */
  private destructuredPath(element: ts.BindingElement, depth: number): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : ts.isComputedPropertyName(key) ? this.stringValue(key.expression) : undefined;
    const pattern = element.parent;
    if (!name || !ts.isObjectBindingPattern(pattern)) return undefined;
    const owner = pattern.parent;
    let base: string | undefined;
    if (ts.isBindingElement(owner)) base = this.destructuredPath(owner, depth + 1);
    else if (ts.isVariableDeclaration(owner) && owner.initializer) {
      // `const { test, expect } = require('@playwright/test')` (or a fixtures module): named as an import would be.
      if (this.requiredModule(owner.initializer) !== undefined) return name === 'test' || name === 'expect' ? name : undefined;
      base = this.playwrightPath(owner.initializer, depth + 1);
    }
    return base ? `${base}.${name}` : undefined;
  }

  /** Every `test(...)` call (with its modifier) in the file, in source order. */
  tests(): readonly TestBlock[] {
    if (!this.testBlocks) {
      this.testBlocks = [];
      for (const call of this.calls) {
        const path = this.playwrightPath(call.expression) ?? (this.callsOwnTestWrapper(call) ? 'test' : undefined);
        if (!path || !TEST_PATHS.has(path)) continue;
        // A test's title comes first, so a function there is a condition: `test.skip(({ browserName }) => …, 'reason')`.
        const body = call.arguments.slice(1).reverse().find(isFunctionLike);
        // `test.skip()` or `test.fixme(condition)` inside a test are annotations, not tests.
        if (path !== 'test' && !body) continue;
        const title = call.arguments[0] ? this.stringValue(call.arguments[0], '…') : undefined;
        this.testBlocks.push({ call, path, title, body });
      }
    }
    return this.testBlocks;
  }

  /**
   * `testWithHydration('loads', async ({ page }) => { … })`, with `testWithHydration` imported beside `test` or
   * `expect` from the suite's own fixtures module: a `test.extend` under another name, called as `test` is, with a
   * title and a function taking fixtures (a describe-like wrapper's function takes none, a helper of another module
   * is no fixtures module's). What the wrapper adds is in a file this one does not show.
   */
  private callsOwnTestWrapper(call: ts.CallExpression): boolean {
    const [title, body] = call.arguments;
    if (call.arguments.length !== 2 || !title || !body || !ts.isIdentifier(call.expression)) return false;
    if (!ts.isStringLiteralLike(title) && !ts.isTemplateExpression(title)) return false;
    const fixtures = isFunctionLike(body) ? body.parameters[0] : undefined;
    if (!fixtures || !ts.isObjectBindingPattern(fixtures.name) || this.moduleBinding(call.expression)?.module.startsWith('.') !== true) return false;
    const beside = importedBeside(this.declarationOf(call.expression));
    return beside.includes('test') || beside.includes('expect');
  }

  /** The test whose body holds a node, if any. */
  enclosingTest(node: ts.Node): TestBlock | undefined {
    for (const test of this.tests()) {
      if (test.body && node.pos >= test.body.pos && node.end <= test.body.end) return test;
    }
    return undefined;
  }

  /** When a call is the matcher of an `expect(...)` chain, its parts. */
  expectation(call: ts.CallExpression): Expectation | undefined {
    const callee = this.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return undefined;
    const matcher = this.memberName(callee);
    if (!matcher) return undefined;
    const modifiers: string[] = [];
    let e = this.unwrap(callee.expression);
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.memberName(e);
      if (!name || !EXPECT_MODIFIERS.has(name)) return undefined;
      modifiers.unshift(name);
      e = this.unwrap(e.expression);
    }
    if (!ts.isCallExpression(e)) return undefined;
    const flavour = this.playwrightPath(e.expression);
    if (!flavour || !EXPECT_FLAVOURS.has(flavour)) return undefined;
    const matcherNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee.argumentExpression;
    return {
      call,
      expectCall: e,
      flavour,
      subject: e.arguments[0],
      matcher,
      matcherNode,
      negated: modifiers.filter((m) => m === 'not').length % 2 === 1,
      modifiers,
    };
  }

  /** Every expectation in the file. */
  expectations(): Expectation[] {
    const found: Expectation[] = [];
    for (const call of this.calls) {
      const expectation = this.expectation(call);
      if (expectation) found.push(expectation);
    }
    return found;
  }
}

/** The names imported with a binding, in its `import { … }` or `const { … } = require(…)`. */
function importedBeside(declaration: ts.Node | undefined): string[] {
  const elements: ReadonlyArray<ts.ImportSpecifier | ts.BindingElement> =
    declaration && ts.isImportSpecifier(declaration) ? declaration.parent.elements
    : declaration && ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent) ? declaration.parent.elements
    : [];
  return elements.flatMap((element) => {
    const key = element.propertyName ?? element.name;
    return ts.isIdentifier(key) || ts.isStringLiteral(key) ? [key.text] : [];
  });
}
