import { ts } from '../util/typescript.js';
import { isFunctionLike, type Expectation, type SpecModel } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { compilePattern } from '../util/regexp.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { classifyCall } from '../analysis/test-steps.ts';
import { defineRule, type Finding } from './types.ts';

/** Matchers whose argument is the text, value, title or URL expected: a pattern there must say something. */
const TEXT_MATCHERS = new Set(['toHaveText', 'toContainText', 'toHaveValue', 'toHaveTitle', 'toHaveURL', 'toMatch', 'toHaveAccessibleName', 'toHaveAccessibleDescription', 'toHaveClass']);
/** Matchers that take a list of texts, one per element: each item must say something. */
const LIST_MATCHERS = new Set(['toHaveText', 'toContainText', 'toHaveClass', 'toHaveValues']);
/** Texts a pattern that asserts only emptiness (`/^$/`, `/^\s*$/`) rejects. */
const NON_EMPTY_PROBES = ['x', 'Lorem ipsum 42', '0'];
/** Matchers that hold for any object: a locator or a pending promise is always truthy and defined. */
const ALWAYS_ON_OBJECTS = new Set(['toBeTruthy', 'toBeDefined']);
const ALWAYS_WHEN_NEGATED = new Set(['toBeFalsy', 'toBeUndefined', 'toBeNull']);
/** Reads that never give undefined: `toBeDefined()` on what they return holds whatever the page shows. */
const DEFINED_READS = new Set(['textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'count', 'isVisible', 'isHidden', 'isEnabled', 'isChecked', 'allTextContents', 'allInnerTexts', 'title', 'url']);
const SPECIFIC = 'assert what the request expects: the text, number or state the page must show';

export default defineRule({
  id: 'no-vague-assertions',
  description: 'Flags assertions any value satisfies (toContainText(/.+/), toHaveClass(/^(done)?$/), toBeGreaterThanOrEqual(0), toBeTruthy() on a locator, a toHaveURL predicate) and .or() chains of guessed locators.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const expectation of model.expectations()) {
      const reason = vagueness(model, expectation);
      if (reason) findings.push({ node: expectation.call, message: `${reason}, so it passes whatever the page shows; ${SPECIFIC}.` });
    }
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (name !== 'or' || !receiver || model.kindOf(receiver) !== 'locator') continue;
      findings.push({
        node: call,
        message: `\`.or()\` accepts whichever of several guessed elements is there, so the step passes without knowing which the page has; use the one element the page shows (the explored page lists its test ids, roles and labels).`,
      });
    }
    return findings;
  },
});

function vagueness(model: SpecModel, expectation: Expectation): string | undefined {
  const { matcher, negated, subject } = expectation;
  const args = expectation.call.arguments;
  const shown = `${negated ? 'not.' : ''}${matcher}(${args.map((a) => model.text(a)).join(', ')})`;
  const anything = args.find((a) => isAnyMatcher(model, a));
  if (anything && !negated) return `\`${shown}\` accepts any value`;
  if (!negated && TEXT_MATCHERS.has(matcher) && args[0]) {
    const texts = LIST_MATCHERS.has(matcher) ? listItems(model, args[0]) : [args[0]];
    for (const text of texts) {
      const reason = patternVagueness(model, text, 'text');
      if (reason) return `\`${shown}\` ${reason}`;
      if (matcher === 'toContainText' && model.stringValue(text) === '') return `\`${shown}\` is contained in every text`;
    }
  }
  const reading = !negated && args[0] ? pageReadIn(model, args[0], 0) : undefined;
  if (reading && !actsBetween(model, reading, expectation.call)) {
    return `\`${shown}\` expects what the page already shows (\`${model.text(reading)}\`, read just before with nothing done since)`;
  }
  if (!negated && matcher === 'toHaveURL' && args[0] && isFunctionLike(model.unwrap(args[0]))) {
    return `\`${shown}\` hides which addresses it accepts (a predicate may accept the page the test started on)`;
  }
  if (!negated && matcher === 'toHaveAttribute' && args[1]) {
    const reason = patternVagueness(model, args[1], 'value of the attribute');
    if (reason) return `\`${shown}\` ${reason}`;
  }
  if (!negated && (matcher === 'toBeGreaterThanOrEqual' || matcher === 'toBeGreaterThan') && args[0]) {
    const bound = numberValue(model, args[0]);
    if (bound !== undefined && (matcher === 'toBeGreaterThanOrEqual' ? bound <= 0 : bound < 0)) return `\`${shown}\` holds for every count and length`;
  }
  if (!subject) return undefined;
  const alwaysHolds = (!negated && ALWAYS_ON_OBJECTS.has(matcher)) || (negated && ALWAYS_WHEN_NEGATED.has(matcher));
  if (!alwaysHolds) return undefined;
  const value = model.unwrap(subject);
  if (model.kindOf(value) === 'locator' && !ts.isAwaitExpression(value)) return `\`${shown}\` on a locator holds whether or not the element exists (a locator is an object)`;
  if (ts.isCallExpression(value) && isPlaywrightRead(model, value)) return `\`${shown}\` on \`${model.text(value)}\`, a promise not awaited, always holds`;
  if (ts.isAwaitExpression(value) && ts.isCallExpression(model.unwrap(value.expression)) && (matcher === 'toBeDefined' || (negated && matcher === 'toBeUndefined'))) {
    const read = model.unwrap(value.expression) as ts.CallExpression;
    if (isPlaywrightRead(model, read)) return `\`${shown}\` on what \`${model.text(read)}\` returns holds for every page (it never returns undefined)`;
  }
  return undefined;
}

