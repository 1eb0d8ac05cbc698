/**
 * The gate's Playwright policy: the members a spec may reach (the allow-list of Playwright's API and of ordinary
 * values), the fixtures it may ask for, the options of test.use and of a new context, and its own matchers.
 */
import type { SpecModel } from '../../analysis/model.ts';
import { PLAYWRIGHT_BUILTIN_FIXTURES } from '../../analysis/playwright-api.ts';
import { ts } from '../../util/typescript.js';
import { isValueReference } from '../utils/ast.ts';
import { isExtendArgument, isFixtureCallback, isFixtureRooted, isPlainData } from '../../analysis/value-origins.ts';
import { GlobalsPolicy } from './globals.ts';
import { isAssignmentTarget, returnStatements } from '../../analysis/syntax.ts';
import { INHERITED, shorten } from './policy.ts';

const BUILT_IN_MATCHERS = /^to(Match|Have)(Snapshot|Screenshot|InlineSnapshot)$|^toThrowErrorMatching/;

export class PlaywrightMemberPolicy extends GlobalsPolicy {
  protected member(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): void {
    const { model } = this;
    if (ts.isPropertyAccessExpression(access) && ts.isPrivateIdentifier(access.name)) return;
    const name = model.memberName(access);
    const receiver = model.unwrap(access.expression);
    if (name === undefined) {
      if (ts.isElementAccessExpression(access) && this.isIndex(access.argumentExpression)) return;
      this.report(access, `\`${shorten(model.text(access))}\` reads a member whose name is computed at run time, which cannot be checked; use a literal property name (obj.name) or a numeric index into data.`);
      return;
    }
    if (ts.isElementAccessExpression(access) && /^\d+$/.test(name)) return;
    if (isAssignmentTarget(access) && !this.mayAssign(receiver, name)) {
      this.report(access, `Generated code may not change \`${shorten(model.text(access))}\`: only its own objects (this.x in its classes, its object literals) may be written.`);
      return;
    }
    const problem = this.memberProblem(receiver, name);
    if (problem) this.report(access, problem);
    else if (this.isDetachedMethod(access, receiver, name)) {
      this.report(access, `\`${shorten(model.text(access))}\` hands on a method without its object, so \`this\` in it could become any value (a Playwright object, for one); pass an arrow function instead: () => ${shorten(model.text(access))}().`);
    }
  }

  /** Why `receiver.name` may not be read, or undefined when it may. */
  private memberProblem(receiver: ts.Expression, name: string): string | undefined {
    const { model } = this;
    if (name.startsWith('_')) return `\`.${name}\`: names starting with _ are private internals (Playwright's reach its connection and the host); generated code may not use them.`;
    if (ts.isIdentifier(receiver) && !model.declarationOf(receiver)) {
      if (receiver.text === 'process') return name === 'env' ? undefined : `process.${name} is not available to generated code; only process.env.NAME for ${this.envList()}.`;
      const allowed = this.options.globals[receiver.text];
      if (allowed) return allowed.includes(name) ? undefined : `${receiver.text}.${name} is not allowed in generated code (${receiver.text}: ${allowed.join(', ') || 'no members'}).`;
      return undefined; // the global itself is reported
    }
    if (this.isProcessEnv(receiver)) {
      return this.env.has(name) ? undefined : `process.env.${name} is not a variable generated code may read (allowed: ${this.envList()}); secrets and the runner's settings stay out of specs.`;
    }
    if (this.ownMember(receiver, name)) return undefined;
    if (this.members.has(name)) return undefined;
    if (!INHERITED.has(name) && this.projectObject(receiver)) return undefined;
    if (!INHERITED.has(name) && (isPlainData(model, receiver) || this.matcherNames.has(name))) return undefined;
    if (INHERITED.has(name)) return `\`.${name}\` reaches an object's prototype or constructor (and from there Function); generated code may not use it.`;
    return `\`.${name}\` is not a member generated code may use here: it is neither Playwright's API on the allow-list, a method of strings, arrays, numbers or promises, nor a member of the spec's own objects or data.`;
  }

