import { ts } from '../util/typescript.js';
import { valueSite } from '../analysis/syntax.ts';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import type { PageInventory } from '../contracts.ts';
import { wasCut } from '../explore/render.ts';
import { editDistance } from '../util/edit-distance.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { UNKNOWN_PART, selectorUses } from './utils/selectors.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { signInSteps } from '../analysis/sign-in-steps.ts';
import { comparePaths, earliest, runPaths, type RunPath } from '../analysis/run-paths.ts';

const Options = ruleOptions({
  /** How many of the nearest real test ids an unknown one is answered with. */
  suggestions: z.number().int().nonnegative(),
  /** Severity of a test id that several elements carry, used without narrowing. */
  ambiguous_severity: z.enum(['error', 'warning']),
});

/** Calls on a locator that narrow it to fewer elements, or scope further lookups inside it. */
const NARROWING = new Set(['filter', 'nth', 'first', 'last', 'locator', 'getByTestId', 'getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText', 'getByTitle', 'and', 'or', 'frameLocator', 'contentFrame']);
/** Calls and matchers that work on all the elements a locator matches, so several are fine. */
const MULTI_ELEMENT_CALLS = new Set(['count', 'all', 'allTextContents', 'allInnerTexts', 'evaluateAll', 'elementHandles']);
const MULTI_ELEMENT_MATCHERS = new Set(['toHaveCount']);
const LIST_MATCHERS = new Set(['toHaveText', 'toContainText']);
/** Receivers whose elements live in another document than the explored page. */
const FRAME_ENTRIES = new Set(['frameLocator', 'contentFrame', 'frame', 'childFrames']);

type TestIdEntry = PageInventory['testIds'][number];

interface TestIdUse {
  /** The getByTestId or locator call. */
  call: ts.CallExpression;
  argument: ts.Expression;
  /** The id as written; `*` stands for a part only known at run time. */
  shown: string;
  matches(id: string): boolean;
  exact: string | undefined;
  /** The call's locator is exactly the elements carrying the id (not something inside or near them). */
  direct: boolean;
  receiver: ts.Expression | undefined;
}

export default defineRule({
  id: 'no-unknown-testid',
  description: 'Every test id a spec uses exists on the explored page it is used on, and one several elements carry is narrowed.',
  fixable: false,
  options: Options,
  check(model, options, env) {
    const inventory = env.inventory;
    // An inventory read with another attribute says nothing about these ids.
    if (!inventory || inventory.testIdAttribute !== env.testIdAttribute) return [];
    if (inventory.pages !== undefined) return checkAlongTheFlow(model, inventory, options, env.testIdAttribute);
    return checkOnePage(model, inventory, options, testIdUses(model, env.testIdAttribute));
  },
});

type RuleOptions = z.infer<typeof Options>;

function checkOnePage(model: SpecModel, inventory: PageInventory, options: RuleOptions, uses: readonly TestIdUse[]): Finding[] {
  const known = new Map(inventory.testIds.map((entry) => [entry.testId, entry]));
  const incomplete = wasCut(inventory, 'testIds');
  const findings: Finding[] = [];

  for (const use of uses) {
    if (use.receiver && inFrame(model, use.receiver, 0)) continue;
    const found = use.exact !== undefined ? known.get(use.exact) : inventory.testIds.find((entry) => use.matches(entry.testId));
    if (!found) {
      findings.push(unknownFinding(use, inventory, options.suggestions, incomplete));
      continue;
    }
    if (found.count > 1 && use.direct && !scopedByLocator(model, use.receiver) && usedStrictly(model, use.call, 0)) {
      findings.push(ambiguousFinding(use, found, options.ambiguous_severity));
    }
  }
  return findings;
}

// --- along the flow: which explored page the spec is on at each use --------------------------------

/** Calls after which the page may be another one (a click can submit a form or follow a link). */
const MAY_NAVIGATE = new Set(['click', 'dblclick', 'tap', 'press', 'check', 'uncheck', 'setChecked', 'selectOption', 'dispatchEvent', 'goBack', 'goForward', 'submit']);
/** Calls that name the page the spec is on now: `page.goto(path)`, `page.waitForURL(path)`, `expect(page).toHaveURL(path)`. */
const NAMES_THE_PAGE = new Set(['goto', 'waitForURL', 'toHaveURL']);

