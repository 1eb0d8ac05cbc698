/**
 * Which of a spec's assertions can show an outcome the request names, and what each checks, for the coverage
 * check (request-coverage.ts): those a test that acts runs, not swallowed, deferred, on a constant, on the
 * spec's own matcher, in a loop over the page's elements or on a page fetched over HTTP; each reduced to its
 * text, its patterns and what kind of check it is (absent, presence only, of the page, before acting).
 */
import { isFunctionLike, type SpecModel, type Expectation } from '../analysis/model.ts';
import { classifyCall } from '../analysis/test-steps.ts';
import { signInSteps } from '../analysis/sign-in-steps.ts';
import { boundValues } from '../analysis/bound-values.ts';
import { customMatcherNames } from '../analysis/custom-matchers.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { ts } from '../util/typescript.js';
import { compilePattern, regExpOfLiteral } from '../util/regexp.ts';

/** A test's calls (the hooks that run before it first), which of them act on the page, and which of those sign in. */
export interface TestFlow {
  calls: readonly ts.CallExpression[];
  acts: readonly boolean[];
  signIn: ReadonlySet<number>;
}

export function flowOf(model: SpecModel, calls: readonly ts.CallExpression[]): TestFlow {
  const acts = calls.map((call) => classifyCall(model, call) === 'action');
  return { calls, acts, signIn: signInSteps(model, calls, (index) => acts[index]!) };
}

export interface AssertionText {
  matcher: string;
  /** The matcher call (without the expect's message) with its subject followed through variables, and the string values it names. */
  text: string;
  /** Its regular expressions: a quoted text they hold is checked. */
  patterns: RegExp[];
  negated: boolean;
  /** It shows something is not there: negated, or `toBeHidden()`, `toHaveCount(0)`, `toBeEmpty()`, `toHaveValue('')` (and not negated). */
  absent: boolean;
  /** It passes on a hidden element without reading its text: `toBeAttached()`, an attribute, a role, a count of one. */
  presenceOnly: boolean;
  /** It checks a state a hidden element has too (`toBeEnabled()`, `toBeChecked()`): it shows the element only when that state is what is asked. */
  stateOnly: boolean;
  /** It checks a state of the element (`toBeVisible()`, `toBeEnabled()`), not what it reads: no value is shown by it. */
  readsNothing: boolean;
  /** It checks the page's title or URL: a page is seen so, not an element on it. */
  ofPage: boolean;
  /** A URL check the page its test opened first passes too (`toHaveURL(/\/(products)?$/)` after `goto('/')`): it shows no page was reached. */
  holdsAtStart: boolean;
  /** Every test that runs it acts (beyond signing in) only after it: it reads the page as it was before anything was done. */
  beforeActing: boolean;
  /**
   * Its text without the scope its element is looked up in (`page.getByTestId('dashboard').getByTestId('user')`
   * is the user): what it checks of the element itself. The same as `text` when there is no scope.
   */
  ownText: string;
}

/** Matchers of the page as a whole. */
const PAGE_MATCHERS = new Set(['toHaveTitle', 'toHaveURL']);

/** Matchers of an element's state, which read none of its text or value. */
const STATE_MATCHERS = new Set(['toBeVisible', 'toBeAttached', 'toBeInViewport', 'toBeEnabled', 'toBeDisabled', 'toBeEditable', 'toBeFocused', 'toBeTruthy', 'toBeDefined', 'toHaveCSS']);

/** Matchers a hidden element passes that read no text of it. */
const HIDDEN_PASSING = new Set(['toBeAttached', 'toHaveAttribute', 'toHaveRole', 'toHaveAccessibleName', 'toHaveId', 'toHaveJSProperty', 'toHaveCSS']);

/** States an element has whether or not it is shown. */
const HIDDEN_STATES = new Set(['toBeEnabled', 'toBeDisabled', 'toBeEditable', 'toBeChecked']);

function passesHidden(e: Expectation): boolean {
  return HIDDEN_PASSING.has(e.matcher) || (e.matcher === 'toHaveCount' && countArgument(e) === 1);
}

/** Matchers whose expected text is the whole text: an empty one says there is none. */
const FULL_TEXT_MATCHERS = new Set(['toHaveValue', 'toHaveText', 'toHaveAccessibleName', 'toHaveAccessibleDescription']);

/** It passes when nothing is there: hidden (`toBeVisible({ visible: false })` too), none of it, an empty field or element. */
function meansAbsent(e: Expectation): boolean {
  const [expected] = e.call.arguments;
  const emptyValue = FULL_TEXT_MATCHERS.has(e.matcher) && expected !== undefined && ts.isStringLiteralLike(expected) && expected.text === '';
  const turnedOff = (e.matcher === 'toBeVisible' && optionIsFalse(e, 'visible')) || (e.matcher === 'toBeAttached' && optionIsFalse(e, 'attached'));
  return e.matcher === 'toBeHidden' || e.matcher === 'toBeEmpty' || emptyValue || turnedOff || (e.matcher === 'toHaveCount' && countArgument(e) === 0);
}

