/**
 * The proof run's spec: the same spec with the actions under test made no-ops, so a run of it shows
 * whether the spec's assertions depend on those actions happening.
 *
 * The actions under test are, in each test (its beforeEach hooks first), the last group of state-changing
 * calls (fill, click, check, …; a group is broken by an assertion) that an assertion follows, and in the
 * further copies neutraliseGroups makes, each group before it in turn: "add the lamp, see it was
 * added, open the cart, see the total" proves the adding; "add a todo, see it, delete it, see it gone"
 * proves the deleting. Signing in (a fill of an environment variable and the click or key press that
 * submits it) is the way there and stays, unless the request is about signing in: neutralising it
 * would make any assertion fail, also one on what a page shows before anything is done. Navigations
 * stay too. An assertion that only echoes what a neutralised action set on its own element (`fill('x')`
 * then `toHaveValue('x')` or `not.toBeEmpty()` on the same locator, `check()` then `toBeChecked()`, any action
 * then `toBeFocused()`) goes with it: it would fail
 * in the copy because the spec set the state, not because the app did anything with it. In the last group's
 * copy so does a check or wait the test moves on from before its last assertions (checksBeforeLastMove). Each neutralised
 * call becomes `Promise.resolve()` in place, padded to the same number of
 * lines, so every line keeps its number and Playwright's error locations match in both runs.
 *
 * A pure transform: text in, text out, nothing run.
 */
import { ts } from '../util/typescript.js';
import { SpecModel } from './model.ts';
import { callsBefore } from './test-steps.ts';
import { signInSteps } from './sign-in-steps.ts';
import { echoes } from './echoes.ts';
import { NAVIGATIONS, type ValueKind } from './playwright-api.ts';
import { isFixtureRooted } from './value-origins.ts';

/** Calls that change what the page holds. */
export const STATE_CHANGING_ACTIONS: ReadonlySet<string> = new Set([
  'fill',
  'click',
  'check',
  'uncheck',
  'setChecked',
  'selectOption',
  'press',
  'pressSequentially',
  'type',
  'dragTo',
  'dragAndDrop',
  'setInputFiles',
  'tap',
  'dblclick',
  'clear',
  'insertText',
  'down',
  'up',
  'dispatchEvent',
]);

/** What a neutralised call may be made on: what drives a page. */
const ACTION_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'locator', 'frame', 'keyboard', 'mouse', 'elementHandle']);

export interface NeutralisedAction {
  line: number;
  /** The call as written, for feedback: `page.getByTestId('save').click()`. */
  source: string;
}

export interface NeutralisedTest {
  title: string;
  /** The line of the `test(` call. */
  line: number;
  /** The actions made no-ops, in the order the test makes them. */
  actions: NeutralisedAction[];
  /**
   * Lines of the calls the test still makes after its first neutralised action (assertions, waits, reads):
   * everything before ran as in the green run, so a failure on one of these is caused by the missing actions.
   */
  checkLines: number[];
  /**
   * Those of them that compare with a snapshot file. Snapshot files are named by the test file, so the copy
   * has none of the spec's and such a check fails there whatever the actions did: its failure proves nothing.
   */
  snapshotLines: number[];
  /** The sign-in steps kept, as written. */
  signIn: string[];
  /**
   * Lines of the assertions that retry a neutralised action (it is inside their callback: `expect(async () =>
   * { click; expect }).toPass()`): in the copy they retry no-ops until the test's limit, so the copy cannot
   * show the action matters.
   */
  retriedAt: number[];
  /**
   * Lines of the assertions made no-ops with the last group because the test moves on after them (navigates or
   * acts again) before its last assertions: what the test ends on must depend on the actions, not a check of
   * a side effect on the way.
   */
  setAside: number[];
}

export interface NeutralisedSpec {
  text: string;
  tests: NeutralisedTest[];
}