/** An awaited read of the page (`await total.innerText()`) that an expected value is computed from, followed through variables. */
function pageReadIn(model: SpecModel, expr: ts.Node, depth: number): ts.AwaitExpression | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (ts.isAwaitExpression(expr)) {
    const awaited = model.unwrap(expr.expression);
    if (ts.isCallExpression(awaited) && isPlaywrightRead(model, awaited)) return expr;
  }
  if (ts.isIdentifier(expr)) {
    const resolved = model.resolve(expr);
    return resolved === expr ? undefined : pageReadIn(model, resolved, depth + 1);
  }
  return ts.forEachChild(expr, (child) => pageReadIn(model, child, depth));
}

/** Whether the spec acts (clicks, fills, goes somewhere) between a read and an assertion: then the read is what was before. */
function actsBetween(model: SpecModel, read: ts.Node, assertion: ts.Node): boolean {
  return model.calls.some((call) => call.pos >= read.end && call.end <= assertion.pos && ['action', 'navigation'].includes(classifyCall(model, call) ?? ''));
}

function isPlaywrightRead(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  return name !== undefined && receiver !== undefined && DEFINED_READS.has(name) && ['locator', 'page', 'frame'].includes(model.kindOf(receiver));
}

/** `expect.any(Number)`, `expect.anything()`. */
function isAnyMatcher(model: SpecModel, expr: ts.Expression): boolean {
  const value = model.unwrap(expr);
  if (!ts.isCallExpression(value)) return false;
  const callee = model.unwrap(value.expression);
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'expect' && (callee.name.text === 'any' || callee.name.text === 'anything');
}

/** The items of a list argument (`toHaveText(['a', /b/])`), or the argument itself. */
function listItems(model: SpecModel, expr: ts.Expression): ts.Expression[] {
  const value = model.resolve(model.unwrap(expr));
  return ts.isArrayLiteralExpression(value) ? [...value.elements] : [expr];
}

/**
 * Why a pattern says nothing, if it does not: it requires no particular character (`/.+/`, `/\w+/`), or all it
 * names is optional, so an empty text matches too (`/^(done)?$/`, `/Saved|/`). A pattern that matches only
 * an empty text (`/^$/`, `/^\s*$/`) asserts emptiness, which is something.
 */
function patternVagueness(model: SpecModel, expr: ts.Expression, what: string): string | undefined {
  const pattern = model.patternValue(expr);
  if (!pattern) return undefined;
  const compiled = compilePattern(pattern.source, pattern.flags);
  if (hasLiteral(pattern.source)) return compiled?.test('') ? `matches an empty ${what} too (what the pattern names is optional)` : undefined;
  const onlyEmpty = compiled !== undefined && compiled.test('') && !NON_EMPTY_PROBES.some((probe) => compiled.test(probe));
  return onlyEmpty ? undefined : `matches any ${what}`;
}

function numberValue(model: SpecModel, expr: ts.Expression): number | undefined {
  const value = model.resolve(model.unwrap(expr));
  if (ts.isNumericLiteral(value)) return Number(value.text);
  if (ts.isPrefixUnaryExpression(value) && value.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(value.operand)) return -Number(value.operand.text);
  return undefined;
}

/** Escapes that stand for a class of characters, not one character. */
const CLASS_ESCAPES = new Set(['w', 'W', 's', 'S', 'd', 'D', 'b', 'B']);

/**
 * Whether a pattern requires some particular character: `/\d+ items/` does, `/.+/`, `/\w+/` and
 * `/[A-Za-z]{3,}/` do not (only classes, wildcards, quantifiers, groups and anchors).
 */
export function hasLiteral(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1];
      i++;
      if (next !== undefined && !CLASS_ESCAPES.has(next)) return true;
    } else if (char === '[') {
      const close = classEnd(pattern, i);
      // A class of one character (`[x]`) requires it.
      if (/^\[[^\\^\]-]\]$/.test(pattern.slice(i, close + 1))) return true;
      i = close;
    } else if (char === '{') {
      const close = pattern.indexOf('}', i);
      if (close < 0 || !/^\{\d*,?\d*\}$/.test(pattern.slice(i, close + 1))) return true;
      i = close;
    } else if (char === '(' && pattern[i + 1] === '?') {
      // A group's own syntax: (?:, (?=, (?!, (?<name>.
      const named = /^\(\?<[A-Za-z_]\w*>/.exec(pattern.slice(i));
      i += named ? named[0].length - 1 : 2;
    } else if (!'.^$*+?()|'.includes(char)) {
      return true;
    }
  }
  return false;
}

function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > start + 1) return i;
  }
  return pattern.length - 1;
}
