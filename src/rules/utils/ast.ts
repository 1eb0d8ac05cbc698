/** Questions about syntax-tree nodes that several rules ask. */
import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { PLAYWRIGHT_OBJECTS } from '../../analysis/playwright-api.ts';

/** `page.click()`-style text for messages: the callee as written, shortened. */
export function calleeText(model: SpecModel, call: ts.CallExpression): string {
  const text = model.text(call.expression).replace(/\s+/g, '');
  return text.length > 60 ? `…${text.slice(-57)}` : text;
}

/** Whether the function around a node is async (so `await` may be inserted there). */
export function inAsyncFunction(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isFunctionLike(n)) return (ts.getCombinedModifierFlags(n) & ts.ModifierFlags.Async) !== 0;
  }
  return false;
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
