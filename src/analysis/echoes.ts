/**
 * Echoes: assertions that check only what the spec's own action set on an element (the value it typed, the box
 * it ticked, the focus it gave), so they fail when the action is made a no-op whatever the app does. The proof
 * neutralises them with their action (src/analysis/neutralise.ts).
 */
import { ts } from '../util/typescript.js';
import { regExpOfLiteral } from '../util/regexp.ts';
import type { Expectation, SpecModel } from './model.ts';
import { MAX_DEPTH } from './depth.ts';
import { VALUE_SETTERS } from './playwright-api.ts';


/**
 * The assertions after the group under test that check only what one of its actions set on the same
 * locator: its typed or selected value (`toHaveValue` of the same value or a pattern it matches, the `value`
 * property, `inputValue()` read), its ticked state (`toBeChecked`, the `checked` property or `isChecked()`
 * after `check()`, negated after `uncheck()`), its focus.
 */
export function echoes(model: SpecModel, calls: readonly ts.CallExpression[], steps: readonly string[], group: ReadonlySet<number>): number[] {
  const first = Math.min(...group);
  const set = [...group].map((index) => calls[index]!);
  const found: number[] = [];
  calls.forEach((call, index) => {
    if (index < first || steps[index] !== 'assertion') return;
    const expectation = model.expectation(call);
    if (expectation?.subject && set.some((action) => echoOf(model, action, expectation))) found.push(index);
  });
  return found;
}

function echoOf(model: SpecModel, action: ts.CallExpression, expectation: Expectation): boolean {
  const { name, receiver } = model.callee(action);
  if (!name || !receiver || !expectation.subject) return false;
  if (expectation.matcher === 'toMatchAriaSnapshot') return VALUE_SETTERS.has(name) && !expectation.negated && snapshotEchoes(model, action, expectation);
  const read = fieldRead(model, expectation.subject);
  if (read) return sameText(model, receiver, read.element) && readEchoes(model, name, action, read.method, expectation);
  if (!sameText(model, receiver, expectation.subject)) return false;
  // Acting on an element focuses it; what a field holds after the spec typed into it is the spec's own doing.
  if (expectation.matcher === 'toBeFocused') return true;
  const [first, second] = expectation.call.arguments;
  if (expectation.matcher === 'toHaveJSProperty' && first !== undefined && second !== undefined) {
    const property = model.stringValue(first);
    if (property === 'value') return VALUE_SETTERS.has(name) && !expectation.negated && holdsTyped(model, action, second);
    return property === 'checked' && ticks(name, expectation.negated !== (second.kind === ts.SyntaxKind.FalseKeyword));
  }
  if (VALUE_SETTERS.has(name)) {
    if (expectation.matcher === 'toBeEmpty') return true;
    if (expectation.matcher !== 'toHaveValue' || first === undefined) return false;
    // `not.toHaveValue('')`: the field holds something, what the spec typed.
    if (expectation.negated) return model.stringValue(first) === '';
    return holdsTyped(model, action, first);
  }
  if (expectation.matcher !== 'toBeChecked' || first !== undefined) return false;
  return ticks(name, expectation.negated);
}

/** Roles whose value in an ARIA snapshot is what the field holds: what the spec typed into it. */
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** Roles whose name is a fixed label of a control, the same before and after any action. */
const LABELLED_CONTROLS = new Set(['button', 'link', 'form', 'search']);
/** One line of an ARIA snapshot: `- role "name" [attributes]: value`. */
const SNAPSHOT_LINE = /^\s*-\s+([a-z]+)(?:\s+("(?:[^"\\]|\\.)*"|\/(?:[^/\\]|\\.)*\/))?(?:\s*\[[^\]]*\])*\s*(?::\s*(.*))?$/;

/**
 * An ARIA snapshot whose only content is the value of a field the action typed into (`- searchbox "Search":
 * locators`): its other lines are containers and fixed labels of controls, which hold before any action.
 */