/**
 * Where the spec is at a point: an explored page (`changed` once the spec has acted, other than signing in,
 * before going there: the page may then show what the exploration, which changed nothing, did not see), a
 * page nobody explored, or somewhere an action led.
 */
type Whereabouts = { kind: 'page'; page: PageInventory; changed: boolean } | { kind: 'unexplored'; path: string } | { kind: 'after-action'; before: PageInventory | undefined };

/**
 * A site inventory: each id is judged against the page the spec is on at that point. Known pages
 * (the start page, a path the spec goes to or waits for that was explored) give errors with suggestions;
 * after an action that may have led elsewhere, an id on no explored page is unverified (a warning):
 * the run decides, and the Medic sees the real page if it fails.
 */
function checkAlongTheFlow(model: SpecModel, inventory: PageInventory, options: RuleOptions, attribute: string): Finding[] {
  const site = [inventory, ...(inventory.pages ?? [])];
  const byPath = new Map(site.map((page) => [pathOf(page.url), page]));
  const calls = [...model.calls].sort((a, b) => a.getEnd() - b.getEnd());
  const signIn = signInSteps(model, calls, () => true);
  const moves = calls.flatMap((call, index) => {
    const move = moveOf(model, call, inventory.url, signIn.has(index));
    // A navigation in a helper or page-object method moves the spec where the method is called.
    return move ? runPaths(model, call, call.getEnd()).map((at) => ({ ...move, at })) : [];
  }).sort((a, b) => comparePaths(a.at, b.at));
  const whereaboutsAt = (position: RunPath): Whereabouts => {
    let where: Whereabouts = { kind: 'page', page: inventory, changed: false };
    let acted = false;
    for (const move of moves) {
      if (comparePaths(move.at, position) > 0) break;
      if (move.to !== undefined) {
        const page = byPath.get(move.to);
        where = page ? { kind: 'page', page, changed: acted } : { kind: 'unexplored', path: move.to };
      } else if (move.action) {
        where = { kind: 'after-action', before: where.kind === 'page' ? where.page : where.kind === 'after-action' ? where.before : undefined };
        // The exploration signed in too: the pages it read are the signed-in ones.
        acted ||= !move.signsIn;
      }
    }
    return where;
  };

  const findings: Finding[] = [];
  for (const use of testIdUses(model, attribute)) {
    const used = firstUse(model, use.call, 0);
    // A page object's member the test never reaches runs nowhere.
    if (!used) continue;
    const where = whereaboutsAt(used);
    if (where.kind === 'page') {
      if (!where.changed || where.page.testIds.some((entry) => use.matches(entry.testId))) {
        findings.push(...checkOnePage(model, where.page, options, [use]));
        continue;
      }
      if (use.receiver && inFrame(model, use.receiver, 0)) continue;
      // An element the spec's own actions make (the line of an item it added) the exploration could not see.
      const nearest = nearestIds(use, where.page.testIds, options.suggestions);
      findings.push({
        node: use.argument,
        severity: 'warning',
        message: `Test id "${use.shown}" is unverified: it is not on ${pathOf(where.page.url)} as explored, before anything was changed, and the spec acts before it goes there; the run decides${nearest.length > 0 ? ` (nearest there: ${nearest.join(', ')})` : ''}.`,
      });
      continue;
    }
    if (use.receiver && inFrame(model, use.receiver, 0)) continue;
    if (site.some((page) => page.testIds.some((entry) => use.matches(entry.testId)))) continue;
    const nearest = nearestIds(use, site.flatMap((page) => page.testIds), options.suggestions);
    const place = where.kind === 'unexplored' ? `on ${where.path}, a page that was not explored` : 'after an action that may lead to a page that was not explored';
    findings.push({
      node: use.argument,
      severity: 'warning',
      message: `Test id "${use.shown}" is unverified: it is used ${place} and is on no explored page; the run decides${nearest.length > 0 ? ` (nearest explored: ${nearest.join(', ')})` : ''}.`,
    });
  }
  return findings;
}

