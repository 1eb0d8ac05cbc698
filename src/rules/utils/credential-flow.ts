/**
 * Where a declared credential (critic.yaml settings.credentials: process.env.E2E_PASSWORD …) may go in
 * model-written code: into the inputs that need it — a locator's fill, type or pressSequentially, HTTP
 * credentials — through constants, `??` fallbacks, the spec's own helpers and page objects, and the
 * project's imported helpers. Anywhere else (a URL, a header, an error or expect message, the console, an
 * attachment, page.evaluate, a concatenation, btoa or Buffer, a reversal) its value could reach a model
 * or another host, in a form redaction no longer recognises. Identities (a username, an email) may also
 * be the expected value of an assertion: the dashboard shows who logged in.
 */
import { ts } from '../../util/typescript.js';
import { valueSite } from '../../analysis/syntax.ts';
import type { SpecModel } from '../../analysis/model.ts';
import { isValueReference } from './ast.ts';
import { MAX_DEPTH } from '../../analysis/depth.ts';
import { TEXT_INPUTS } from '../../analysis/playwright-api.ts';

/** Keys of HTTP credentials (`httpCredentials: { username, password }`, `setHTTPCredentials({...})`). */
const HTTP_CREDENTIAL_KEYS = new Set(['username', 'password']);
/** A credential role that names who logs in rather than a secret. */
const IDENTITY_ROLE = /user|name|email|login/i;

export interface CredentialLeak {
  node: ts.Node;
  variable: string;
  reason: string;
}

export interface FlowContext {
  model: SpecModel;
  /** Declared credentials: role → environment variable. */
  credentials: Readonly<Record<string, string>>;
  /** The function of this file a call runs (helpers, page-object methods, fixtures' objects), if any. */
  calledFunction(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined;
  /** Whether `receiver.name` is a member the spec defines itself (a fake `fill` that could do anything). */
  isOwnMember(receiver: ts.Expression, name: string): boolean;
}

type Carrier = { kind: 'value' } | { kind: 'object'; key: string };

export function credentialLeaks(context: FlowContext): CredentialLeak[] {
  return new Flow(context).leaks();
}

class Flow {
  private readonly found: CredentialLeak[] = [];
  private readonly seen = new Set<ts.Node>();
  private readonly byVariable: ReadonlyMap<string, string>;

  constructor(private readonly context: FlowContext) {
    this.byVariable = new Map(Object.entries(context.credentials).map(([role, variable]) => [variable, role]));
  }

