import { ts } from '../util/typescript.js';
import { valueSite } from '../analysis/syntax.ts';
import type { Expectation, SpecModel } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText } from './utils/ast.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';

type ReadKind = 'state' | 'text' | 'texts' | 'value' | 'attribute' | 'count' | 'title' | 'url';

interface ReadMethod {
  kind: ReadKind;
  /** The web-first matcher that asserts the same thing and retries. */
  matcher: string;
  /** For states: the matcher of the opposite state, when Playwright has one. */
  opposite?: string;
}

/** Methods that read a value once, and the web-first matcher that checks it with retries. */
const READS: Record<string, ReadMethod> = {
  isVisible: { kind: 'state', matcher: 'toBeVisible', opposite: 'toBeHidden' },
  isHidden: { kind: 'state', matcher: 'toBeHidden', opposite: 'toBeVisible' },
  isEnabled: { kind: 'state', matcher: 'toBeEnabled', opposite: 'toBeDisabled' },
  isDisabled: { kind: 'state', matcher: 'toBeDisabled', opposite: 'toBeEnabled' },
  isChecked: { kind: 'state', matcher: 'toBeChecked' },
  isEditable: { kind: 'state', matcher: 'toBeEditable' },
  textContent: { kind: 'text', matcher: 'toHaveText' },
  innerText: { kind: 'text', matcher: 'toHaveText' },
  allTextContents: { kind: 'texts', matcher: 'toHaveText' },
  allInnerTexts: { kind: 'texts', matcher: 'toHaveText' },
  inputValue: { kind: 'value', matcher: 'toHaveValue' },
  getAttribute: { kind: 'attribute', matcher: 'toHaveAttribute' },
  count: { kind: 'count', matcher: 'toHaveCount' },
  title: { kind: 'title', matcher: 'toHaveTitle' },
  url: { kind: 'url', matcher: 'toHaveURL' },
};

const EQUALITY = new Set(['toBe', 'toEqual', 'toStrictEqual']);
/** Matchers on getAttribute's result that ask whether the attribute is there (true) or absent (false). */
const PRESENCE = new Map([['toBeTruthy', true], ['toBeFalsy', false], ['toBeNull', false]]);
/** String methods that only normalise what was read: `(await l.textContent())?.trim()`. */
const NORMALISERS = new Set(['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toString']);
const CONVERSIONS = new Set(['String', 'Boolean', 'Number']);

interface Read {
  call: ts.CallExpression;
  method: string;
  spec: ReadMethod;
  receiver: ts.Expression;
  /** The variable the value was stored in before the assertion, if any. */
  variable: string | undefined;
  /** `expect(!(await l.isVisible()))` inverts the state. */
  inverted: boolean;
}

export default defineRule({
  id: 'prefer-web-first-assertions',
  description: 'Asserting on a value read once (isVisible, textContent, count, page.title(), page.url()…) does not retry; use web-first matchers.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const expectation of model.expectations()) {
      if (expectation.flavour === 'expect.poll' || !expectation.subject) continue;
      if (expectation.modifiers.includes('resolves') || expectation.modifiers.includes('rejects')) continue;
      // Inside expect(async () => …).toPass() or expect.poll(…) the read is retried with the block.
      if (retriedByEnclosing(model, expectation.expectCall)) continue;
      const read = readBehind(model, expectation.subject, undefined, false, 0);
      if (!read) continue;
      const shown = `${calleeText(model, read.call)}()`;
      const what = read.variable
        ? `\`${read.variable}\` holds ${shown} read once earlier, so asserting on it`
        : `Asserting on ${shown} reads the value once and`;
      findings.push({
        node: expectation.expectCall,
        message: `${what} does not retry while the page settles; use ${suggestion(model, expectation, read)}, which waits until it holds.`,
      });
    }
    return findings;
  },
});

/** The one-time read behind an assertion's subject, through awaits, variables, templates and normalising calls. */
function readBehind(model: SpecModel, expr: ts.Expression, variable: string | undefined, inverted: boolean, depth: number, awaitedByCaller = false): Read | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  const next = (inner: ts.Expression, invert = false) => readBehind(model, inner, variable, inverted !== invert, depth + 1, awaitedByCaller);
  if (ts.isAwaitExpression(e)) return next(e.expression);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) return next(e.operand, true);
  if (ts.isTemplateExpression(e) && e.head.text === '' && e.templateSpans.length === 1 && e.templateSpans[0]!.literal.text === '') {
    return next(e.templateSpans[0]!.expression);
  }
  if (ts.isIdentifier(e)) {
    const declaration = model.declarationOf(e);
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer || !ts.isIdentifier(declaration.name)) return undefined;
    return readBehind(model, declaration.initializer, variable ?? e.text, inverted, depth + 1, awaitedByCaller);
  }
  if (!ts.isCallExpression(e)) return undefined;
  const { name, receiver } = model.callee(e);
  if (!name) return undefined;
  if (!receiver && CONVERSIONS.has(name)) return e.arguments[0] ? next(e.arguments[0]) : undefined;
  if (receiver && NORMALISERS.has(name)) return next(receiver);
  const read = receiver && Object.hasOwn(READS, name) ? directRead(model, e, name, receiver, variable, inverted, awaitedByCaller) : undefined;
  if (read) return read;
  // `await textOf(page)` or `await home.title()` where the helper or page-object method of this file
  // returns `page.textContent(…)`: awaited where it is called, so the read it returns is awaited too.
  const returned = returnedExpression(model.localFunction(e));
  return returned ? readBehind(model, returned, variable, inverted, depth + 1, awaitedByCaller || isAwaitedDirectly(e)) : undefined;
}