/** What a call does to where the spec is: goes to a named page, or acts in a way that may lead elsewhere. */
function moveOf(model: SpecModel, call: ts.CallExpression, base: string, signsIn: boolean): { to: string | undefined; action: boolean; signsIn: boolean } | undefined {
  const name = model.callee(call).name;
  if (name && NAMES_THE_PAGE.has(name) && call.arguments[0]) {
    const value = model.stringValue(call.arguments[0], UNKNOWN_PART);
    if (value === undefined || value.includes(UNKNOWN_PART)) return { to: undefined, action: true, signsIn: false };
    return { to: pathOf(new URL(value, base).href), action: false, signsIn: false };
  }
  return name && MAY_NAVIGATE.has(name) ? { to: undefined, action: true, signsIn } : undefined;
}

/**
 * Where a locator is first used, not where it is made: `const sort = page.getByTestId('sort')` at the top
 * of a test, first clicked after signing in, is on the page after signing in; a page object's
 * `this.total = page.getByTestId('cart-total')` where `cart.total` is first read; a method's locator where the
 * method is called (src/analysis/run-paths.ts). A locator held in a variable or field is used at the
 * earliest later reference (followed through further holders); one used where it is made, at the call.
 */
function firstUse(model: SpecModel, expr: ts.Expression, depth: number): RunPath | undefined {
  let node: ts.Node = expr;
  // Up the chain it heads: `page.getByTestId('x').filter(…)` is one locator, held or used as a whole.
  for (;;) {
    const parent = node.parent;
    const chained = (ts.isPropertyAccessExpression(parent) && parent.expression === node) || (ts.isCallExpression(parent) && parent.expression === node);
    if (!chained && !ts.isParenthesizedExpression(parent) && !ts.isAsExpression(parent) && !ts.isNonNullExpression(parent)) break;
    node = parent;
  }
  const references = depth > MAX_DEPTH ? undefined : laterReferences(model, node);
  if (references === undefined || (references.length === 0 && !heldInField(node))) return earliest(runPaths(model, expr, expr.getStart()));
  return earliest(references.map((ref) => firstUse(model, ref, depth + 1)).filter((path) => path !== undefined));
}

/**
 * The references to what holds a locator: a variable after its declaration, a field (`this.total = …`,
 * `readonly total = …`) wherever it is read; undefined when nothing holds it.
 */
function laterReferences(model: SpecModel, value: ts.Node): ts.Expression[] | undefined {
  const holder = value.parent;
  if (ts.isVariableDeclaration(holder) && holder.initializer === value && ts.isIdentifier(holder.name)) {
    return model.referencesTo(holder).filter((ref) => ref.getStart() > holder.getEnd());
  }
  const field = fieldHolding(value);
  if (!field) return undefined;
  const name = field.name.getText(model.sourceFile);
  return model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression).filter((access) => access.name.text === name && access !== field);
}

/** A field nothing reads holds a locator the test never uses: nothing to judge. */
function heldInField(value: ts.Node): boolean {
  return fieldHolding(value) !== undefined;
}

function fieldHolding(value: ts.Node): ts.PropertyAccessExpression | ts.PropertyDeclaration | undefined {
  const holder = value.parent;
  if (ts.isBinaryExpression(holder) && holder.right === value && holder.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(holder.left) && holder.left.expression.kind === ts.SyntaxKind.ThisKeyword) return holder.left;
  return ts.isPropertyDeclaration(holder) && holder.initializer === value && ts.isIdentifier(holder.name) ? holder : undefined;
}

function pathOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function nearestIds(use: TestIdUse, entries: readonly TestIdEntry[], limit: number): string[] {
  const stem = use.shown.replace(/\*/g, '');
  return [...new Set(entries.map((entry) => entry.testId))]
    .map((id, index) => ({ id, index, cost: editDistance(stem, id) }))
    .sort((a, b) => a.cost - b.cost || a.index - b.index)
    .slice(0, limit)
    .map((c) => `"${c.id}"`);
}

