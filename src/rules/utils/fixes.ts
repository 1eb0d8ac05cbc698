/** Safe autofixes rules share: edits that remove a statement or an option and nothing else. */
import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import type { TextEdit } from '../types.ts';

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