export interface NeutraliseOptions {
  /** The request is about signing in: when a test does nothing else, its sign-in is what is under test. */
  signInUnderTest?: boolean;
  /**
   * Which group of actions an assertion follows is made no-ops, counted from the last (0, the default): a
   * copy per group shows each group's assertions depend on it, not only the last one's.
   */
  group?: number;
  /**
   * The words of doing the request names ("add", "save"). After the last group, the groups whose actions
   * name one in their code (`getByTestId('add-todo-button')`) come before the others, whatever their depth:
   * with more groups than copies, a spec cannot push the action the request is about out of the proof's
   * reach by acting (and checking) more after it.
   */
  requestWords?: readonly string[];
  /**
   * The methods of the project's page objects and helpers that act on the page and do not navigate (the caller
   * reads them from the project files the spec imports): a call of one on a project fixture or page object
   * (`await products.add('Blue Mug')`) is an action the proof may take away.
   */
  projectActions?: ReadonlySet<string>;
}

export function neutraliseActions(text: string, fileName = 'spec.ts', options: NeutraliseOptions = {}): NeutralisedSpec {
  return neutralise(SpecModel.fromText(fileName, text), text, options);
}

/** neutraliseActions on the spec's model (`text` is what it was read from): the copies of one spec share one. */
function neutralise(model: SpecModel, text: string, options: NeutraliseOptions): NeutralisedSpec {
  const tests: NeutralisedTest[] = [];
  const neutralised = new Set<ts.CallExpression>();
  const keptSomewhere = new Set<ts.CallExpression>();

  for (const test of model.tests()) {
    if (!test.body?.body) continue;
    // What the hooks before a test do comes first in it: a spec may act there and assert in the test.
    const calls = [...callsBefore(model, test), ...model.reachableCalls(test.body.body)];
    const steps = calls.map((call) => (isStateChangingAction(model, call) || isProjectAction(model, call, options.projectActions) ? 'action' : model.expectation(call) ? 'assertion' : 'other'));
    const signIn = signInSteps(model, calls, (index) => steps[index] === 'action');
    const back = options.group ?? 0;
    const groups = requestNamedFirst(model, calls, groupsUnderTest(calls, steps, (index) => !signIn.has(index)), options.requestWords ?? []);
    const group = groups.length > 0 ? groups.at(-1 - back) : back === 0 && options.signInUnderTest ? groupsUnderTest(calls, steps, () => true).at(-1) : undefined;
    const chosen = new Set(group ?? []);
    for (const index of echoes(model, calls, steps, chosen)) chosen.add(index);
    const setAside = back === 0 && group ? checksBeforeLastMove(model, calls, steps, group) : [];
    for (const index of setAside) chosen.add(index);
    const actions: NeutralisedAction[] = [];
    const checkLines = new Set<number>();
    const snapshotLines = new Set<number>();
    const mine = new Set<ts.CallExpression>();
    calls.forEach((call, index) => {
      if (chosen.has(index)) {
        mine.add(call);
        neutralised.add(call);
        if (steps[index] === 'action') actions.push({ line: model.position(call).line, source: oneLine(model.text(call)) });
        return;
      }
      keptSomewhere.add(call);
      if (actions.length > 0 && !insideAny(call, mine)) {
        const lines = linesOf(model, call);
        for (const line of lines) checkLines.add(line);
        if (comparesWithSnapshotFile(model, call)) for (const line of lines) snapshotLines.add(line);
      }
    });
    tests.push({
      title: test.title ?? '',
      line: model.position(test.call).line,
      actions,
      checkLines: [...checkLines].sort((a, b) => a - b),
      snapshotLines: [...snapshotLines].sort((a, b) => a - b),
      signIn: [...signIn].filter((index) => !chosen.has(index)).map((index) => oneLine(model.text(calls[index]!))),
      setAside: setAside.map((index) => model.position(calls[index]!).line),
      retriedAt: [...new Set([...chosen].filter((index) => steps[index] === 'action').flatMap((index) => retryingAssertion(model, calls[index]!)))],
    });
  }

  // A helper's action made both in and out of the group under test stays: it is part of the way there.
  const edits = [...neutralised].filter((call) => !keptSomewhere.has(call)).sort((a, b) => b.getStart(model.sourceFile) - a.getStart(model.sourceFile));
  let result = text;
  for (const call of edits) {
    const start = call.getStart(model.sourceFile);
    const newlines = '\n'.repeat((text.slice(start, call.end).match(/\n/g) ?? []).length);
    result = `${result.slice(0, start)}Promise.resolve(${newlines})${result.slice(call.end)}`;
  }
  const dropped = new Set(edits.map((call) => model.position(call).line));
  return { text: result, tests: tests.map((t) => ({ ...t, actions: t.actions.filter((a) => dropped.has(a.line)) })) };
}