  private isIndex(argument: ts.Expression): boolean {
    const e = this.model.unwrap(argument);
    return ts.isNumericLiteral(e) || (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand));
  }

  /** `const { a, b: c } = source`: each key read is a member read of the source. */
  protected binding(element: ts.BindingElement): void {
    const { model } = this;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) || ts.isNumericLiteral(key) ? key.text : ts.isComputedPropertyName(key) ? model.stringValue(key.expression) : undefined;
    if (name === undefined) {
      this.report(element, 'A destructured key computed at run time cannot be checked; name the key literally.');
      return;
    }
    const pattern = element.parent as ts.ObjectBindingPattern;
    const owner = pattern.parent;
    if (ts.isParameter(owner) && isFixtureCallback(model, owner.parent) && owner.parent.parameters[0] === owner) {
      if (!this.fixtureAllowed(name)) this.report(element, `The fixture \`${name}\` is not one generated code may use (allowed: ${[...this.fixtures].join(', ')}).`);
      return;
    }
    const source = ts.isVariableDeclaration(owner) ? owner.initializer : undefined;
    if (source) {
      const problem = this.memberProblem(model.unwrap(source), name);
      if (problem) this.report(element, problem);
      return;
    }
    if (ts.isVariableDeclaration(owner) && ts.isForOfStatement(owner.parent.parent) && isPlainData(model, owner.parent.parent.expression) && !INHERITED.has(name)) return;
    if (!this.members.has(name)) this.report(element, `Destructuring \`${name}\` from a value the analysis cannot follow is not allowed; take the value as a plain parameter or read a listed member.`);
  }

  /** `({ constructor: make } = fn)` reads its keys from the value assigned, like destructuring. */
  protected assignmentPattern(pattern: ts.ObjectLiteralExpression, source: ts.Expression | undefined): void {
    for (const property of pattern.properties) {
      if (ts.isSpreadAssignment(property)) continue;
      const name = this.model.propertyName(property);
      if (name === undefined) {
        this.report(property, 'A destructured key computed at run time cannot be checked; name the key literally.');
        continue;
      }
      const problem = source ? this.memberProblem(this.model.unwrap(source), name) : this.members.has(name) ? undefined : `Destructuring \`${name}\` from a value the analysis cannot follow is not allowed.`;
      if (problem) this.report(property, problem);
    }
  }

  /**
   * `expect` and `test` are Playwright's (or the project's fixtures module's, or an extend of them): a local
   * `const expect = (x) => ({ toBeVisible: async () => {} })` would make every assertion check nothing.
   */
  protected playwrightName(name: ts.Identifier): void {
    const declaration = name.parent;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer && this.model.playwrightPath(declaration.initializer) === name.text) return;
    this.report(name, `A spec may not declare its own \`${name.text}\`: it must be Playwright's (import { ${name.text} } from '@playwright/test', or ${name.text === 'expect' ? 'base.extend({ matchers })' : 'base.extend({ fixtures })'}), or every check written with it could be a stand-in that verifies nothing.`);
  }

  /**
   * `expect.extend({...})` (or an alias's): matchers of the spec's own names, whose `pass` depends on what
   * they receive. Redefining toBeVisible, or a matcher that always passes, makes a spec verify nothing.
   */
  protected matchers(call: ts.CallExpression): void {
    const object = call.arguments[0] && this.model.objectLiteral(call.arguments[0]);
    if (!object) {
      this.report(call.arguments[0] ?? call, 'expect.extend needs its matchers written as an object literal, so they can be checked.');
      return;
    }
    for (const property of object.properties) {
      const name = this.model.propertyName(property);
      if (name === undefined || this.members.has(name) || INHERITED.has(name) || BUILT_IN_MATCHERS.test(name)) {
        this.report(property, `expect.extend may not redefine \`${name ?? this.model.text(property)}\`: Playwright's matchers (toBeVisible, toHaveText, …) must stay Playwright's; give a matcher of your own a name of your own (toHaveCartTotal).`);
        continue;
      }
      const fn = ts.isMethodDeclaration(property) ? property : ts.isPropertyAssignment(property) ? this.model.unwrap(property.initializer) : undefined;
      if (!fn || !(ts.isMethodDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !matcherPassDependsOnInput(this.model, fn)) {
        this.report(property, `The matcher \`${name}\` must return { pass, message } with \`pass\` computed from what it receives; a matcher that always passes verifies nothing.`);
      }
    }
  }

  /** browser.newContext({...}) and newPage({...}): the options of a context, from the same list as test.use. */
  protected contextOptions(argument: ts.Expression, method: string): void {
    const object = this.model.objectLiteral(argument);
    if (!object) return; // allowed-paths wants it written out
    for (const property of object.properties) {
      const name = ts.isSpreadAssignment(property) ? undefined : this.model.propertyName(property);
      if (name !== undefined && (this.options.use_options.includes(name) || this.options.context_options.includes(name))) continue;
      if (ts.isSpreadAssignment(property) && isPlainData(this.model, property.expression)) continue;
      this.report(property, `${method}() option \`${name ?? this.model.text(property)}\` is not allowed in generated code: a context may set only ${[...this.options.use_options, ...this.options.context_options].join(', ')}.`);
    }
  }

  protected isPageFunctionCall(call: ts.CallExpression): boolean {
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !this.options.page_functions.includes(callee.name.text)) return false;
    return isFixtureRooted(this.model, callee.expression);
  }

  protected testUse(): void {
    const { model } = this;
    for (const object of model.nodes<ts.ObjectLiteralExpression>(ts.SyntaxKind.ObjectLiteralExpression)) {
      if (!isExtendArgument(model, object)) continue;
      for (const property of object.properties) {
        const name = model.propertyName(property);
        if (name === undefined || PLAYWRIGHT_BUILTIN_FIXTURES.has(name) || name.startsWith('_')) {
          this.report(property, `test.extend may not override \`${name ?? model.text(property)}\`: Playwright's own fixtures and options (page, browser, launchOptions, …) must stay Playwright's; define fixtures of your own names.`);
        }
      }
    }
    for (const call of model.calls) {
      if (model.playwrightPath(call.expression) !== 'test.use') continue;
      const argument = call.arguments[0];
      const object = argument ? model.objectLiteral(argument) : undefined;
      if (!object) {
        this.report(argument ?? call, 'test.use needs its options written as an object literal, so they can be checked.');
        continue;
      }
      this.useOptions(object);
    }
  }

  private useOptions(object: ts.ObjectLiteralExpression): void {
    const { model } = this;
    for (const property of object.properties) {
      if (ts.isSpreadAssignment(property)) {
        const inner = model.objectLiteral(property.expression);
        if (inner) this.useOptions(inner);
        else if (!isPlainData(model, property.expression)) this.report(property, 'A spread in test.use must be of data (such as devices[\'iPhone 13\']) or an object literal.');
        continue;
      }
      const name = model.propertyName(property);
      if (name === undefined || !this.options.use_options.includes(name)) {
        this.report(property, `test.use option \`${name ?? model.text(property)}\` is not allowed in generated code: it may set only ${this.options.use_options.join(', ')} (never the browser's executable, arguments or launch/connect options).`);
      }
    }
  }
}

