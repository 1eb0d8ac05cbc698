/**
 * The proof run's spec: the same spec with the actions under test made no-ops, so a run of it shows
 * whether the spec's assertions depend on those actions happening.
 *
 * The actions under test are the state-changing calls (fill, click, check, …) a test makes after its
 * last navigation (page.goto, reload, goBack, goForward, or a call the analysis cannot see into that is
 * handed the page: an imported helper may navigate). Steps before that navigation are the way there
 * (signing in, opening a page) and stay: neutralising them would make any assertion fail, also one on
 * what a page shows before anything is done. Each neutralised call becomes `Promise.resolve()` in
 * place, padded to the same number of lines, so every line keeps its number and Playwright's error
 * locations point at the same lines in both runs.
 *
 * A pure transform: text in, text out, nothing run.
 */
import { ts } from '../util/typescript.js';
import { SpecModel } from './model.ts';
import type { ValueKind } from './playwright-api.ts';

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

const NAVIGATIONS: ReadonlySet<string> = new Set(['goto', 'reload', 'goBack', 'goForward', 'setContent']);

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
  /** The navigation the actions follow, as written (`page.goto('/settings')`); undefined when the test never navigates. */
  lastNavigation: string | undefined;
}

export interface NeutralisedSpec {
  text: string;
  tests: NeutralisedTest[];
}

export function neutraliseActions(text: string, fileName = 'spec.ts'): NeutralisedSpec {
  const model = SpecModel.fromText(fileName, text);
  const tests: NeutralisedTest[] = [];
  const neutralised = new Set<ts.CallExpression>();
  const keptSomewhere = new Set<ts.CallExpression>();

  for (const test of model.tests()) {
    if (!test.body?.body) continue;
    const calls = model.reachableCalls(test.body.body);
    const boundary = lastIndex(calls, (call) => isNavigation(model, call));
    const actions: NeutralisedAction[] = [];
    const checkLines = new Set<number>();
    calls.forEach((call, index) => {
      if (index <= boundary) {
        keptSomewhere.add(call);
        return;
      }
      if (isStateChangingAction(model, call)) {
        neutralised.add(call);
        actions.push({ line: model.position(call).line, source: oneLine(model.text(call)) });
      } else if (actions.length > 0 && !insideAny(call, neutralised)) {
        for (let line = model.position(call).line; line <= lineOf(model, call.end); line++) checkLines.add(line);
      }
    });
    tests.push({
      title: test.title ?? '',
      line: model.position(test.call).line,
      actions,
      checkLines: [...checkLines].sort((a, b) => a - b),
      lastNavigation: boundary >= 0 ? oneLine(model.text(calls[boundary]!)) : undefined,
    });
  }

  // A helper's action made both before and after a navigation stays: it is part of the way there.
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

function isNavigation(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  if (name && receiver && NAVIGATIONS.has(name) && ['page', 'frame'].includes(model.kindOf(receiver))) return true;
  // A call the analysis cannot follow (an imported helper, a page object's method from elsewhere) that is handed the page may navigate.
  if (model.localFunction(call) || model.expectation(call) || (receiver && model.kindOf(receiver) !== 'unknown')) return false;
  return call.arguments.some((argument) => model.kindOf(argument) === 'page') || (receiver !== undefined && holdsPage(model, receiver));
}

/** `new SettingsPage(page)` and variables holding one: an object made from the page. */
function holdsPage(model: SpecModel, expr: ts.Expression): boolean {
  const value = model.resolve(expr);
  return ts.isNewExpression(value) && (value.arguments ?? []).some((argument) => model.kindOf(argument) === 'page');
}

function isStateChangingAction(model: SpecModel, call: ts.CallExpression): boolean {
  const { name, receiver } = model.callee(call);
  return name !== undefined && receiver !== undefined && STATE_CHANGING_ACTIONS.has(name) && ACTION_RECEIVERS.has(model.kindOf(receiver));
}

/** A call within a neutralised one (its locator's `getByRole(…)`) goes with it. */
function insideAny(call: ts.CallExpression, calls: ReadonlySet<ts.CallExpression>): boolean {
  for (let node: ts.Node | undefined = call.parent; node; node = node.parent) if (ts.isCallExpression(node) && calls.has(node)) return true;
  return false;
}

function lastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return i;
  return -1;
}

function lineOf(model: SpecModel, position: number): number {
  return model.sourceFile.getLineAndCharacterOfPosition(position).line + 1;
}

function oneLine(source: string): string {
  return source.replace(/\s*\n\s*/g, ' ');
}