/** The indexes of each group of actions (those `counts` admits) that an assertion follows, in order; a group ends at an assertion. */
function groupsUnderTest(calls: readonly ts.CallExpression[], steps: readonly string[], counts: (index: number) => boolean): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  for (let index = 0; index < calls.length; index++) {
    if (steps[index] === 'action' && counts(index)) group.push(index);
    else if (steps[index] === 'assertion' && group.length > 0) {
      groups.push(group);
      group = [];
    }
  }
  return groups;
}

/**
 * The groups in the order the copies take them, counted from the end: the last group first, then those whose
 * actions name one of the request's words of doing, then the rest, each part from the last back.
 */
function requestNamedFirst(model: SpecModel, calls: readonly ts.CallExpression[], groups: readonly number[][], requestWords: readonly string[]): number[][] {
  const stems = new Set(requestWords.map(stemOf).filter((word) => word.length >= 3));
  const names = (group: readonly number[]) => group.some((index) => wordsOf(model.text(calls[index]!)).some((word) => stems.has(stemOf(word))));
  const fromLast = groups.slice(0, -1).reverse();
  const ordered = [...fromLast.filter(names), ...fromLast.filter((group) => !names(group))];
  return groups.length === 0 ? [] : [...ordered.reverse(), groups.at(-1)!];
}

/** The words of code, lower-cased, split at anything not a letter and at camelCase humps (`addToCart`: add, to, cart). */
function wordsOf(code: string): string[] {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

/** A word without its ending (add, adds, added, adding; save, saved): enough to match a verb with the code naming it. */
function stemOf(word: string): string {
  return word.toLowerCase().replace(/(?:ing|ed|es|s|e)$/, '');
}

/**
 * The proof's copies: the last group of actions an assertion follows made no-ops in each test, then the one
 * before it (the groups naming the request's words of doing first, `requestWords`), up to `maxGroups` copies,
 * each kept while some test still has a group that far back. A trailing action with its own assertion no
 * longer carries the proof for the actions the request is about.
 */
export function neutraliseGroups(text: string, fileName: string, options: NeutraliseOptions, maxGroups: number): NeutralisedSpec[] {
  const model = SpecModel.fromText(fileName, text);
  const copies = [neutralise(model, text, { ...options, group: 0 })];
  for (let group = 1; group < maxGroups; group++) {
    const copy = neutralise(model, text, { ...options, group });
    if (!copy.tests.some((test) => test.actions.length > 0)) break;
    copies.push(copy);
  }
  return copies;
}

/**
 * The assertions after the last group that the test moves on from: those before the last navigation or
 * action that precedes its last assertion. "Add the lamp, see the Added message, open the cart, see the
 * total" must fail on the total; a flash message or a URL checked on the way proves that something was
 * clicked, not that the request's outcome depends on it.
 */
function checksBeforeLastMove(model: SpecModel, calls: readonly ts.CallExpression[], steps: readonly string[], group: readonly number[]): number[] {
  const groupEnd = Math.max(...group);
  const lastAssertion = steps.lastIndexOf('assertion');
  let lastMove = -1;
  for (let index = groupEnd + 1; index < lastAssertion; index++) if (steps[index] === 'action' || isNavigation(model, calls[index]!)) lastMove = index;
  const found: number[] = [];
  const foundCalls = new Set<ts.CallExpression>();
  for (let index = groupEnd + 1; index < lastMove; index++) {
    const call = calls[index]!;
    // An assertion within a set-aside one (inside a `toPass` callback) goes with it.
    if ((steps[index] === 'assertion' || isWait(model, call)) && !insideAny(call, foundCalls)) {
      found.push(index);
      foundCalls.add(call);
    }
  }
  return found;
}

/** A navigation of a page or frame, or of what may be one (a helper's untyped parameter, a page object's `goto`). */
function isNavigation(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  if (name === undefined || receiver === undefined || !NAVIGATIONS.has(name)) return false;
  const kind = model.kindOf(receiver);
  return kind === 'page' || kind === 'frame' || kind === 'unknown';
}

/** A wait for the page to show something (`locator.waitFor()`, `page.waitForURL(…)`): a check by another name. */
function isWait(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  return name !== undefined && receiver !== undefined && name.startsWith('waitFor') && ACTION_RECEIVERS.has(model.kindOf(receiver));
}


/**
 * A state-changing Playwright action: on a page, locator or the like, or on a member of a fixture Playwright or the
 * project's fixtures module provides (a page object's locator). Never on the spec's own objects or parameters,
 * whose "click" could be anything the spec chose to make a no-op of.
 */
function isStateChangingAction(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  if (name === undefined || receiver === undefined || !STATE_CHANGING_ACTIONS.has(name)) return false;
  const kind = model.kindOf(receiver);
  return ACTION_RECEIVERS.has(kind) || (kind === 'unknown' && isFixtureRooted(model, receiver));
}

/**
 * A call of a project method that acts (`projectActions`) on an object the project made: a fixture its fixtures
 * module provides, or an instance of a class the spec imports from the project (`new ProductsPage(page)`).
 */
function isProjectAction(model: SpecModel, call: ts.CallExpression, projectActions: ReadonlySet<string> | undefined): boolean {
  const { name, receiver } = model.callee(call);
  if (!projectActions || name === undefined || receiver === undefined || !projectActions.has(name) || model.kindOf(receiver) !== 'unknown') return false;
  return isFixtureRooted(model, receiver) || isProjectInstance(model, receiver);
}

/** A const holding `new C(…)`, where C is imported from a relative module (the project's page object). */
function isProjectInstance(model: SpecModel, expr: ts.Expression): boolean {
  const e = model.unwrap(expr);
  if (!ts.isIdentifier(e)) return false;
  const declaration = model.declarationOf(e);
  if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer || !(ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const)) return false;
  const made = model.unwrap(declaration.initializer);
  if (!ts.isNewExpression(made) || !ts.isIdentifier(made.expression)) return false;
  const imported = model.declarationOf(made.expression);
  const from = imported && (ts.isImportSpecifier(imported) ? imported.parent.parent.parent : ts.isImportClause(imported) ? imported.parent : undefined);
  return from !== undefined && ts.isImportDeclaration(from) && ts.isStringLiteral(from.moduleSpecifier) && from.moduleSpecifier.text.startsWith('.');
}

