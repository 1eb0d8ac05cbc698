/** Small pieces several rules share: where selectors are, removing a statement, compiler diagnostics. */
import { ts } from 'ts-morph';
import type { SpecModel } from '../analysis/model.ts';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { ELEMENT_HANDLE_FACTORIES, PLAYWRIGHT_OBJECTS, type ValueKind } from '../analysis/playwright-api.ts';
import type { Finding, TextEdit } from './types.ts';

/** Stands for the unknown part of a template (`.css-${hash}`): letters and digits, like the values it hides. */
export const UNKNOWN_PART = 'x0x0x0';

export interface SelectorUse {
  call: ts.CallExpression;
  method: string;
  argument: ts.Expression;
  /** The selector, with unknown template parts replaced by UNKNOWN_PART. */
  value: string;
}

/** Methods whose first argument is a selector string, on a page, frame or locator. */
const SELECTOR_METHODS = new Set([
  'locator', 'frameLocator', '$eval', '$$eval', ...ELEMENT_HANDLE_FACTORIES,
  // Page and Frame's selector-first actions (older API, still supported).
  'click', 'dblclick', 'fill', 'type', 'press', 'check', 'uncheck', 'setChecked', 'selectOption', 'hover', 'focus',
  'tap', 'setInputFiles', 'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible',
  'isHidden', 'isChecked', 'isEnabled', 'isDisabled', 'isEditable', 'dispatchEvent',
]);
const PAGE_LEVEL_ONLY = new Set(['click', 'dblclick', 'fill', 'type', 'press', 'check', 'uncheck', 'setChecked', 'selectOption', 'hover', 'focus', 'tap', 'setInputFiles', 'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible', 'isHidden', 'isChecked', 'isEnabled', 'isDisabled', 'isEditable', 'dispatchEvent']);
const SELECTOR_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'frame', 'locator', 'elementHandle', 'unknown']);

/** Every selector string passed to Playwright in the file, followed through variables and templates. */
export function selectorUses(model: SpecModel): SelectorUse[] {
  const uses: SelectorUse[] = [];
  for (const call of model.calls) {
    const { name, receiver } = model.callee(call);
    const argument = call.arguments[0];
    if (!name || !receiver || !argument || !SELECTOR_METHODS.has(name)) continue;
    const kind = model.kindOf(receiver);
    if (!SELECTOR_RECEIVERS.has(kind)) continue;
    // On a locator, click(...) takes options, not a selector; only page and frame take one.
    if (PAGE_LEVEL_ONLY.has(name) && kind !== 'page' && kind !== 'frame') continue;
    const value = model.stringValue(argument, UNKNOWN_PART);
    if (value !== undefined) uses.push({ call, method: name, argument, value });
  }
  return uses;
}

/**
 * Removes the statement that consists of this call alone (`await page.waitForTimeout(500);`), with its
 * line. Returns undefined when the call is part of something larger, where removal is not safe.
 */
export function removeStatementFix(model: SpecModel, call: ts.Expression): TextEdit[] | undefined {
  let node: ts.Node = call;
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const statement = node.parent;
  if (!ts.isExpressionStatement(statement)) return undefined;
  const text = model.sourceFile.text;
  let start = statement.getStart(model.sourceFile);
  let end = statement.end;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const alone = text.slice(lineStart, start).trim() === '' && text.slice(end, lineEnd === -1 ? text.length : lineEnd).trim() === '';
  if (alone) {
    start = lineStart;
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  }
  return [{ start, end, text: '' }];
}

/** Compiler diagnostics as findings, with the compiler's own message. */
export function diagnosticFindings(diagnostics: readonly TypeDiagnostic[], hintFor: (code: number) => string): Finding[] {
  return diagnostics
    .filter((d) => d.error)
    .map((d) => {
      const { code, text } = withoutNameSuggestion(d.code, d.text);
      return { node: d.start, message: `${text} (TS${code})${hintFor(code)}` };
    });
}

/** "Cannot find name 'x'. Did you mean 'y'?" (TS2552), and the same without a suggestion (TS2304). */
const NAME_SUGGESTED = 2552;
const NAME_NOT_FOUND = 2304;

/**
 * A type checker suggests a spelling for only its first ten unknown names, whichever files they are in:
 * with the suggestion a file's findings would depend on the files checked before it. So none is kept.
 */
function withoutNameSuggestion(code: number, text: string): { code: number; text: string } {
  if (code !== NAME_SUGGESTED) return { code, text };
  return { code: NAME_NOT_FOUND, text: text.replace(/ Did you mean '[^']*'\?$/, '') };
}

/** `page.click()`-style text for messages: the callee as written, shortened. */
export function calleeText(model: SpecModel, call: ts.CallExpression): string {
  const text = model.text(call.expression).replace(/\s+/g, '');
  return text.length > 60 ? `…${text.slice(-57)}` : text;
}

/** Whether the function around a node is async (so `await` may be inserted there). */
export function inAsyncFunction(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isFunctionLike(n)) return (ts.getCombinedModifierFlags(n as ts.Declaration) & ts.ModifierFlags.Async) !== 0;
  }
  return false;
}

/**
 * Removes a property written inline in an argument of the call (`click({ force: true })`), with its
 * comma. When it was the object's only property, the whole argument goes (`click()`). Returns undefined
 * when the property lives elsewhere (an options object in a variable or a spread), where removing it
 * could change other calls.
 */
export function removePropertyFix(model: SpecModel, call: ts.CallExpression, property: ts.ObjectLiteralElementLike): TextEdit[] | undefined {
  const object = property.parent;
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const index = call.arguments.findIndex((argument) => model.unwrap(argument) === object);
  if (index === -1) return undefined;
  const argument = call.arguments[index]!;
  if (object.properties.length === 1 && index === call.arguments.length - 1) {
    // The first argument takes a trailing comma with it (`click({ force: true },)` → `click()`).
    const start = index > 0 ? call.arguments[index - 1]!.end : argument.getStart(model.sourceFile);
    return [{ start, end: index > 0 ? argument.end : call.arguments.end, text: '' }];
  }
  const position = object.properties.indexOf(property);
  const next = object.properties[position + 1];
  if (next) return [{ start: property.getStart(model.sourceFile), end: next.getStart(model.sourceFile), text: '' }];
  const previous = object.properties[position - 1];
  return [{ start: previous ? previous.end : property.getStart(model.sourceFile), end: property.end, text: '' }];
}

/**
 * Whether a value may be a Playwright object: one the analysis recognises, or one it cannot name
 * (`this.button` in an untyped page object) unless it is plainly something else, such as an object,
 * array, function or primitive written in the spec.
 */
export function mayBePlaywrightObject(model: SpecModel, expr: ts.Expression): boolean {
  const kind = model.kindOf(expr);
  if (kind !== 'unknown') return PLAYWRIGHT_OBJECTS.has(kind);
  const value = model.resolve(expr);
  return !(
    ts.isObjectLiteralExpression(value) ||
    ts.isArrayLiteralExpression(value) ||
    ts.isFunctionLike(value) ||
    ts.isClassExpression(value) ||
    ts.isLiteralExpression(value) ||
    ts.isTemplateExpression(value)
  );
}

/** An identifier read as a value: not a property name, a declared name or a type. */
export function isValueReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent)) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === id) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent)) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  for (let n: ts.Node = parent; !ts.isStatement(n) && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) return false;
  }
  return true;
}
