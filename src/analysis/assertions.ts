/**
 * Whether a heal weakens a test: the Medic may change how a spec finds elements, never what it checks.
 * Old and new specs are compared as syntax trees (SpecModel), so formatting, quotes, a value moved into a
 * constant or a locator held in a variable change nothing, while a dropped or loosened assertion, an added
 * `.not`, a skipped test or an assertion hidden under a condition or in a `try` is named.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { SpecModel, type Expectation } from './model.ts';
import { ASYNC_MATCHERS, type ValueKind } from './playwright-api.ts';
import { testHooks } from './test-steps.ts';

/** Calls that skip a test, or turn its failure into a pass. */
const SKIP_PATHS = ['test.skip', 'test.fixme', 'test.fail', 'test.describe.skip', 'test.describe.fixme'];
/** Options of a web-first matcher that say how long to wait, not what to check. */
const WAIT_OPTIONS = new Set(['timeout', 'intervals']);

/** One assertion, reduced to what it checks. */
interface Assertion {
  line: number;
  /** The assertion as written, whitespace collapsed: for messages. */
  text: string;
  soft: boolean;
  /** `expect` or `expect.poll`. */
  flavour: string;
  kind: ValueKind;
  /** The subject's expression, followed through variables: `page.getByTestId('title')`. */
  subject: string;
  matcher: string;
  negated: boolean;
  /** `resolves` / `rejects`. */
  modifiers: string;
  /** The expected values, each as the value it evaluates to when known, else its text. */
  expected: string[];
  /** The matcher's options that change what is checked (`ignoreCase`, `exact`, …), canonical. */
  options: string;
  /**
   * For a check that an element is there (toBeVisible, toHaveCount, …), the texts its locator finds it by
   * (`getByRole('link', { name: 'Cart (1)' })`): they are what such a check checks. Empty for other matchers.
   */
  foundBy: string[];
  /** What it sits under that may keep it from failing the test: `an if`, `a try block`, … */
  guard: string | undefined;
  /** Whether a test or hook runs it. */
  runs: boolean;
}

/** The ways the heal weakens the old spec, one sentence each; empty when it keeps every check. */
export function findWeakening(oldCode: string, newCode: string): string[] {
  const before = SpecModel.fromText('before.spec.ts', oldCode);
  const after = SpecModel.fromText('after.spec.ts', newCode);
  return [...testChanges(before, after), ...assertionChanges(assertionsOf(before), assertionsOf(after))];
}

function testChanges(before: SpecModel, after: SpecModel): string[] {
  const found: string[] = [];
  const oldTests = before.tests().length;
  const newTests = after.tests().length;
  if (newTests < oldTests) found.push(`the spec had ${oldTests} test${oldTests === 1 ? '' : 's'} and now has ${newTests}; a heal may not remove tests`);
  const oldSkips = skipCalls(before);
  const newSkips = skipCalls(after);
  for (const path of SKIP_PATHS) {
    const added = (newSkips.get(path) ?? []).slice((oldSkips.get(path) ?? []).length);
    for (const line of added) found.push(`${path} was added (line ${line}); a heal may not skip a test or mark it as expected to fail`);
  }
  return found;
}

/** The lines of the calls that skip tests, per Playwright path. */
function skipCalls(model: SpecModel): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  for (const call of model.calls) {
    const path = model.playwrightPath(call.expression);
    if (!path || !SKIP_PATHS.includes(path)) continue;
    lines.set(path, [...(lines.get(path) ?? []), model.position(call).line]);
  }
  return lines;
}

function assertionsOf(model: SpecModel): Assertion[] {
  const running = runningCalls(model);
  return model.expectations().map((e): Assertion => {
    const { expected, options } = matcherArguments(model, e);
    const foundBy = PRESENCE_MATCHERS.has(e.matcher) && e.subject ? locatorTexts(model, e.subject) : [];
    return {
      line: model.position(e.call).line,
      text: collapse(model.text(e.call)),
      soft: isSoft(model, e),
      flavour: e.flavour === 'expect.poll' ? 'expect.poll' : 'expect',
      kind: e.subject ? model.kindOf(e.subject) : 'unknown',
      subject: e.subject ? collapse(model.text(model.resolve(e.subject))) : '',
      matcher: e.matcher,
      negated: e.negated,
      modifiers: e.modifiers.filter((m) => m !== 'not').join('.'),
      expected,
      options,
      foundBy,
      guard: guardOf(e.call),
      runs: running.has(e.call),
    };
  });
}

