/**
 * Model-written code may read the page by script, not change it. A function run in the page
 * (`page.evaluate`, `locator.evaluate`, `addInitScript`, …) that writes storage, the DOM or a global, or calls
 * what is not a read, makes the state the spec then asserts; a route that serves the app's own code (a script,
 * page or style) replaces the app under test. Either way the spec passes on an app that does not do what was
 * asked, and the proof, which makes only the spec's actions through the page no-ops, cannot tell. What a page
 * function may do is an allow-list: read properties, call the reads `read_calls` names, compute with its own
 * variables.
 */
import { z } from 'zod';
import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { isFunctionLike } from '../analysis/syntax.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { mayBePlaywrightObject } from './utils/ast.ts';
import { literalParts } from '../util/regexp.ts';

const Options = ruleOptions({
  /** Playwright methods whose function (or text) runs in the page. */
  script_methods: z.array(z.string().min(1)),
  /** Functions and methods a page function may call: reads of the page, its storage and plain values. */
  read_calls: z.array(z.string().min(1)),
  /** Constructors a page function may call (`new URL(location.href)`). */
  read_constructors: z.array(z.string().min(1)),
  /** A route pattern (its text, or a regular expression's source) that serves the app's own code when fulfilled. */
  code_routes: z.string().min(1),
});
type Options = z.infer<typeof Options>;

const ADVICE = 'act through the page (fill, click, …) and read it with a locator and a web-first assertion; a page function may only read';

export default defineRule({
  id: 'no-page-state-scripts',
  description: 'Model-written code may read the page by script but not change it, nor serve the app its own code from a route.',
  fixable: false,
  untrustedOnly: true,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    const scriptMethods = new Set(options.script_methods);
    const reads = new Set(options.read_calls);
    const constructors = new Set(options.read_constructors);
    const codeRoute = new RegExp(options.code_routes);
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver || !mayBePlaywrightObject(model, receiver)) continue;
      if (scriptMethods.has(name)) {
        const script = call.arguments[0];
        if (!script) continue;
        const fn = model.resolve(script);
        if (!isFunctionLike(fn) && !ts.isFunctionDeclaration(fn)) {
          findings.push({ node: script, message: `${name}() is given a script as text or a file, which no check can read; ${ADVICE}.` });
          continue;
        }
        const write = firstWrite(model, fn, reads, constructors);
        if (write) findings.push({ node: write.node, message: `The page function of ${name}() ${write.what}, so the spec makes the state it then asserts rather than the app; ${ADVICE}.` });
      } else if (name === 'route' && servesCode(model, call, codeRoute)) {
        findings.push({
          node: call,
          message: `This route fulfills the app's own code (${model.text(call.arguments[0]!)}), so the spec runs code of its own instead of the app under test; route only the app's data (an API), or none.`,
        });
      }
    }
    return findings;
  },
});