function unknownFinding(use: TestIdUse, inventory: PageInventory, limit: number, incomplete: boolean): Finding {
  const nearest = nearestIds(use, inventory.testIds, limit);
  const what = use.exact !== undefined ? `Test id "${use.shown}" is not on the explored page` : `No test id on the explored page matches "${use.shown}"`;
  const hint = nearest.length > 0 ? `; did you mean ${nearest.join(', ')}?` : '.';
  if (incomplete) {
    return { node: use.argument, severity: 'warning', message: `${what} (${inventory.url}) as far as its inventory goes, which was cut for size${hint}` };
  }
  return { node: use.argument, message: `${what} (${inventory.url})${hint}` };
}

function ambiguousFinding(use: TestIdUse, entry: TestIdEntry, severity: 'error' | 'warning'): Finding {
  return {
    node: use.argument,
    severity,
    message:
      `Test id "${entry.testId}" is carried by ${entry.count} elements on the explored page; using it without narrowing is a strict-mode violation. ` +
      "Narrow it with .filter({ hasText: … }) or a parent locator, or give the element a unique test id.",
  };
}

// --- where test ids are used ---------------------------------------------------------------------

function testIdUses(model: SpecModel, attribute: string): TestIdUse[] {
  const uses: TestIdUse[] = [];
  for (const call of model.calls) {
    const { name, receiver } = model.callee(call);
    const argument = call.arguments[0];
    if (name !== 'getByTestId' || !argument) continue;
    const pattern = idPattern(model, argument);
    if (pattern) uses.push({ call, argument, receiver, direct: true, ...pattern });
  }
  const grammar = selectorGrammar(attribute);
  for (const use of selectorUses(model)) {
    const ids = [...use.value.matchAll(grammar.attribute)].map((m) => ({ operator: m[1]!, value: m[2] ?? m[3] ?? m[4] ?? '' }));
    const engine = grammar.engine?.exec(use.value);
    if (engine) ids.push({ operator: '=', value: engine[1] ?? engine[2] ?? engine[3] ?? '' });
    const direct = use.method === 'locator' && ids.length === 1 && ids[0]!.operator === '=' && grammar.alone.test(use.value);
    for (const { operator, value } of ids) {
      uses.push({ call: use.call, argument: use.argument, receiver: model.callee(use.call).receiver, direct, ...selectorPattern(operator, value) });
    }
  }
  return uses;
}

/** The id a getByTestId argument names: a string (templates with unknown parts become wildcards) or a regex. */
function idPattern(model: SpecModel, argument: ts.Expression): Pick<TestIdUse, 'shown' | 'matches' | 'exact'> | undefined {
  const unwrapped = model.resolve(argument);
  if (ts.isRegularExpressionLiteral(unwrapped)) {
    const literal = /^\/(.*)\/([a-z]*)$/s.exec(unwrapped.text);
    if (!literal) return undefined;
    const regex = new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
    return { shown: unwrapped.text, matches: (id) => regex.test(id), exact: undefined };
  }
  const value = model.stringValue(argument, UNKNOWN_PART);
  if (value === undefined || value.replaceAll(UNKNOWN_PART, '') === '') return undefined;
  return wildcard(value);
}

function wildcard(value: string): Pick<TestIdUse, 'shown' | 'matches' | 'exact'> {
  if (!value.includes(UNKNOWN_PART)) return { shown: value, matches: (id) => id === value, exact: value };
  const regex = new RegExp(`^${value.split(UNKNOWN_PART).map(escapeRegExp).join('.+')}$`);
  return { shown: value.replaceAll(UNKNOWN_PART, '*'), matches: (id) => regex.test(id), exact: undefined };
}