/** `{ visible: false }`: the option that turns a positive state matcher into its opposite. */
function optionIsFalse(e: Expectation, option: string): boolean {
  const [options] = e.call.arguments;
  return options !== undefined && ts.isObjectLiteralExpression(options) && options.properties.some((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === option && p.initializer.kind === ts.SyntaxKind.FalseKeyword);
}

function countArgument(e: Expectation): number | undefined {
  const [count] = e.call.arguments;
  return count && ts.isNumericLiteral(count) ? Number(count.text) : undefined;
}

/** Whether a `toHaveURL` check holds on the path its test first opened (`page.goto('/')`), before anything was done. */
function urlHoldsAtStart(model: SpecModel, e: Expectation, tests: readonly TestFlow[]): boolean {
  const [expected] = e.call.arguments;
  const calls = tests.find((test) => test.calls.includes(e.call))?.calls;
  const opened = calls?.find((call) => model.callee(call).name === 'goto' && call.arguments[0] !== undefined);
  const path = opened ? model.stringValue(opened.arguments[0]!) : undefined;
  if (!expected || path === undefined || !URL.canParse(path, 'http://app.test')) return false;
  const url = new URL(path, 'http://app.test').href;
  const pattern = ts.isRegularExpressionLiteral(expected) ? regExpOfLiteral(expected.text) : undefined;
  if (pattern) return pattern.test(url);
  const text = model.stringValue(expected);
  return text !== undefined && (text === url || text === path);
}

/** Promise combinators under which an assertion's failure fails nothing (`race`: the first to settle decides, the rest are never awaited). */
const SWALLOWING = new Set(['allSettled', 'any', 'race']);
/** Calls that keep a callback for later, when an event comes or a timer fires: an assertion in it may never run. */
const DEFERRING = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'route', 'routeWebSocket', 'addLocatorHandler', 'exposeFunction', 'exposeBinding', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

/**
 * The assertions that can show an outcome: those a test runs (in its body, its hooks or a helper it calls; a
 * helper nobody calls runs nothing), of a test that acts when one does (another test's check shows nothing
 * of what the acting one did) and of one that does more than sign in when one does (a second test that only
 * signs in and opens the cart shows nothing of what the first one added), whose subject is not a constant and
 * whose failure is not swallowed.
 */
export function assertionTexts(model: SpecModel, tests: readonly TestFlow[]): AssertionText[] {
  const acting = tests.filter((test) => test.acts.some(Boolean));
  const doing = acting.filter((test) => test.acts.some((acts, index) => acts && !test.signIn.has(index)));
  const running = new Set((doing.length > 0 ? doing : acting.length > 0 ? acting : tests).flatMap((test) => test.calls));
  // What the spec's own matcher accepts is its code's, not a value read here.
  const ownMatchers = customMatcherNames(model);
  return model
    .expectations()
    .filter((e) => running.has(e.call) && !constantSubject(model, e) && !swallowed(model, e.call) && !deferred(model, e.call) && !ownMatchers.has(e.matcher) && !overPageElements(model, e.call) && !ofResponse(model, e))
    .map((e) => {
      const subject = e.subject ? model.resolve(e.subject) : undefined;
      const nodes: ts.Node[] = [...(subject ? [subject] : []), ...e.call.arguments];
      const values = nodes.flatMap((n) => valuesUnder(model, n));
      // The subject as it resolves, not the name of the variable that holds it: `expect(cartTotal)` of the "Added" message is not the cart total.
      const written = `expect(${subject ? shownText(model, subject) : ''}).${[...e.modifiers, e.matcher].join('.')}(${e.call.arguments.map((a) => shownText(model, a)).join(', ')})`;
      const absent = meansAbsent(e);
      const element = subject ? scopedElement(model, subject) : undefined;
      const own = element ? [...element.arguments, ...e.call.arguments].flatMap((n) => valuesUnder(model, n)) : values;
      const ownWritten = element ? `expect(${model.callee(element).name}(${element.arguments.map((a) => shownText(model, a)).join(', ')})).${[...e.modifiers, e.matcher].join('.')}(${e.call.arguments.map((a) => shownText(model, a)).join(', ')})` : written;
      // An ARIA snapshot's comments (`# Total: $8`) are YAML the matcher skips, not what it expects.
      const read = (text: string) => (e.matcher === 'toMatchAriaSnapshot' ? withoutYamlComments(text) : text);
      return {
        matcher: e.matcher,
        text: read([written, ...values.filter((v) => typeof v === 'string')].join(' ')),
        patterns: values.filter((v) => v instanceof RegExp),
        negated: e.negated,
        absent: absent !== e.negated,
        presenceOnly: !e.negated && !absent && passesHidden(e),
        stateOnly: HIDDEN_STATES.has(e.matcher),
        readsNothing: STATE_MATCHERS.has(e.matcher),
        ofPage: PAGE_MATCHERS.has(e.matcher),
        holdsAtStart: e.matcher === 'toHaveURL' && !e.negated && urlHoldsAtStart(model, e, tests),
        beforeActing: readsBeforeActing(e.call, tests),
        ownText: read([ownWritten, ...own.filter((v) => typeof v === 'string')].join(' ')),
      };
    });
}

/** Each line without its YAML comment: a `#` at its start or after a space, outside a quoted text. */
function withoutYamlComments(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        if (line[i] === '"' && line[i - 1] !== '\\') quoted = !quoted;
        else if (line[i] === '#' && !quoted && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
      }
      return line;
    })
    .join('\n');
}