/** The first thing a page function does that is not a read: a write to what it did not declare, or a call not in the allow-list. */
function firstWrite(model: SpecModel, fn: ts.SignatureDeclaration & { body?: ts.Node }, reads: ReadonlySet<string>, constructors: ReadonlySet<string>): { node: ts.Node; what: string } | undefined {
  // The function's variables may be set (`n += 1`, `text = el.textContent`). Only the values it made itself
  // (`const seen = {}`) may have their properties set: a variable that holds what the page gave it
  // (`const el = document.querySelector(…)`, `const item = row`, a loop's element, `el = …` later) is the page's,
  // like a parameter, and writing its properties writes the page.
  const declared = new Set<string>();
  const pageValues = new Set<string>();
  const functions = new Set<string>();
  const visitDeclarations = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      declared.add(node.name.text);
      if (!ownValue(node)) pageValues.add(node.name.text);
      if (node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) functions.add(node.name.text);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left) && !OWN_VALUE_KINDS.has(node.right.kind)) pageValues.add(node.left.text);
    if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) && node.name) functions.add(node.name.text);
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(fn);
  const isLocal = (target: ts.Expression): boolean => {
    if (ts.isIdentifier(target)) return declared.has(target.text);
    let root: ts.Expression = target;
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root) || ts.isParenthesizedExpression(root)) root = root.expression;
    return ts.isIdentifier(root) && declared.has(root.text) && !pageValues.has(root.text);
  };
  let found: { node: ts.Node; what: string } | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && !isLocal(node.left)) {
      found = { node, what: `assigns ${model.text(node.left)}` };
    } else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) && !isLocal(node.operand)) {
      found = { node, what: `changes ${model.text(node.operand)}` };
    } else if (ts.isDeleteExpression(node)) {
      found = { node, what: `deletes ${model.text(node.expression)}` };
    } else if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
      // A tagged template (`region.append\`…\``) calls its tag like any call.
      const callee = ts.isCallExpression(node) ? node.expression : node.tag;
      const called = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : undefined;
      if (ts.isPropertyAccessExpression(callee) && NAVIGATORS.test(model.text(callee.expression)) && called !== 'toString') found = { node, what: `calls ${model.text(callee)}(), which moves the page` };
      else if (called === undefined || (!reads.has(called) && !(ts.isIdentifier(callee) && functions.has(called)))) found = { node, what: `calls ${model.text(callee)}(), which is not a read` };
    } else if (ts.isNewExpression(node)) {
      const constructed = ts.isIdentifier(node.expression) ? node.expression.text : undefined;
      if (constructed === undefined || !constructors.has(constructed)) found = { node, what: `constructs ${model.text(node.expression)}` };
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/**
 * `page.route('**\/shop.js', route => route.fulfill(…))`: a handler that fulfills a pattern of the app's code,
 * or fulfills anything with a page or a script of the spec's own (`contentType: 'text/html'`, a body that is
 * HTML), whatever its pattern (`**\/checkout`).
 */
function servesCode(model: SpecModel, call: ts.CallExpression, codeRoute: RegExp): boolean {
  const [pattern, handler] = call.arguments;
  if (!pattern || !handler) return false;
  const value = model.resolve(pattern);
  // A regular expression's source, its anchors dropped: /shop\.js$/ is read as shop\.js.
  const text = ts.isRegularExpressionLiteral(value) ? literalParts(value.text).source.replace(/^\^|\$$/g, '') : model.stringValue(pattern);
  const fulfills: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'fulfill') fulfills.push(node);
    ts.forEachChild(node, visit);
  };
  visit(model.resolve(handler));
  if (fulfills.length === 0) return false;
  return (text !== undefined && codeRoute.test(text)) || fulfills.some((fulfill) => fulfillsWithCode(model, fulfill));
}

/** What moves the page when its methods are called (`location.replace(…)`, `history.back()`), whatever the method's name. */
const NAVIGATORS = /^(?:(?:window|self|globalThis|document)\.)?(?:location|history|navigation)$/;

/** A variable the page function made itself: no value yet, a literal, or a new object, not what the page handed it. */
function ownValue(declaration: ts.VariableDeclaration): boolean {
  const loop = declaration.parent.parent;
  if (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) return false;
  const value = declaration.initializer;
  return value === undefined || OWN_VALUE_KINDS.has(value.kind);
}

const OWN_VALUE_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.ObjectLiteralExpression,
  ts.SyntaxKind.ArrayLiteralExpression,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateExpression,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression,
]);

/** Media types of a page or a script: what the browser runs. */
const CODE_TYPES = /html|javascript|ecmascript/i;
/** The start of a page or a script element in a body. */
const CODE_BODY = /<(?:!doctype|html|script|body)\b/i;

/** `route.fulfill({ contentType: 'text/html', body: '<!doctype html>…' })`: what it serves is code the browser runs. */
function fulfillsWithCode(model: SpecModel, fulfill: ts.CallExpression): boolean {
  const options = fulfill.arguments[0] && model.objectLiteral(fulfill.arguments[0]);
  if (!options) return false;
  const valueOf = (name: string) => {
    const property = options.properties.find((p) => model.propertyName(p) === name);
    return property && ts.isPropertyAssignment(property) ? property.initializer : undefined;
  };
  const text = (expr: ts.Expression | undefined) => (expr ? model.stringValue(expr, ' ') : undefined);
  const headers = valueOf('headers');
  const headerObject = headers && model.objectLiteral(headers);
  const headerType = headerObject?.properties.find((p) => model.propertyName(p)?.toLowerCase() === 'content-type');
  const types = [text(valueOf('contentType')), headerType && ts.isPropertyAssignment(headerType) ? text(headerType.initializer) : undefined];
  const path = text(valueOf('path'));
  return types.some((type) => type !== undefined && CODE_TYPES.test(type)) || CODE_BODY.test(text(valueOf('body')) ?? '') || (path !== undefined && /\.(?:html?|m?js)$/i.test(path));
}
