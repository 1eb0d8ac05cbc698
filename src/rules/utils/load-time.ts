/**
 * What the allow-list gate accepts as code that runs when a spec file is loaded (the top level, a describe
 * block, a static field): values whose evaluation runs none of the spec's own functions. Beyond calls,
 * JavaScript runs code implicitly — a getter read or spread, a `toString` or `valueOf` a template or an
 * operator converts with, a default in a destructuring, a computed key — so a value used that way at load
 * time must be one that cannot hold such code: literals, the spec's plain data, imports, process.env.
 */
import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { MAX_DEPTH } from '../../analysis/depth.ts';

/** Methods JavaScript calls by itself when it converts or serialises a value. */
const IMPLICIT_METHODS = new Set(['toString', 'valueOf', 'toJSON', 'then']);
const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.CommaToken]);

/**
 * Whether evaluating the expression at load time runs no code of the spec's. `converted`: the value is also
 * read, spread, iterated or converted to a string or number there, so it may hold no getter, no
 * conversion method, and no class (whose static getters and methods would run).
 */
export function isLoadTimeValue(model: SpecModel, expr: ts.Expression, converted: boolean, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = model.unwrap(expr);
  const next = (x: ts.Expression, c: boolean) => isLoadTimeValue(model, x, c, depth + 1);
  if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isBigIntLiteral(e) || ts.isRegularExpressionLiteral(e)) return true;
  if ([ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(e.kind)) return true;
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return true;
  if (ts.isClassExpression(e)) return !converted;
  if (ts.isIdentifier(e)) return identifierIsLoadTime(model, e, converted, depth);
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    // A read runs a getter of the receiver; a computed key is converted to a string.
    if (ts.isElementAccessExpression(e) && !next(e.argumentExpression, true)) return false;
    return next(e.expression, true) && (!converted || !isClassValue(model, e.expression));
  }
  if (ts.isTemplateExpression(e)) return e.templateSpans.every((span) => next(span.expression, true));
  if (ts.isTypeOfExpression(e) || ts.isVoidExpression(e)) return next(e.expression, false);
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken) return false;
    return next(e.operand, e.operator !== ts.SyntaxKind.ExclamationToken);
  }
  if (ts.isBinaryExpression(e)) {
    const kind = e.operatorToken.kind;
    if (kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment) return false;
    const convertedOperands = !LOGICAL.has(kind);
    return next(e.left, convertedOperands || converted) && next(e.right, convertedOperands || converted);
  }
  if (ts.isConditionalExpression(e)) return next(e.condition, false) && next(e.whenTrue, converted) && next(e.whenFalse, converted);
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((item) => (ts.isSpreadElement(item) ? next(item.expression, true) : ts.isOmittedExpression(item) || next(item, false)));
  if (ts.isObjectLiteralExpression(e)) return e.properties.every((p) => propertyIsLoadTime(model, p, converted, depth + 1));
  return false;
}

function propertyIsLoadTime(model: SpecModel, property: ts.ObjectLiteralElementLike, converted: boolean, depth: number): boolean {
  if (ts.isSpreadAssignment(property)) return isLoadTimeValue(model, property.expression, true, depth);
  if (property.name && ts.isComputedPropertyName(property.name) && !isLoadTimeValue(model, property.name.expression, true, depth)) return false;
  if (ts.isGetAccessorDeclaration(property) || ts.isSetAccessorDeclaration(property)) return !converted;
  // `{ toString: () => … }` as much as `{ toString() {…} }`: a conversion calls it.
  const name = model.propertyName(property);
  if (converted && (name === undefined || IMPLICIT_METHODS.has(name))) return false;
  if (ts.isPropertyAssignment(property)) return isLoadTimeValue(model, property.initializer, false, depth);
  return true;
}

function identifierIsLoadTime(model: SpecModel, id: ts.Identifier, converted: boolean, depth: number): boolean {
  const declaration = model.declarationOf(id);
  if (!declaration) return true; // a global: the gate's identifier check decides whether it may be read at all
  if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration)) return true;
  if (ts.isClassDeclaration(declaration)) return !converted;
  if (ts.isFunctionDeclaration(declaration) || ts.isEnumDeclaration(declaration)) return true;
  if (ts.isVariableDeclaration(declaration)) {
    if (declaration.initializer && ts.isIdentifier(declaration.name)) return isLoadTimeValue(model, declaration.initializer, converted, depth + 1);
    const loop = declaration.parent.parent;
    return ts.isForOfStatement(loop) && isLoadTimeValue(model, loop.expression, true, depth + 1);
  }
  if (ts.isBindingElement(declaration)) {
    let root: ts.Node = declaration;
    while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
    if (!ts.isVariableDeclaration(root)) return false;
    if (root.initializer) return isLoadTimeValue(model, root.initializer, true, depth + 1);
    return ts.isForOfStatement(root.parent.parent) && isLoadTimeValue(model, root.parent.parent.expression, true, depth + 1);
  }
  return false;
}

function isClassValue(model: SpecModel, expr: ts.Expression): boolean {
  const e = model.resolve(expr);
  if (ts.isClassExpression(e)) return true;
  if (!ts.isIdentifier(e)) return false;
  const declaration = model.declarationOf(e);
  return declaration !== undefined && ts.isClassDeclaration(declaration);
}

/**
 * Why a destructuring evaluated at load time runs code, or undefined: a default value is evaluated when the
 * key is missing and a computed key is converted; the source's keys are read (its getters run).
 */
export function loadTimePatternProblem(model: SpecModel, pattern: ts.BindingName, source: ts.Expression | undefined): string | undefined {
  if (ts.isIdentifier(pattern)) return undefined;
  if (source && !isLoadTimeValue(model, source, true)) return 'it reads its keys from a value whose getters could run';
  for (const element of pattern.elements) {
    if (ts.isOmittedExpression(element)) continue;
    if (element.initializer && !isLoadTimeValue(model, element.initializer, false)) return 'a default value is computed';
    if (element.propertyName && ts.isComputedPropertyName(element.propertyName) && !isLoadTimeValue(model, element.propertyName.expression, true)) return 'a key is computed';
    const inner = loadTimePatternProblem(model, element.name, undefined);
    if (inner) return inner;
  }
  return undefined;
}
