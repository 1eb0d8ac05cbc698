/**
 * What a value holds, followed through variables: the string it evaluates to, the object literal and its
 * properties, the member an access names, the callee of a call.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { literalParts } from '../util/regexp.ts';
import { ParsedSpec } from './parsed-spec.ts';
import { classMemberValue, constValue, enclosingClass, TRANSPARENT_KINDS } from './syntax.ts';

export interface PropertyHit {
  property: ts.ObjectLiteralElementLike;
  value: ts.Expression;
}

/** JavaScript's URI encoders, evaluated on known text. */
const URI_ENCODERS: ReadonlyMap<string, (text: string) => string> = new Map([['encodeURIComponent', encodeURIComponent], ['encodeURI', encodeURI]]);

const PROMISE_COMBINATORS = new Set(['all', 'allSettled', 'race', 'any']);

export class ValueModel extends ParsedSpec {
  /** Strips parentheses, casts and non-null assertions. */
  unwrap(expr: ts.Expression): ts.Expression {
    let e = expr;
    // One look at the kind: this runs for almost every expression a rule asks about.
    while (TRANSPARENT_KINDS[e.kind] === 1) e = (e as ts.ParenthesizedExpression).expression;
    return e;
  }

  /** The initializer behind an identifier (followed through aliases), else the expression itself. */
  resolve(expr: ts.Expression, depth = 0): ts.Expression {
    const e = this.unwrap(expr);
    if (depth > MAX_DEPTH || !ts.isIdentifier(e)) return e;
    const declaration = this.declarationOf(e);
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isIdentifier(declaration.name)) {
      return this.resolve(declaration.initializer, depth + 1);
    }
    return e;
  }

  /**
   * The string a expression evaluates to: literals, templates, concatenations, constants and
   * properties of constant objects. With a placeholder, unknown parts are replaced by it instead of
   * making the whole value unknown (so `.css-${hash}` still shows its static part).
   */
  stringValue(expr: ts.Expression, placeholder?: string): string | undefined {
    return this.evaluateString(expr, placeholder, false, 0);
  }

  /**
   * The string an expression always evaluates to, for the gate: literals, templates and `+` of `const`
   * declarations only, since a `let` may be reassigned and an object's property changed before it is read.
   */
  constantString(expr: ts.Expression): string | undefined {
    return this.evaluateString(expr, undefined, true, 0);
  }

  private evaluateString(expr: ts.Expression, placeholder: string | undefined, constantsOnly: boolean, depth: number): string | undefined {
    if (depth > MAX_DEPTH) return placeholder;
    const e = this.unwrap(expr);
    if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const part = this.evaluateString(span.expression, placeholder, constantsOnly, depth + 1);
        if (part === undefined) return undefined;
        out += part + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.evaluateString(e.left, placeholder, constantsOnly, depth + 1);
      const right = left === undefined ? undefined : this.evaluateString(e.right, placeholder, constantsOnly, depth + 1);
      return right === undefined ? undefined : left! + right;
    }
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      const initializer = !declaration ? undefined : constantsOnly ? constValue(declaration) : ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
      return initializer ? this.evaluateString(initializer, placeholder, constantsOnly, depth + 1) : placeholder;
    }
    if (!constantsOnly && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && URI_ENCODERS.has(e.expression.text) && e.arguments.length === 1) {
      // `encodeURIComponent('/products')`: a known text encoded is known too (a placeholder would be mangled).
      const text = this.evaluateString(e.arguments[0]!, undefined, constantsOnly, depth + 1);
      return text === undefined ? placeholder : URI_ENCODERS.get(e.expression.text)!(text);
    }
    if (!constantsOnly && (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e))) {
      const name = this.memberName(e);
      const hit = name === undefined ? undefined : this.property(e.expression, name, depth + 1);
      if (hit) return this.evaluateString(hit.value, placeholder, constantsOnly, depth + 1);
      const member = name !== undefined && this.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword ? this.thisMemberValue(e, name) : undefined;
      if (member) return this.evaluateString(member, placeholder, constantsOnly, depth + 1);
    }
    return placeholder;
  }

  /** The pattern and flags of a regular expression: a literal, or `new RegExp(…)` of known text; followed through variables. */
  patternValue(expr: ts.Expression): { source: string; flags: string } | undefined {
    const value = this.resolve(this.unwrap(expr));
    if (ts.isRegularExpressionLiteral(value)) return literalParts(value.text);
    if (!ts.isNewExpression(value) || !ts.isIdentifier(value.expression) || value.expression.text !== 'RegExp' || !value.arguments?.[0]) return undefined;
    const source = this.stringValue(value.arguments[0]);
    const flags = value.arguments[1] ? this.stringValue(value.arguments[1]) : '';
    return source === undefined ? undefined : { source, flags: flags ?? '' };
  }

  /** The object literal an expression holds, followed through variables and nested properties (`config.urls`). */
  objectLiteral(expr: ts.Expression, depth = 0): ts.ObjectLiteralExpression | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.resolve(expr, depth);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.memberName(e);
      const hit = name === undefined ? undefined : this.property(e.expression, name, depth + 1);
      return hit ? this.objectLiteral(hit.value, depth + 1) : undefined;
    }
    return undefined;
  }

  /** A property of an object value (followed through variables and spreads); the last one wins. */
  property(expr: ts.Expression, name: string, depth = 0): PropertyHit | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const object = this.objectLiteral(expr, depth);
    if (!object) return undefined;
    for (let i = object.properties.length - 1; i >= 0; i--) {
      const property = object.properties[i]!;
      if (ts.isSpreadAssignment(property)) {
        const inner = this.property(property.expression, name, depth + 1);
        if (inner) return inner;
        continue;
      }
      if (this.propertyName(property) !== name) continue;
      if (ts.isPropertyAssignment(property)) return { property, value: property.initializer };
      if (ts.isShorthandPropertyAssignment(property)) return { property, value: property.name };
    }
    return undefined;
  }

  propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
    const name = property.name;
    if (!name) return undefined;
    if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
    if (ts.isComputedPropertyName(name)) return this.stringValue(name.expression);
    return undefined;
  }

  /** The member a property or element access names: `a.b`, `a['b']`, a[`b`], `a[constant]`. */
  memberName(expr: ts.Expression): string | undefined {
    if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
    if (ts.isElementAccessExpression(expr)) return this.stringValue(expr.argumentExpression);
    return undefined;
  }

  /** For a call, the called method's name and the object it is called on. */
  callee(call: ts.CallExpression): { name: string | undefined; receiver: ts.Expression | undefined } {
    const callee = this.unwrap(call.expression);
    if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
      return { name: this.memberName(callee), receiver: callee.expression };
    }
    if (ts.isIdentifier(callee)) return { name: callee.text, receiver: undefined };
    return { name: undefined, receiver: undefined };
  }

  /** The value `this.name` holds in the class around `access`: the property's initializer or what the constructor assigns. */
  thisMemberValue(access: ts.Node, name: string): ts.Expression | undefined {
    const cls = enclosingClass(access);
    return cls ? classMemberValue(cls, name, this.sourceFile) : undefined;
  }

  protected isPromiseCombinator(call: ts.CallExpression): boolean {
    const callee = this.unwrap(call.expression);
    return (
      ts.isPropertyAccessExpression(callee) &&
      ts.isIdentifier(callee.expression) &&
      callee.expression.text === 'Promise' &&
      PROMISE_COMBINATORS.has(callee.name.text)
    );
  }
}