  leaks(): CredentialLeak[] {
    const { model } = this.context;
    for (const access of [...model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression), ...model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression)]) {
      const variable = this.credentialRead(access);
      if (variable) this.use(access, variable, 0);
    }
    // `const { E2E_PASSWORD: password } = process.env`
    for (const element of model.nodes<ts.BindingElement>(ts.SyntaxKind.BindingElement)) {
      const declaration = element.parent.parent;
      if (!ts.isObjectBindingPattern(element.parent) || !ts.isVariableDeclaration(declaration) || !declaration.initializer || !this.isProcessEnv(declaration.initializer)) continue;
      const key = element.propertyName ?? element.name;
      const variable = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
      if (variable && this.byVariable.has(variable)) this.carrier(element, variable, { kind: 'value' }, 0);
    }
    return this.found;
  }

  private credentialRead(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): string | undefined {
    const name = this.context.model.memberName(access);
    return name !== undefined && this.byVariable.has(name) && this.isProcessEnv(access.expression) ? name : undefined;
  }

  private isProcessEnv(expr: ts.Expression): boolean {
    const { model } = this.context;
    const e = model.unwrap(expr);
    if (!(ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) || model.memberName(e) !== 'env') return false;
    const root = model.unwrap(e.expression);
    return ts.isIdentifier(root) && root.text === 'process' && !model.declarationOf(root);
  }

  private identity(variable: string): boolean {
    return IDENTITY_ROLE.test(this.byVariable.get(variable) ?? '');
  }

  private leak(node: ts.Node, variable: string, reason: string): void {
    this.found.push({ node, variable, reason });
  }

  /** Follows the credential's value from `expr` to where it is used. */
  private use(expr: ts.Expression, variable: string, depth: number): void {
    if (depth > MAX_DEPTH) return this.leak(expr, variable, 'it passes through more steps than the check follows');
    const { model } = this.context;
    let node: ts.Expression = expr;
    let parent = node.parent;
    // The value itself goes on through parentheses, casts, `!`, `??`, `||`, `&&` and the branches of a ?: .
    for (;;) {
      if (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isTypeAssertionExpression(parent)) {
        node = parent;
      } else if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(parent.operatorToken.kind)) {
        node = parent;
      } else if (ts.isConditionalExpression(parent) && parent.condition !== node) {
        node = parent;
      } else break;
      parent = node.parent;
    }
    // Tests of it reveal nothing of its text: `!password`, `typeof`, a condition, a comparison.
    if (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.ExclamationToken) return;
    if (ts.isTypeOfExpression(parent) || (ts.isConditionalExpression(parent) && parent.condition === node)) return;
    if ((ts.isIfStatement(parent) || ts.isWhileStatement(parent)) && parent.expression === node) return;
    if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(parent.operatorToken.kind)) return;
    if (ts.isCallExpression(parent) && parent.arguments.includes(node)) return this.argument(parent, parent.arguments.indexOf(node), variable, depth);
    if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
      if (ts.isIdentifier(parent.name)) return this.carrier(parent, variable, { kind: 'value' }, depth + 1);
      return this.leak(node, variable, 'it is destructured, which reads it piece by piece');
    }
    if ((ts.isPropertyAssignment(parent) && parent.initializer === node) || ts.isShorthandPropertyAssignment(parent)) {
      return this.property(parent, variable, depth);
    }
    if (ts.isTemplateSpan(parent) || (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken)) {
      return this.leak(node, variable, 'it is joined into a longer string (a URL, a message), where redaction no longer sees it');
    }
    if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node) {
      return this.leak(parent, variable, `\`.${model.memberName(parent) ?? '[…]'}\` reads or transforms it (length, characters, a reversal, an encoding)`);
    }
    this.leak(node, variable, `it is used in \`${shorten(model.text(parent))}\``);
  }

  /** The credential as the `index`th argument of a call. */
  private argument(call: ts.CallExpression, index: number, variable: string, depth: number): void {
    const { model } = this.context;
    const callee = model.unwrap(call.expression);
    const name = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? model.memberName(callee) : undefined;
    const receiver = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? callee.expression : undefined;
    const local = this.context.calledFunction(call);
    if (local) {
      const parameter = local.parameters[index];
      if (parameter && !parameter.dotDotDotToken && ts.isIdentifier(parameter.name)) return this.carrier(parameter, variable, { kind: 'value' }, depth + 1);
      return this.leak(call.arguments[index]!, variable, 'the helper it is passed to does not take it as a named parameter');
    }
    if (name !== undefined && receiver && TEXT_INPUTS.has(name) && index === 0 && !this.context.isOwnMember(receiver, name)) return;
    if (index === 0 && receiver && this.identity(variable) && this.isMatcherCall(call)) return;
    if (ts.isIdentifier(callee) && this.isProjectImport(callee)) return;
    if (receiver && this.isProjectImportChain(receiver)) return;
    this.leak(call.arguments[index]!, variable, `it is passed to \`${shorten(model.text(call.expression))}()\``);
  }

  /** `expect(locator).toHaveText(username)`: the expected value of a matcher, not its message. */
  private isMatcherCall(call: ts.CallExpression): boolean {
    const { model } = this.context;
    return model.expectation(call) !== undefined;
  }

  private isProjectImport(id: ts.Identifier): boolean {
    const binding = this.context.model.moduleBinding(id);
    return binding !== undefined && (binding.module.startsWith('./') || binding.module.startsWith('../'));
  }

  private isProjectImportChain(expr: ts.Expression): boolean {
    const module = this.context.model.chainModule(expr);
    return module !== undefined && (module.startsWith('./') || module.startsWith('../'));
  }

  /** `{ password: … }`: HTTP credentials, or an object of the spec's own whose key is then followed. */
  private property(property: ts.PropertyAssignment | ts.ShorthandPropertyAssignment, variable: string, depth: number): void {
    const { model } = this.context;
    const key = model.propertyName(property);
    const object = property.parent;
    const holder = valueSite(object);
    const owner = holder.parent;
    if (key !== undefined && HTTP_CREDENTIAL_KEYS.has(key)) {
      if (ts.isPropertyAssignment(owner) && model.propertyName(owner) === 'httpCredentials') return;
      if (ts.isCallExpression(owner) && model.callee(owner).name === 'setHTTPCredentials') return;
    }
    if (key === undefined) return this.leak(property, variable, 'it is stored under a key computed at run time');
    if (ts.isVariableDeclaration(owner) && owner.initializer === holder && ts.isIdentifier(owner.name)) return this.carrier(owner, variable, { kind: 'object', key }, depth + 1);
    if (ts.isCallExpression(owner) && owner.arguments.includes(holder as ts.Expression)) {
      const local = this.context.calledFunction(owner);
      const parameter = local?.parameters[owner.arguments.indexOf(holder as ts.Expression)];
      if (parameter) return this.objectParameter(parameter, variable, key, depth + 1);
      const callee = model.unwrap(owner.expression);
      if (ts.isIdentifier(callee) && this.isProjectImport(callee)) return;
    }
    this.leak(property, variable, `it is stored in an object that goes to \`${shorten(model.text(owner))}\``);
  }

  private objectParameter(parameter: ts.ParameterDeclaration, variable: string, key: string, depth: number): void {
    if (ts.isIdentifier(parameter.name)) return this.carrier(parameter, variable, { kind: 'object', key }, depth);
    if (ts.isObjectBindingPattern(parameter.name)) {
      const element = parameter.name.elements.find((e) => this.context.model.text(e.propertyName ?? e.name) === key);
      if (element && ts.isIdentifier(element.name)) this.carrier(element, variable, { kind: 'value' }, depth);
      else if (parameter.name.elements.some((e) => e.dotDotDotToken)) this.leak(parameter, variable, 'a rest element gathers it with other values');
      return;
    }
    this.leak(parameter, variable, 'the helper it is passed to destructures it in a way the check does not follow');
  }

  /** Every use of a variable, parameter or binding that holds the credential (or an object holding it under `key`). */
  private carrier(declaration: ts.VariableDeclaration | ts.ParameterDeclaration | ts.BindingElement, variable: string, carrier: Carrier, depth: number): void {
    if (this.seen.has(declaration)) return;
    this.seen.add(declaration);
    if (depth > MAX_DEPTH) return this.leak(declaration, variable, 'it passes through more steps than the check follows');
    const { model } = this.context;
    for (const reference of model.referencesTo(declaration)) {
      if (!isValueReference(reference) || reference === declaration.name) continue;
      if (carrier.kind === 'value') {
        this.use(reference, variable, depth);
        continue;
      }
      const parent = reference.parent;
      if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === reference) {
        if (model.memberName(parent) === carrier.key) this.use(parent, variable, depth);
        continue;
      }
      if (ts.isVariableDeclaration(parent) && parent.initializer === reference && ts.isObjectBindingPattern(parent.name)) {
        const element = parent.name.elements.find((e) => model.text(e.propertyName ?? e.name) === carrier.key);
        if (element && ts.isIdentifier(element.name)) this.carrier(element, variable, { kind: 'value' }, depth + 1);
        else if (parent.name.elements.some((e) => e.dotDotDotToken)) this.leak(parent, variable, 'a rest element gathers it with other values');
        continue;
      }
      if (ts.isCallExpression(parent) && parent.arguments.includes(reference)) {
        const parameter = this.context.calledFunction(parent)?.parameters[parent.arguments.indexOf(reference)];
        if (parameter) {
          this.objectParameter(parameter, variable, carrier.key, depth + 1);
          continue;
        }
      }
      this.leak(reference, variable, `the object holding it goes whole into \`${shorten(model.text(parent))}\``);
    }
  }
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}
