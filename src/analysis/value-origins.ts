/**
 * What the allow-list gate (allowed-code, allowed-paths) needs to know about where a value comes from:
 * a Playwright fixture, a test's TestInfo, plain data parsed from JSON, or the spec's own objects. Each
 * answer is "yes" only when it is proven from the text; anything the analysis cannot follow is "no",
 * so the gate errs on the side of refusing.
 */
import { ts } from '../util/typescript.js';
import { valueSite } from './syntax.ts';
import { MemoKey, type SpecModel } from './model.ts';
import { DATA_METHODS } from './playwright-api.ts';
import { MAX_DEPTH } from './depth.ts';

/** Calls whose function arguments Playwright hands fixtures to (first parameter) and TestInfo (second). */
const FIXTURE_CALLBACK_PATHS = new Set([
  'test', 'test.only', 'test.skip', 'test.fixme', 'test.fail', 'test.slow',
  'test.beforeEach', 'test.afterEach', 'test.beforeAll', 'test.afterAll',
]);
/** Array methods whose callback receives the array's elements. */
const ELEMENT_CALLBACKS = new Set(['map', 'forEach', 'filter', 'find', 'findLast', 'some', 'every', 'flatMap']);

/** The function of a test, a hook, a `test.skip(condition)` or a fixture of `test.extend({...})`, when `fn` is one. */
export function isFixtureCallback(model: SpecModel, fn: ts.Node): boolean {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn) && !ts.isMethodDeclaration(fn)) return false;
  const parent = fn.parent;
  if (ts.isCallExpression(parent) && parent.arguments.includes(fn as ts.Expression)) {
    const path = model.playwrightPath(parent.expression);
    return path !== undefined && FIXTURE_CALLBACK_PATHS.has(path);
  }
  const holder = ts.isPropertyAssignment(parent) ? parent.parent : ts.isObjectLiteralExpression(parent) ? parent : undefined;
  return holder !== undefined && ts.isObjectLiteralExpression(holder) && isExtendArgument(model, holder);
}

/** `{ loginPage: async ({ page }, use) => … }` passed to `test.extend(...)`. */
export function isExtendArgument(model: SpecModel, object: ts.ObjectLiteralExpression): boolean {
  const node = valueSite(object);
  const call = node.parent;
  if (!ts.isCallExpression(call) || !call.arguments.includes(node as ts.Expression)) return false;
  return model.playwrightPath(call.expression)?.endsWith('.extend') === true;
}

const EXTENDED_FIXTURE_NAMES = new MemoKey<Set<string>>("the file's own fixture names");

/** The keys of every `test.extend({...})` object of the file: the spec's own fixtures. */
export function extendedFixtureNames(model: SpecModel): ReadonlySet<string> {
  return model.memo(EXTENDED_FIXTURE_NAMES, model.sourceFile, () => collectExtendedFixtureNames(model));
}