/** Every call a test or hook makes, followed into the file's helpers. */
function runningCalls(model: SpecModel): Set<ts.CallExpression> {
  const roots: ts.Node[] = [...model.tests().flatMap((t) => (t.body ? [t.body] : [])), ...testHooks(model).map((hook) => hook.body)];
  return new Set(roots.flatMap((root) => model.reachableCalls(root)));
}

/** `expect.soft`, or an `expect.configure({ soft: true })`. */
function isSoft(model: SpecModel, e: Expectation): boolean {
  if (e.flavour === 'expect.soft') return true;
  const root = model.resolve(e.expectCall.expression);
  if (!ts.isCallExpression(root) || model.playwrightPath(root.expression) !== 'expect.configure') return false;
  const soft = root.arguments[0] ? model.property(root.arguments[0], 'soft') : undefined;
  return soft !== undefined && soft.value.kind !== ts.SyntaxKind.FalseKeyword;
}

/**
 * A web-first matcher's trailing object is its options; every other argument is an expected value
 * (toHaveJSProperty's expected value may itself be an object, so it has none).
 */
function matcherArguments(model: SpecModel, e: Expectation): { expected: string[]; options: string } {
  const args = [...e.call.arguments];
  const last = args.at(-1);
  const optionsObject = last && ASYNC_MATCHERS.has(e.matcher) && e.matcher !== 'toHaveJSProperty' ? model.objectLiteral(last) : undefined;
  if (optionsObject) args.pop();
  const options = (optionsObject?.properties ?? [])
    .map((p) => [model.propertyName(p) ?? collapse(model.text(p)), ts.isPropertyAssignment(p) ? valueOf(model, p.initializer) : collapse(model.text(p))] as const)
    .filter(([name]) => !WAIT_OPTIONS.has(name))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return { expected: args.map((a) => valueOf(model, a)), options };
}

/** Matchers that check an element is there, or how many: what they check is the locator itself. */
const PRESENCE_MATCHERS = new Set(['toBeVisible', 'toBeAttached', 'toBeInViewport', 'toHaveCount']);
/** Locator methods whose first argument is a text the element is found by. */
const TEXT_LOCATORS = new Set(['getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText', 'getByTitle']);

/**
 * The texts a locator chain finds its element by, outermost first: getByText('…') and its kin, getByRole's
 * `name`, and the `hasText` / `hasNotText` of filter() and locator(); followed through variables.
 */
function locatorTexts(model: SpecModel, subject: ts.Expression): string[] {
  const texts: string[] = [];
  for (let expr = model.resolve(subject), steps = 0; ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression) && steps <= MAX_DEPTH; expr = model.resolve(expr.expression.expression), steps++) {
    const method = expr.expression.name.text;
    const [first, second] = expr.arguments;
    const options = method === 'getByRole' || method === 'locator' ? second : method === 'filter' ? first : undefined;
    if (TEXT_LOCATORS.has(method) && first) texts.push(valueOf(model, first));
    for (const name of method === 'getByRole' ? ['name'] : ['hasText', 'hasNotText']) {
      const hit = options ? model.property(options, name) : undefined;
      if (hit) texts.push(`${name === 'hasNotText' ? 'not ' : ''}${valueOf(model, hit.value)}`);
    }
  }
  return texts.reverse();
}

/** A value as it evaluates when it can be known (`'Dashboard'`, a constant holding it), else its text. */
function valueOf(model: SpecModel, expr: ts.Expression): string {
  const value = model.stringValue(expr);
  if (value !== undefined) return JSON.stringify(value);
  const resolved = model.resolve(expr);
  if (ts.isArrayLiteralExpression(resolved)) return `[${resolved.elements.map((e) => valueOf(model, e)).join(', ')}]`;
  return collapse(model.text(resolved));
}

/** The nearest construct around an assertion that can keep it from running or from failing the test. */
function guardOf(call: ts.CallExpression): string | undefined {
  for (let child: ts.Node = call, parent = call.parent; parent && !ts.isSourceFile(parent); child = parent, parent = parent.parent) {
    if (ts.isIfStatement(parent) && child !== parent.expression) return 'an if';
    if (ts.isConditionalExpression(parent) && child !== parent.condition) return 'a ternary';
    if (ts.isCaseClause(parent) || ts.isDefaultClause(parent)) return 'a switch';
    if (ts.isBinaryExpression(parent) && child === parent.right && LOGICAL_OPERATORS.has(parent.operatorToken.kind)) return `a ${ts.tokenToString(parent.operatorToken.kind)} condition`;
    if (ts.isTryStatement(parent) && child === parent.tryBlock) return 'a try block';
    if (ts.isCatchClause(parent)) return 'a catch block';
    if (ts.isPropertyAccessExpression(parent) && child === parent.expression && parent.name.text === 'catch') return 'a .catch() that swallows its failure';
  }
  return undefined;
}