/** Calls that narrow a locator to some of its elements: the same element still. */
const NARROWING = new Set(['filter', 'first', 'last', 'nth', 'and']);
/** Calls that look an element up, inside the page or inside another element. */
const LOOKUPS = new Set(['getByTestId', 'getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText', 'getByTitle', 'locator']);

/** The lookup of a subject's element when it is looked up inside another element (its scope); undefined when it is not. */
function scopedElement(model: SpecModel, subject: ts.Expression, depth = 0): ts.CallExpression | undefined {
  const e = model.resolve(subject);
  if (depth > MAX_DEPTH || !ts.isCallExpression(e)) return undefined;
  const { name, receiver } = model.callee(e);
  if (!name || !receiver) return undefined;
  if (NARROWING.has(name)) return scopedElement(model, receiver, depth + 1);
  return LOOKUPS.has(name) && model.kindOf(receiver) === 'locator' ? e : undefined;
}

/** `expect('Total: $8').toBe('Total: $8')`, `expect.poll(() => 'Total: $8')`: a value the spec wrote, not one the page shows. */
function constantSubject(model: SpecModel, e: Expectation): boolean {
  const subject = e.subject ? model.resolve(e.subject) : undefined;
  if (!subject) return false;
  const returned = isFunctionLike(subject) && subject.body && !ts.isBlock(subject.body) ? subject.body : subject;
  return ts.isStringLiteralLike(returned) || ts.isNumericLiteral(returned) || returned.kind === ts.SyntaxKind.TrueKeyword || returned.kind === ts.SyntaxKind.FalseKeyword;
}

/** In a callback kept for an event or a timer (`page.once('dialog', …)`, `setTimeout(…)`): it runs only if that comes. */
function deferred(model: SpecModel, call: ts.Node): boolean {
  for (let node: ts.Node = call; node.parent; node = node.parent) {
    const { parent } = node;
    if (isFunctionLike(node) && ts.isCallExpression(parent) && parent.arguments.includes(node) && DEFERRING.has(model.callee(parent).name ?? '')) return true;
  }
  return false;
}

/** Whether every test that runs an assertion acts, other than signing in, only after it. */
function readsBeforeActing(call: ts.CallExpression, tests: readonly TestFlow[]): boolean {
  const running = tests.filter((test) => test.calls.includes(call));
  return running.length > 0 && running.every(({ calls, acts, signIn }) => {
    const doing = acts.findIndex((acting, index) => acting && !signIn.has(index));
    return doing >= 0 && calls.lastIndexOf(call) < doing;
  });
}

/** Reads of all the elements a locator matches: a loop over them runs once per element the page has, maybe never. */
const ELEMENT_LISTS = new Set(['all', 'allTextContents', 'allInnerTexts', 'elementHandles', 'count']);

/** In a loop over the elements the page has (`for (const row of await rows.all())`): with none, it asserts nothing. */
function overPageElements(model: SpecModel, call: ts.Node): boolean {
  for (let node = call.parent; node && !ts.isSourceFile(node); node = node.parent) {
    const bound = ts.isForOfStatement(node) ? node.expression : ts.isForStatement(node) ? node.condition : ts.isCallExpression(node) && ['forEach', 'map'].includes(model.callee(node).name ?? '') ? node.expression : undefined;
    if (bound && readsElementList(model, bound)) return true;
  }
  return false;
}

function readsElementList(model: SpecModel, node: ts.Node): boolean {
  return callUnder(model, node, (call) => ELEMENT_LISTS.has(model.callee(call).name ?? ''));
}