function collectExtendedFixtureNames(model: SpecModel): Set<string> {
  const names = new Set<string>();
  for (const object of model.nodes<ts.ObjectLiteralExpression>(ts.SyntaxKind.ObjectLiteralExpression)) {
    if (!isExtendArgument(model, object)) continue;
    for (const property of object.properties) {
      const name = model.propertyName(property);
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

/**
 * For a fixture destructured in a test (`async ({ loginPage }) => …`) that the spec defines itself with
 * `test.extend({ loginPage: async ({ page }, use) => { await use(new LoginPage(page)); } })`, the value
 * it hands to `use`, when there is exactly one.
 */
export function extendedFixtureValue(model: SpecModel, element: ts.BindingElement): ts.Expression | undefined {
  if (fixtureParameter(model, element) !== 'fixture') return undefined;
  const key = element.propertyName ?? element.name;
  const name = ts.isIdentifier(key) ? key.text : undefined;
  const given: ts.Expression[] = [];
  for (const object of model.nodes<ts.ObjectLiteralExpression>(ts.SyntaxKind.ObjectLiteralExpression)) {
    if (!isExtendArgument(model, object)) continue;
    const property = object.properties.find((p) => model.propertyName(p) === name);
    const fn = property && ts.isPropertyAssignment(property) ? model.unwrap(property.initializer) : property && ts.isMethodDeclaration(property) ? property : undefined;
    const use = fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn)) ? fn.parameters[1]?.name : undefined;
    if (!use || !ts.isIdentifier(use)) continue;
    for (const call of model.calls) {
      const callee = model.unwrap(call.expression);
      if (ts.isIdentifier(callee) && callee.text === use.text && model.declarationOf(callee) === use.parent && call.arguments[0]) given.push(call.arguments[0]);
    }
  }
  return given.length === 1 ? given[0] : undefined;
}

/** A binding or parameter that Playwright fills: a destructured fixture, or TestInfo (the second parameter). */
function fixtureParameter(model: SpecModel, declaration: ts.Node): 'fixture' | 'testInfo' | undefined {
  let node: ts.Node = declaration;
  while (ts.isBindingElement(node) || ts.isObjectBindingPattern(node)) node = node.parent;
  if (!ts.isParameter(node) || !isFixtureCallback(model, node.parent)) return undefined;
  const index = (node.parent).parameters.indexOf(node);
  if (index === 0 && ts.isBindingElement(declaration)) return 'fixture';
  // A test or hook gets TestInfo second; a fixture of test.extend gets `use` second and TestInfo third.
  const testInfoIndex = ts.isCallExpression(node.parent.parent) ? 1 : 2;
  if (index === testInfoIndex && ts.isIdentifier(node.name)) return 'testInfo';
  return undefined;
}

/** A fixture Playwright (or the project's fixtures module) provides, not one this file defines with test.extend. */
function isProvidedFixture(model: SpecModel, element: ts.BindingElement): boolean {
  if (fixtureParameter(model, element) !== 'fixture') return false;
  const key = element.propertyName ?? element.name;
  return ts.isIdentifier(key) && !extendedFixtureNames(model).has(key.text);
}

/**
 * Whether a value is made by Playwright from a fixture: `page`, `page.getByTestId('x')`, `await
 * context.newPage()`, a response of `request.get(...)`, and variables holding them. A value the spec
 * could have built itself (a parameter of its own function, an object literal) never is.
 */
export function isFixtureRooted(model: SpecModel, expr: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let e = model.unwrap(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (ts.isIdentifier(e)) {
    const declaration = model.declarationOf(e);
    if (!declaration) return false;
    if (ts.isBindingElement(declaration)) return isProvidedFixture(model, declaration) || isRootedElement(model, declaration, depth);
    if (ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name) && declaration.initializer && isConst(declaration)) {
      return isFixtureRooted(model, declaration.initializer, depth + 1);
    }
    return false;
  }
  if (ts.isCallExpression(e)) {
    const callee = model.unwrap(e.expression);
    return (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) && isFixtureRooted(model, callee.expression, depth + 1);
  }
  if (ts.isPropertyAccessExpression(e)) return isFixtureRooted(model, e.expression, depth + 1);
  return false;
}

/** `const [response] = await Promise.all([page.waitForResponse(url), …])`: the matching element is rooted. */
function isRootedElement(model: SpecModel, element: ts.BindingElement, depth: number): boolean {
  const pattern = element.parent;
  const declaration = pattern.parent;
  if (!ts.isArrayBindingPattern(pattern) || !ts.isVariableDeclaration(declaration) || !declaration.initializer || !isConst(declaration)) return false;
  let init = model.unwrap(declaration.initializer);
  if (ts.isAwaitExpression(init)) init = model.unwrap(init.expression);
  if (!ts.isCallExpression(init) || !init.arguments[0]) return false;
  const callee = model.unwrap(init.expression);
  const combinator = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'Promise' && !model.declarationOf(callee.expression) && ['all', 'race', 'any'].includes(callee.name.text);
  const items = combinator ? model.unwrap(init.arguments[0]) : undefined;
  if (!items || !ts.isArrayLiteralExpression(items)) return false;
  const item = items.elements[pattern.elements.indexOf(element)];
  return item !== undefined && !ts.isSpreadElement(item) && isFixtureRooted(model, item, depth + 1);
}

/** The test's TestInfo: the second parameter of a test or hook, `test.info()`, or a constant holding one. */
export function isTestInfo(model: SpecModel, expr: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = model.unwrap(expr);
  if (ts.isIdentifier(e)) {
    const declaration = model.declarationOf(e);
    if (!declaration) return false;
    if (ts.isParameter(declaration)) return fixtureParameter(model, declaration) === 'testInfo';
    if (ts.isBindingElement(declaration)) return false;
    return ts.isVariableDeclaration(declaration) && isConst(declaration) && declaration.initializer !== undefined && isTestInfo(model, declaration.initializer, depth + 1);
  }
  return ts.isCallExpression(e) && e.arguments.length === 0 && model.playwrightPath(e.expression) === 'test.info';
}

/**
 * Whether a value is plain data: literals, object and array literals (followed into the property or
 * element read), JSON parsed from a Playwright response or JSON.parse, Playwright's `devices`, and what
 * is read or destructured from such data. Plain data has no members but its own keys and those every
 * object inherits, so any own key may be read from it.
 */
export function isPlainData(model: SpecModel, expr: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let e = model.unwrap(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isTemplateExpression(e)) return true;
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || e.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isObjectLiteralExpression(e)) return e.properties.every((p) => ts.isPropertyAssignment(p) && isPlainData(model, p.initializer, depth + 1));
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((item) => !ts.isSpreadElement(item) && isPlainData(model, item, depth + 1));
  if (ts.isIdentifier(e)) return identifierIsData(model, e, depth);
  if (ts.isCallExpression(e)) return isParsedJson(model, e);
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = model.memberName(e);
    const hit = name === undefined ? undefined : model.property(e.expression, name);
    if (hit) return isPlainData(model, hit.value, depth + 1);
    const array = model.resolve(e.expression);
    if (ts.isArrayLiteralExpression(array) && ts.isElementAccessExpression(e)) return isPlainData(model, array, depth + 1);
    return isJsonOrigin(model, e.expression, depth + 1);
  }
  return false;
}