/** CSS attribute operators: `=`, `^=`, `$=`, `*=`, `~=`, `|=`. */
function selectorPattern(operator: string, value: string): Pick<TestIdUse, 'shown' | 'matches' | 'exact'> {
  if (operator === '=') return wildcard(value);
  const regex = new RegExp(value.split(UNKNOWN_PART).map(escapeRegExp).join('.+'));
  const test: Record<string, (id: string) => boolean> = {
    '^=': (id) => new RegExp(`^${regex.source}`).test(id),
    '$=': (id) => new RegExp(`${regex.source}$`).test(id),
    '*=': (id) => regex.test(id),
    '~=': (id) => id.split(/\s+/).some((word) => new RegExp(`^${regex.source}$`).test(word)),
    '|=': (id) => new RegExp(`^${regex.source}(?:-|$)`).test(id),
  };
  return { shown: `[${operator}${value.replaceAll(UNKNOWN_PART, '*')}]`, matches: test[operator] ?? (() => true), exact: undefined };
}

interface SelectorGrammar {
  /** Every `[attr op value]`: group 1 the operator, 2–4 the value. */
  attribute: RegExp;
  /** Playwright's `data-testid=value` engine (only for the attributes it knows). */
  engine: RegExp | undefined;
  /** The selector is one attribute selector (an optional tag before it) and nothing else. */
  alone: RegExp;
}

const ENGINE_ATTRIBUTES = new Set(['data-testid', 'data-test-id', 'data-test']);

function selectorGrammar(attribute: string): SelectorGrammar {
  const attr = escapeRegExp(attribute);
  const value = `(?:"([^"]*)"|'([^']*)'|([^\\]\\s"']+))`;
  const unit = `\\[\\s*${attr}\\s*([~|^$*]?=)\\s*${value}\\s*[is]?\\s*\\]`;
  return {
    attribute: new RegExp(unit, 'g'),
    engine: ENGINE_ATTRIBUTES.has(attribute) ? new RegExp(`^\\s*${attr}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>"']+))\\s*$`) : undefined,
    alone: new RegExp(`^\\s*(?:(?:internal:testid=)?[a-zA-Z]*${unit}|${attr}\\s*=\\s*\\S+)\\s*$`),
  };
}

// --- narrowing -----------------------------------------------------------------------------------

/** A lookup inside another locator (`list.getByTestId('item')`): the page-wide count does not apply. */
function scopedByLocator(model: SpecModel, receiver: ts.Expression | undefined): boolean {
  return receiver !== undefined && model.kindOf(receiver) === 'locator';
}

/** Whether the receiver chain enters a frame, whose elements the page inventory does not hold. */
function inFrame(model: SpecModel, expr: ts.Expression, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = model.resolve(expr);
  if (model.kindOf(e) === 'frame') return true;
  if (ts.isCallExpression(e)) {
    const { name, receiver } = model.callee(e);
    if (name && FRAME_ENTRIES.has(name)) return true;
    return receiver !== undefined && inFrame(model, receiver, depth + 1);
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return inFrame(model, e.expression, depth + 1);
  return false;
}

/**
 * Whether the locator a call makes reaches an action or assertion that needs exactly one element,
 * directly or through a variable. Uses handed to other functions are not followed (unknown, not reported).
 */
function usedStrictly(model: SpecModel, expr: ts.Expression, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const node = valueSite(expr);
  const parent = node.parent;
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node) {
    const name = model.memberName(parent);
    return name !== undefined && !NARROWING.has(name) && !MULTI_ELEMENT_CALLS.has(name);
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const matcher = matcherOf(model, parent);
    if (!matcher) return false;
    if (MULTI_ELEMENT_MATCHERS.has(matcher.matcher)) return false;
    const expected = matcher.call.arguments[0];
    return !(LIST_MATCHERS.has(matcher.matcher) && expected !== undefined && ts.isArrayLiteralExpression(model.unwrap(expected)));
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
    return model.referencesTo(parent).some((reference) => usedStrictly(model, reference, depth + 1));
  }
  return false;
}

/** For `expect(locator)`, the matcher it ends in. */
function matcherOf(model: SpecModel, expectCall: ts.CallExpression) {
  let node: ts.Node = expectCall;
  while (ts.isPropertyAccessExpression(node.parent) || ts.isElementAccessExpression(node.parent)) node = node.parent;
  if (!ts.isCallExpression(node.parent)) return undefined;
  const expectation = model.expectation(node.parent);
  return expectation && expectation.expectCall === expectCall ? expectation : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