const LOGICAL_OPERATORS = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

type Pairing = (a: Assertion, b: Assertion) => boolean;

const sameCheck: Pairing = (a, b) =>
  a.kind === b.kind && a.matcher === b.matcher && a.negated === b.negated && a.modifiers === b.modifiers && sameList(a.expected, b.expected) && sameList(a.foundBy, b.foundBy) && a.options === b.options && a.flavour === b.flavour;

/**
 * Old assertions are paired with new ones on the same kind of subject, most alike first: the same check
 * on the same subject, the same check on a re-selected subject (a locator fix), then the same subject or
 * matcher checked differently (the changes are named), then what is left in order. An old assertion left
 * without a partner was removed.
 */
const PAIRINGS: Pairing[] = [
  (a, b) => sameCheck(a, b) && a.subject === b.subject,
  sameCheck,
  (a, b) => a.kind === b.kind && a.subject === b.subject,
  (a, b) => a.kind === b.kind && a.matcher === b.matcher,
  (a, b) => a.kind === b.kind,
];

function assertionChanges(before: Assertion[], after: Assertion[]): string[] {
  const partner = new Map<Assertion, Assertion>();
  const taken = new Set<Assertion>();
  for (const pairs of PAIRINGS) {
    for (const old of before) {
      if (partner.has(old)) continue;
      const match = after.find((candidate) => !taken.has(candidate) && pairs(old, candidate));
      if (!match) continue;
      partner.set(old, match);
      taken.add(match);
    }
  }
  return before.flatMap((old) => {
    const now = partner.get(old);
    if (!now) return [`${describe(old)} was removed; every assertion must stay`];
    return differences(old, now, after);
  });
}

function differences(old: Assertion, now: Assertion, after: readonly Assertion[]): string[] {
  const where = describe(old);
  const found: string[] = [];
  if (now.matcher !== old.matcher) found.push(`${where} became .${now.matcher}() (line ${now.line}); the matcher must stay .${old.matcher}()`);
  else if (!sameList(now.expected, old.expected)) found.push(`${where} now expects ${list(now.expected)} instead of ${list(old.expected)} (line ${now.line}); expected values must stay`);
  else if (!sameList(now.foundBy, old.foundBy) && !stillChecked(old.foundBy, now, after)) {
    found.push(`${where} finds its element by ${list(now.foundBy)} instead of ${list(old.foundBy)} (line ${now.line}): that text is what it checks, so it must stay, in its locator or in an added assertion (toHaveText)`);
  }
  if (now.negated && !old.negated) found.push(`.not was added to ${where} (line ${now.line})`);
  if (!now.negated && old.negated) found.push(`.not was removed from ${where} (line ${now.line}); a heal may not invert an assertion`);
  if (now.modifiers !== old.modifiers) found.push(`${where} changed .${old.modifiers || '(none)'} to .${now.modifiers || '(none)'} (line ${now.line})`);
  if (now.options !== old.options) found.push(`the options of ${where} changed from {${old.options}} to {${now.options}} (line ${now.line}); only timeouts may change`);
  if (now.soft && !old.soft) found.push(`${where} became a soft assertion (line ${now.line}); a failing soft assertion no longer stops the test`);
  if (now.flavour !== old.flavour) found.push(`${where} changed from ${old.flavour} to ${now.flavour} (line ${now.line})`);
  if (now.guard && !old.guard) found.push(`${where} was moved into ${now.guard} (line ${now.line}); an assertion must run unconditionally and its failure must fail the test`);
  if (old.runs && !now.runs) found.push(`${where} is no longer run by any test (line ${now.line})`);
  return found;
}

/** Whether the texts a presence check found its element by are all still checked: in its locator, or by an assertion of the heal that expects them. */
function stillChecked(texts: readonly string[], now: Assertion, after: readonly Assertion[]): boolean {
  return texts.every((text) => now.foundBy.includes(text) || after.some((a) => !a.negated && a.runs && !a.guard && a.expected.includes(text)));
}

function describe(assertion: Assertion): string {
  return `the assertion on line ${assertion.line} \`${assertion.text}\``;
}

function list(values: readonly string[]): string {
  return values.length === 0 ? 'nothing' : values.join(', ');
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