function snapshotEchoes(model: SpecModel, action: ts.CallExpression, expectation: Expectation): boolean {
  const [template] = expectation.call.arguments;
  const typed = action.arguments[0] ? model.stringValue(action.arguments[0]) : undefined;
  const text = template ? model.stringValue(template) : undefined;
  if (typed === undefined || text === undefined) return false;
  let echoed = false;
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const [, role = '', name, value = ''] = SNAPSHOT_LINE.exec(line) ?? [];
    if (!role) return false;
    const shown = value.trim().replace(/^"(.*)"$/, '$1');
    if (FIELD_ROLES.has(role) && shown !== '') {
      if (shown !== typed) return false;
      echoed = true;
    } else if (shown !== '' || (name !== undefined && !FIELD_ROLES.has(role) && !LABELLED_CONTROLS.has(role))) return false;
  }
  return echoed;
}

/** Reads of a field's own state, which echo what the spec set on it. */
const FIELD_READS = new Set(['inputValue', 'isChecked']);
/** Matchers that compare a read with the value expected. */
const EQUALITY = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toMatch']);

/** `expect.poll(() => field.inputValue())`, `expect(await field.isChecked())`: the field and what is read of it. */
function fieldRead(model: SpecModel, subject: ts.Expression): { element: ts.Expression; method: string } | undefined {
  let value = model.unwrap(model.resolve(model.unwrap(subject)));
  if (ts.isArrowFunction(value) && !ts.isBlock(value.body)) value = model.unwrap(value.body);
  if (ts.isAwaitExpression(value)) value = model.unwrap(value.expression);
  if (!ts.isCallExpression(value)) return undefined;
  const { name, receiver } = model.callee(value);
  return name && receiver && FIELD_READS.has(name) ? { element: receiver, method: name } : undefined;
}

function readEchoes(model: SpecModel, action: string, call: ts.CallExpression, read: string, expectation: Expectation): boolean {
  const [expected] = expectation.call.arguments;
  if (read === 'isChecked') {
    const ticked = expectation.matcher === 'toBeTruthy' || (expectation.matcher === 'toBe' && expected?.kind === ts.SyntaxKind.TrueKeyword);
    const unticked = expectation.matcher === 'toBeFalsy' || (expectation.matcher === 'toBe' && expected?.kind === ts.SyntaxKind.FalseKeyword);
    return (ticked || unticked) && ticks(action, expectation.negated !== unticked);
  }
  return VALUE_SETTERS.has(action) && !expectation.negated && EQUALITY.has(expectation.matcher) && expected !== undefined && holdsTyped(model, call, expected);
}

/** Actions that toggle a box: after one, its ticked state (either way) is the spec's own doing. */
const TOGGLES = new Set(['click', 'tap', 'setChecked']);

/** `check()` then a ticked state, `uncheck()` then an unticked one, a click on the box then either. */
function ticks(action: string, unticked: boolean): boolean {
  if (TOGGLES.has(action)) return true;
  return action === 'check' ? !unticked : action === 'uncheck' && unticked;
}

/** Whether what an assertion expects is what the action typed: the same value, or a pattern it matches (`/^zebra$/` after `fill('zebra')`). */
function holdsTyped(model: SpecModel, action: ts.CallExpression, expected: ts.Expression): boolean {
  const [typed] = action.arguments;
  if (typed === undefined) return false;
  if (sameText(model, typed, expected)) return true;
  const value = model.stringValue(typed);
  const pattern = model.resolve(model.unwrap(expected));
  if (value === undefined || !ts.isRegularExpressionLiteral(pattern)) return false;
  return regExpOfLiteral(pattern.text)?.test(value) ?? false;
}

/**
 * Whether two expressions are the same once variables and page objects' members (what `todos.input()` returns)
 * are followed and whitespace and quotes are ignored.
 */
function sameText(model: SpecModel, a: ts.Expression, b: ts.Expression): boolean {
  const canonical = (node: ts.Expression, depth = 0): string => {
    const value = model.stringValue(node);
    if (value !== undefined) return `"${value}"`;
    const resolved = model.resolve(node);
    const returned = depth < MAX_DEPTH ? model.returnedBy(resolved) : undefined;
    return returned ? canonical(returned, depth + 1) : model.text(resolved).replace(/\s+/g, '').replace(/'/g, '"');
  };
  return canonical(a) === canonical(b);
}