/** The line of the assertion whose callback the action is written in (`toPass`, `expect.poll`), if any. */
function retryingAssertion(model: SpecModel, action: ts.CallExpression): number[] {
  for (let node: ts.Node | undefined = action.parent; node; node = node.parent) {
    if (ts.isCallExpression(node) && model.expectation(node)) return [model.position(node).line];
  }
  return [];
}

/** A call within a neutralised one (its locator's `getByRole(…)`) goes with it. */
function insideAny(call: ts.CallExpression, calls: ReadonlySet<ts.CallExpression>): boolean {
  for (let node: ts.Node | undefined = call.parent; node; node = node.parent) if (ts.isCallExpression(node) && calls.has(node)) return true;
  return false;
}

function linesOf(model: SpecModel, call: ts.CallExpression): number[] {
  const lines: number[] = [];
  for (let line = model.position(call).line; line <= lineOf(model, call.end); line++) lines.push(line);
  return lines;
}

/** Matchers that compare with a file named by the test file: an image, a value, an ARIA tree given no template. */
const FILE_SNAPSHOT_MATCHERS = new Set(['toHaveScreenshot', 'toMatchSnapshot']);

function comparesWithSnapshotFile(model: SpecModel, call: ts.CallExpression): boolean {
  const expectation = model.expectation(call);
  if (!expectation) return false;
  if (FILE_SNAPSHOT_MATCHERS.has(expectation.matcher)) return true;
  if (expectation.matcher !== 'toMatchAriaSnapshot') return false;
  const template = expectation.call.arguments[0];
  return template === undefined || !(ts.isStringLiteralLike(template) || ts.isTemplateExpression(template));
}

function lineOf(model: SpecModel, position: number): number {
  return model.sourceFile.getLineAndCharacterOfPosition(position).line + 1;
}

function oneLine(source: string): string {
  return source.replace(/\s*\n\s*/g, ' ');
}