/**
 * Whether every `pass` a matcher returns is computed from its input: it mentions a parameter of the
 * matcher, a local computed from one, or awaits something (a locator's state). `pass: true` does not.
 */
function matcherPassDependsOnInput(model: SpecModel, fn: ts.FunctionLikeDeclaration): boolean {
  const passes: ts.Expression[] = [];
  const returned = (value: ts.Expression) => {
    const object = model.objectLiteral(value);
    const pass = object?.properties.find((p) => model.propertyName(p) === 'pass');
    passes.push(pass && ts.isPropertyAssignment(pass) ? pass.initializer : pass && ts.isShorthandPropertyAssignment(pass) ? pass.name : value);
  };
  const body = fn.body;
  if (!body) return false;
  if (!ts.isBlock(body)) returned(body);
  else for (const statement of returnStatements(body)) if (statement.expression) returned(statement.expression);
  return passes.length > 0 && passes.every((pass) => dependsOnInput(model, pass, fn, 0));
}

function dependsOnInput(model: SpecModel, expr: ts.Node, fn: ts.FunctionLikeDeclaration, depth: number): boolean {
  if (depth > 12) return false;
  if (ts.isAwaitExpression(expr)) return true;
  if (ts.isIdentifier(expr) && isValueReference(expr)) {
    const declaration = model.declarationOf(expr);
    if (!declaration || !isInside(declaration, fn)) return false;
    if (ts.isParameter(declaration) || (ts.isBindingElement(declaration) && ts.isParameter(rootOfBinding(declaration)))) return true;
    const initializer = ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    return initializer !== undefined && dependsOnInput(model, initializer, fn, depth + 1);
  }
  return ts.forEachChild(expr, (child) => (dependsOnInput(model, child, fn, depth + 1) ? true : undefined)) === true;
}

function rootOfBinding(node: ts.Node): ts.Node {
  let root = node;
  while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
  return root;
}

function isInside(node: ts.Node, container: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) if (n === container) return true;
  return false;
}