/** An assertion on what an HTTP request returned (`page.request.get('/login')`): the served page, not what it shows. */
function ofResponse(model: SpecModel, e: Expectation): boolean {
  return e.subject !== undefined && callUnder(model, e.subject, (call) => {
    const { receiver } = model.callee(call);
    return receiver !== undefined && model.kindOf(receiver) === 'request';
  });
}

/** Whether a call that `matches` is made in an expression, its variables followed to their values. */
function callUnder(model: SpecModel, node: ts.Node, matches: (call: ts.CallExpression) => boolean, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (ts.isIdentifier(node)) {
    const resolved = model.resolve(node);
    if (resolved !== node) return callUnder(model, resolved, matches, depth + 1);
  }
  if (ts.isCallExpression(node) && matches(node)) return true;
  return ts.forEachChild(node, (child) => callUnder(model, child, matches, depth)) ?? false;
}

/** Inside `Promise.allSettled([...])`, `Promise.any([...])` or `Promise.race([...])`, where a failed assertion fails nothing. */
function swallowed(model: SpecModel, call: ts.Node): boolean {
  for (let node = call.parent; node && !isFunctionLike(node); node = node.parent) {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && model.text(node.expression.expression) === 'Promise' && SWALLOWING.has(node.expression.name.text)) return true;
  }
  return false;
}

/**
 * Options that name nothing the page shows: what a locator leaves out (`hasNotText`, `hasNot`), and how long a
 * matcher waits (`timeout: 10_000` is no number read).
 */
const SHOWING_NOTHING = new Set(['hasNotText', 'hasNot', 'timeout', 'intervals']);

/**
 * What names nothing the page shows: such an option, the label `locator.describe('…')` gives a locator for
 * reports, or the fallback of a read of the page (`(await total.textContent()) ?? 'Total: $8'`), expected only
 * when the page shows nothing: the read is what is compared.
 */
function showsNothing(model: SpecModel, node: ts.Node): boolean {
  if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && SHOWING_NOTHING.has(node.name.text)) return true;
  const call = node.parent;
  if (ts.isBinaryExpression(call) && call.right === node && FALLBACKS.has(call.operatorToken.kind) && readsThePage(call.left)) return true;
  return ts.isCallExpression(call) && call.arguments.includes(node as ts.Expression) && model.callee(call).name === 'describe' && model.callee(call).receiver !== undefined && model.kindOf(model.callee(call).receiver!) === 'locator';
}

/** A node's text without what names nothing shown: `filter({ hasNotText: 'Total: $8' })` shows no total. */
function shownText(model: SpecModel, node: ts.Node): string {
  const start = node.getStart(model.sourceFile);
  const cut: Array<[number, number]> = [];
  const visit = (n: ts.Node): void => {
    if (showsNothing(model, n)) cut.push([n.getStart(model.sourceFile) - start, n.end - start]);
    else ts.forEachChild(n, visit);
  };
  visit(node);
  const text = model.text(node);
  return cut.reduceRight((kept, [from, to]) => kept.slice(0, from) + kept.slice(to), text);
}

const FALLBACKS: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken]);

/** Whether an expression awaits something (a read of the page, in a spec's expected value). */
function readsThePage(node: ts.Node): boolean {
  return ts.isAwaitExpression(node) || (ts.forEachChild(node, readsThePage) ?? false);
}

/**
 * The string values and regular expressions under a node, identifiers followed to their values: through
 * declarations, and to what a helper's calls pass for its parameter or a table's rows hold (bound-values.ts).
 */
function valuesUnder(model: SpecModel, node: ts.Node, depth = 0): Array<string | RegExp> {
  const found: Array<string | RegExp> = [];
  const visit = (n: ts.Node): void => {
    // What a locator filters out is not what it shows: `filter({ hasNotText: 'Total: $8' })`.
    if (showsNothing(model, n)) return;
    // A pattern built at run time is a pattern, not the texts it is built from: known, it is kept as one.
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp') {
      const known = model.patternValue(n);
      const pattern = known && compilePattern(known.source, known.flags);
      if (pattern) found.push(pattern);
      return;
    }
    if (ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)) found.push(n.text);
    else if (ts.isRegularExpressionLiteral(n)) {
      const pattern = regExpOfLiteral(n.text);
      if (pattern) found.push(pattern);
    } else if (ts.isIdentifier(n)) {
      const value = model.stringValue(n);
      if (value !== undefined) found.push(value);
      else {
        const resolved = model.resolve(n);
        if (resolved !== n) found.push(shownText(model, resolved), ...valuesUnder(model, resolved, depth));
        else if (depth < MAX_DEPTH) for (const bound of boundValues(model, n)) found.push(...valuesUnder(model, bound, depth + 1));
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