/** `locator.textContent()`, `page.title()`, …: a read of the page, when its receiver is one that has it. */
function directRead(model: SpecModel, e: ts.CallExpression, name: string, receiver: ts.Expression, variable: string | undefined, inverted: boolean, awaitedByCaller: boolean): Read | undefined {
  const spec = READS[name]!;
  const kind = model.kindOf(receiver);
  // title() and url() are also methods of requests and responses; only a page's count.
  const fits = spec.kind === 'title' || spec.kind === 'url'
    ? kind === 'page' || kind === 'frame'
    : kind === 'locator' || kind === 'page' || kind === 'frame' || kind === 'elementHandle' || kind === 'unknown';
  if (!fits) return undefined;
  // On an unknown value only an awaited read counts: the methods are async, so the await shows intent.
  if (kind === 'unknown' && !isAwaitedDirectly(e) && !awaitedByCaller) return undefined;
  // count() is also a database's or a collection's (prisma.user.count()): there is no web-first form for those.
  if (kind === 'unknown' && spec.kind === 'count') return undefined;
  return { call: e, method: name, spec, receiver, variable, inverted };
}

/** The web-first assertion to write instead, e.g. `await expect(page.getByTestId('x')).toHaveText('Hi')`. */
function suggestion(model: SpecModel, expectation: Expectation, read: Read): string {
  const { spec } = read;
  const args = [...read.call.arguments];
  const kind = model.kindOf(read.receiver);
  // page.textContent(selector) reads through a selector; the web-first form needs a locator for it.
  const takesSelector = (kind === 'page' || kind === 'frame') && spec.kind !== 'title' && spec.kind !== 'url';
  const selector = takesSelector ? args.shift() : undefined;
  const target = shorten(`${model.text(read.receiver)}${selector ? `.locator(${model.text(selector)})` : ''}`);
  const expected = expectation.call.arguments[0];
  const expectedText = expected ? shorten(model.text(expected)) : undefined;
  const matcher = expectation.matcher;
  const web = (negated: boolean, name: string, ...values: Array<string | undefined>) =>
    `await ${expectation.flavour}(${target})${negated ? '.not' : ''}.${name}(${values.filter((v) => v !== undefined).join(', ')})`;

  if (spec.kind === 'state') {
    const falsy = matcher === 'toBeFalsy' || (EQUALITY.has(matcher) && expected?.kind === ts.SyntaxKind.FalseKeyword);
    const negative = expectation.negated !== falsy !== read.inverted;
    if (!negative) return web(false, spec.matcher);
    return spec.opposite ? web(false, spec.opposite) : web(true, spec.matcher);
  }
  const negated = expectation.negated;
  const attributeName = spec.kind === 'attribute' && args[0] ? model.text(args[0]) : undefined;
  if (EQUALITY.has(matcher) || (matcher === 'toMatch' && spec.kind !== 'count')) {
    return web(negated, spec.matcher, attributeName, expectedText ?? '…');
  }
  if (matcher === 'toContain' && spec.kind === 'text') return web(negated, 'toContainText', expectedText ?? '…');
  if (matcher === 'toContain' && (spec.kind === 'title' || spec.kind === 'url') && expected && ts.isStringLiteralLike(expected)) {
    return web(negated, spec.matcher, `/${escapeRegExp(expected.text)}/`);
  }
  if (spec.kind === 'attribute' && PRESENCE.has(matcher)) return web(negated === PRESENCE.get(matcher), spec.matcher, attributeName);
  // No web-first matcher compares this way; expect.poll retries the read instead.
  const poll = `await expect.poll(() => ${shorten(model.text(read.call))})${negated ? '.not' : ''}.${matcher}(${expectedText ?? ''})`;
  return `${web(false, spec.matcher, attributeName, '…')} or, for this comparison, ${poll}`;
}

/** What a local helper returns, when it returns one thing (an arrow's expression, or a block's only return). */
function returnedExpression(fn: ts.FunctionLikeDeclaration | undefined): ts.Expression | undefined {
  const body = fn?.body;
  if (!body) return undefined;
  if (!ts.isBlock(body)) return body;
  const returns = body.statements.filter(ts.isReturnStatement);
  return returns.length === 1 ? returns[0]!.expression : undefined;
}

/** Whether `node` is inside a function that expect.poll(fn) or expect(fn).toPass() retries. */
function retriedByEnclosing(model: SpecModel, node: ts.Node): boolean {
  for (let fn: ts.Node | undefined = node.parent; fn; fn = fn.parent) {
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) continue;
    const argument = valueSite(fn);
    const call = argument.parent;
    if (!ts.isCallExpression(call) || call.arguments[0] !== argument) continue;
    const path = model.playwrightPath(call.expression);
    if (path === 'expect.poll') return true;
    if (path !== 'expect') continue;
    let outer: ts.Node = call;
    while (ts.isPropertyAccessExpression(outer.parent) || (ts.isCallExpression(outer.parent) && outer.parent.expression === outer)) outer = outer.parent;
    if (ts.isCallExpression(outer) && ts.isPropertyAccessExpression(outer.expression) && outer.expression.name.text === 'toPass') return true;
  }
  return false;
}

function isAwaitedDirectly(call: ts.CallExpression): boolean {
  return ts.isAwaitExpression(valueSite(call).parent);
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 70 ? `${flat.slice(0, 67)}…` : flat;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
