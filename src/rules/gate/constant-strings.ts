/** The strings an expression of the spec can evaluate to, when the spec fixes them: what allowed-paths reads paths and URLs from. */
import type { SpecModel } from '../../analysis/model.ts';
import { ts } from '../../util/typescript.js';
import { MAX_DEPTH } from '../../analysis/depth.ts';
import { constValue, isAssignmentTarget, valueSite } from '../../analysis/syntax.ts';

const MAX_VALUES = 64;

/**
 * Every string an expression can evaluate to, when the spec fixes them all: its constantString, plus the rows
 * of a constant table a `for (const { name } of TABLE)` loop walks. Undefined when any is unknown.
 */
export function constStrings(model: SpecModel, expr: ts.Expression, depth = 0): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  const single = model.constantString(e);
  if (single !== undefined) return [single];
  if (ts.isTemplateExpression(e)) {
    let out = [e.head.text];
    for (const span of e.templateSpans) {
      const parts = constStrings(model, span.expression, depth + 1);
      if (parts === undefined) return undefined;
      out = out.flatMap((before) => parts.map((part) => before + part + span.literal.text));
      if (out.length > MAX_VALUES) return undefined;
    }
    return out;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constStrings(model, e.left, depth + 1);
    const right = left && constStrings(model, e.right, depth + 1);
    const out = left && right ? left.flatMap((l) => right.map((r) => l + r)) : undefined;
    return out && out.length <= MAX_VALUES ? out : undefined;
  }
  return ts.isIdentifier(e) ? loopValues(model, e, depth) : undefined;
}

/** `for (const name of ['a', 'b'])` or `for (const { name } of [{ name: 'a' }])` over a constant array literal. */
function loopValues(model: SpecModel, id: ts.Identifier, depth: number): string[] | undefined {
  const declaration = model.declarationOf(id);
  if (!declaration) return undefined;
  const key = ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent) ? declaration.propertyName ?? declaration.name : undefined;
  const variable = ts.isBindingElement(declaration) ? declaration.parent.parent : declaration;
  if (!ts.isVariableDeclaration(variable) || variable.initializer || !ts.isForOfStatement(variable.parent.parent)) return undefined;
  if ((variable.parent.flags & ts.NodeFlags.Const) === 0) return undefined; // `for (let p of …)` may be reassigned in the loop
  if (ts.isBindingElement(declaration) && (!key || !ts.isIdentifier(key) || variable.name !== declaration.parent)) return undefined;
  let rows: ts.Expression = model.unwrap(variable.parent.parent.expression);
  if (ts.isIdentifier(rows)) {
    const table = model.declarationOf(rows);
    const holder = table && holderOf(model, table);
    if (!holder || !neverWritten(model, holder)) return undefined;
    rows = constValue(holder) ?? rows;
  }
  rows = model.unwrap(rows);
  if (!ts.isArrayLiteralExpression(rows)) return undefined;
  const values: string[] = [];
  for (const row of rows.elements) {
    let value: ts.Expression | undefined = row;
    if (key) {
      const object = model.unwrap(row);
      const property = ts.isObjectLiteralExpression(object) ? object.properties.find((p) => model.propertyName(p) === (key as ts.Identifier).text) : undefined;
      value = property && ts.isPropertyAssignment(property) ? property.initializer : undefined;
    }
    const strings = value && constStrings(model, value, depth + 1);
    if (!strings) return undefined;
    values.push(...strings);
  }
  return values;
}

/** The initializer of the `const` declaration an identifier names, if it names one. */
export function constInitializer(model: SpecModel, id: ts.Identifier): ts.Expression | undefined {
  const declaration = model.declarationOf(id);
  return declaration && constValue(declaration);
}

/** The operands of a concatenation or the pieces of a template, in order: literal text as strings. */
export function urlParts(model: SpecModel, expr: ts.Expression, depth = 0): Array<ts.Expression | string> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return [...(urlParts(model, e.left, depth + 1) ?? [e.left]), ...(urlParts(model, e.right, depth + 1) ?? [e.right])];
  }
  if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.flatMap((span) => [span.expression, span.literal.text])].filter((part) => part !== '');
  return undefined;
}

/** The text the parts start with, up to the first one computed at run time, and whether every part is known. */
export function leadingText(model: SpecModel, parts: ReadonlyArray<ts.Expression | string>): { text: string; complete: boolean } {
  let text = '';
  for (const part of parts) {
    const known = typeof part === 'string' ? part : model.constantString(part);
    if (known === undefined) return { text, complete: false };
    text += known;
  }
  return { text, complete: true };
}

export function shortText(text: string): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/**
 * Whether no code changes what a declaration holds: each reference only reads it — iterates it with `for…of`,
 * reads a member that is neither written (`x.a = …`, `x[0] = …`, `(x.a as T) = …`, `for (x.a of …)`) nor called
 * (`x.push(…)`: a method may change it), or names it in a `const` alias read the same way. Anything else —
 * handing it to a function, spreading it, a `let` alias — may change it. Writes through a row or a parameter
 * (`row.path = …`) are allowed-code's: only the spec's own objects may be changed.
 */
export function neverWritten(model: SpecModel, declaration: ts.Node, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  return model.referencesTo(declaration).every((reference) => onlyRead(model, reference, depth));
}

/** The declaration that holds the value itself, behind `const` aliases (`const B = A`): the one whose references reach every alias. */
export function holderOf(model: SpecModel, declaration: ts.Node, depth = 0): ts.Node {
  const value = constValue(declaration);
  const named = value && model.unwrap(value);
  const next = named && ts.isIdentifier(named) ? model.declarationOf(named) : undefined;
  return next && depth < MAX_DEPTH ? holderOf(model, next, depth + 1) : declaration;
}

function onlyRead(model: SpecModel, reference: ts.Node, depth: number): boolean {
  const site = valueSite(reference);
  const parent = site.parent;
  if (ts.isForOfStatement(parent) && parent.expression === site) return true;
  if (ts.isVariableDeclaration(parent) && parent.initializer === site) return constValue(parent) === site && neverWritten(model, parent, depth + 1);
  if (!isMemberOf(parent, site)) return false;
  let end: ts.Node = valueSite(parent);
  while (isMemberOf(end.parent, end)) end = valueSite(end.parent);
  const called = ts.isCallExpression(end.parent) && end.parent.expression === end;
  return !called && !isAssignmentTarget(end as ts.Expression);
}

function isMemberOf(node: ts.Node, receiver: ts.Node): node is ts.PropertyAccessExpression | ts.ElementAccessExpression {
  return (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && node.expression === receiver;
}