function identifierIsData(model: SpecModel, id: ts.Identifier, depth: number): boolean {
  const declaration = model.declarationOf(id);
  if (!declaration) return false;
  if (ts.isImportSpecifier(declaration)) {
    const binding = model.moduleBinding(id);
    return binding?.module === '@playwright/test' && binding.imported === 'devices';
  }
  if (ts.isVariableDeclaration(declaration)) {
    if (!isConst(declaration)) return false;
    if (declaration.initializer) return ts.isIdentifier(declaration.name) && isPlainData(model, declaration.initializer, depth + 1);
    const loop = declaration.parent.parent;
    return ts.isForOfStatement(loop) && isPlainData(model, loop.expression, depth + 1);
  }
  if (ts.isBindingElement(declaration) || ts.isParameter(declaration)) return isJsonOrigin(model, id, depth + 1);
  return false;
}

/**
 * Whether a value is JSON-shaped data whose every nested value is data too: parsed JSON, `devices`, an
 * element of a data array, or what is destructured from such values. Object literals are not: their
 * properties may hold anything, so they are followed property by property (isPlainData).
 */
function isJsonOrigin(model: SpecModel, expr: ts.Expression, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  let e = model.unwrap(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (ts.isCallExpression(e)) return isParsedJson(model, e);
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return isJsonOrigin(model, e.expression, depth + 1);
  if (!ts.isIdentifier(e)) return false;
  const declaration = model.declarationOf(e);
  if (!declaration) return false;
  if (ts.isImportSpecifier(declaration)) return identifierIsData(model, e, depth);
  if (ts.isVariableDeclaration(declaration)) {
    if (!isConst(declaration)) return false;
    if (declaration.initializer) return ts.isIdentifier(declaration.name) && isJsonOrigin(model, declaration.initializer, depth + 1);
    const loop = declaration.parent.parent;
    return ts.isForOfStatement(loop) && (isJsonOrigin(model, loop.expression, depth + 1) || isPlainData(model, loop.expression, depth + 1));
  }
  if (ts.isBindingElement(declaration)) {
    let root: ts.Node = declaration;
    while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
    if (ts.isVariableDeclaration(root) && root.initializer && isConst(root)) return isJsonOrigin(model, root.initializer, depth + 1);
    if (ts.isVariableDeclaration(root) && ts.isForOfStatement(root.parent.parent)) return isJsonOrigin(model, root.parent.parent.expression, depth + 1) || isPlainData(model, root.parent.parent.expression, depth + 1);
    return false;
  }
  if (ts.isParameter(declaration)) {
    // `rows.map((row) => row.name)` over a data array.
    const fn = declaration.parent;
    const call = fn.parent;
    if (!ts.isCallExpression(call) || call.arguments[0] !== fn || fn.parameters[0] !== declaration) return false;
    const callee = model.unwrap(call.expression);
    return ts.isPropertyAccessExpression(callee) && ELEMENT_CALLBACKS.has(callee.name.text) && (isJsonOrigin(model, callee.expression, depth + 1) || isPlainData(model, callee.expression, depth + 1));
  }
  return false;
}

/** `JSON.parse(text)`, and data a Playwright object returns: `await response.json()`, `response.headers()`, `locator.boundingBox()`. */
function isParsedJson(model: SpecModel, call: ts.CallExpression): boolean {
  const callee = model.unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const receiver = model.unwrap(callee.expression);
  if (callee.name.text === 'parse' && ts.isIdentifier(receiver) && receiver.text === 'JSON' && !model.declarationOf(receiver)) return call.arguments.length === 1;
  return DATA_METHODS.has(callee.name.text) && isFixtureRooted(model, callee.expression);
}

function isConst(declaration: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
}

/**
 * The function of this file a call runs: what SpecModel.localFunction finds (helpers, methods of classes
 * made with `new`), and methods of the spec's own fixtures (`loginPage.open()` where test.extend hands
 * `new LoginPage(page)` to use), following `extends`.
 */
export function calledFunction(model: SpecModel, call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
  const local = model.localFunction(call);
  if (local) return local;
  const callee = model.unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return undefined;
  const name = model.memberName(callee);
  const receiver = model.unwrap(callee.expression);
  if (name === undefined || !ts.isIdentifier(receiver)) return undefined;
  const declaration = model.declarationOf(receiver);
  const given = declaration && ts.isBindingElement(declaration) ? extendedFixtureValue(model, declaration) : undefined;
  const made = given && model.unwrap(given);
  let cls = made && ts.isNewExpression(made) && ts.isIdentifier(made.expression) ? classNamed(model, made.expression) : undefined;
  for (let depth = 0; cls && depth < MAX_DEPTH; depth++) {
    const member = cls.members.find((m) => m.name !== undefined && (ts.isIdentifier(m.name) || ts.isStringLiteralLike(m.name)) && m.name.text === name);
    if (member && ts.isMethodDeclaration(member)) return member;
    if (member) return undefined;
    const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    cls = base && ts.isIdentifier(base) ? classNamed(model, base) : undefined;
  }
  return undefined;
}

function classNamed(model: SpecModel, id: ts.Identifier): ts.ClassDeclaration | undefined {
  const declaration = model.declarationOf(id);
  return declaration && ts.isClassDeclaration(declaration) ? declaration : undefined;
}
