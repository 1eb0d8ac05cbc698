/**
 * The allow-list gate for model-written code: every identifier a spec reads and every member it reaches
 * must be on a list in agents/critic.yaml (or be the spec's own code or data). Anything else — another
 * global, a computed key, `constructor`, a private Playwright member, code run at load time — is refused,
 * because JavaScript has too many ways to reach the same dangerous function for a list of bad names.
 */
import { ts } from '../util/typescript.js';
import { parseDirectives } from '../analysis/suppressions.ts';
import { isDeclaringName } from '../analysis/syntax.ts';
import { defineRule, type Finding } from './types.ts';
import { credentialLeaks } from './utils/credential-flow.ts';
import { hasStatic } from './gate/globals.ts';
import { PlaywrightMemberPolicy } from './gate/playwright-members.ts';
import { AllowedCodeOptions } from './gate/options.ts';
import { shorten } from './gate/policy.ts';

export default defineRule({
  id: 'allowed-code',
  description: 'Model-written code may use only listed imports, globals, fixtures, members and environment variables; nothing runs outside tests and hooks.',
  fixable: false,
  untrustedOnly: true,
  options: AllowedCodeOptions,
  check(model, options, env) {
    return new Gate(model, options, env).findings();
  },
});

/** The gate over one spec: each policy of src/rules/gate/ it extends, and the walk of the file that applies them. */
class Gate extends PlaywrightMemberPolicy {
  findings(): Finding[] {
    // The rules judge model-written code; it does not get to switch them off.
    for (const directive of parseDirectives(this.model.sourceFile)) {
      this.found.push({ node: directive.pos, message: `A "${directive.keyword}" comment is not allowed in generated code: fix the problem instead of suppressing it.` });
    }
    this.imports();
    this.structure(this.model.sourceFile.statements, 'at the top level of the file');
    this.visit(this.model.sourceFile);
    this.testUse();
    this.credentials();
    // One finding per chain, its root: `process.getBuiltinModule('x').execSync` is one problem (`process`), not three.
    return this.found.filter((outer) => {
      const node = outer.node;
      if (typeof node === 'number' || !(ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node))) return true;
      const receiver = node.expression;
      return !this.found.some((inner) => inner !== outer && typeof inner.node !== 'number' && inner.node.pos >= receiver.pos && inner.node.end <= receiver.end);
    });
  }

  private visit(node: ts.Node): void {
    if (isTypeOnly(node)) return;
    if (ts.isWithStatement(node)) this.report(node, '`with` changes what names mean at run time, so the code cannot be checked; write the names out.');
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) this.report(node, '`import.meta` exposes where the file lives on the host; generated code does not need it.');
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) this.report(node, '`import()` loads a module at run time; generated code may only import @playwright/test (statically, at the top).');
    else if (node.kind === ts.SyntaxKind.ThisKeyword && !inClassMember(node)) this.report(node, '`this` outside a class method is not the spec\'s own object; use the fixtures and local variables instead.');
    else if (ts.isIdentifier(node) && (node.text === 'expect' || node.text === 'test') && isDeclaringName(node)) this.playwrightName(node);
    else if (ts.isIdentifier(node)) this.identifier(node);
    else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) this.member(node);
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) this.binding(node);
    else if (ts.isPropertyAssignment(node) && this.model.propertyName(node) === '__proto__' && !ts.isComputedPropertyName(node.name)) {
      this.report(node, 'A `__proto__` key sets an object\'s prototype; write a plain object.');
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isObjectLiteralExpression(node.left)) this.assignmentPattern(node.left, node.right);
    else if (ts.isForOfStatement(node) && ts.isObjectLiteralExpression(node.initializer)) this.assignmentPattern(node.initializer, undefined);
    else if (ts.isDecorator(node) || ts.isClassStaticBlockDeclaration(node)) this.report(node, 'Decorators and static blocks run when the file is loaded, outside any test; write plain classes.');
    else if (ts.isPropertyDeclaration(node) && node.initializer && hasStatic(node) && !this.isLoadTimeValue(node.initializer)) {
      this.report(node.initializer, 'A static property is computed when the file is loaded, outside any test; compute it inside a test or write plain data.');
    } else if (ts.isComputedPropertyName(node) && ts.isClassLike(node.parent.parent) && !isLiteralKey(this.model.unwrap(node.expression))) {
      this.report(node, 'A computed class member name is evaluated when the class is defined, at load time; name the member literally.');
    } else if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent)) this.heritage(node);
    else if (ts.isTaggedTemplateExpression(node) && !this.isStringRaw(node.tag)) {
      this.report(node, `A tagged template calls \`${shorten(this.model.text(node.tag))}\` with its text in pieces, which the checks of calls do not see; call it with parentheses instead.`);
    } else if (ts.isCallExpression(node)) this.call(node);
    if (ts.isCallExpression(node) && this.isPageFunctionCall(node)) {
      // The function is serialised and runs in the browser page, where Node's globals do not exist; the other arguments run here.
      ts.forEachChild(node, (child) => {
        if (!(node.arguments.includes(child as ts.Expression) && (ts.isArrowFunction(child) || ts.isFunctionExpression(child)))) this.visit(child);
      });
      return;
    }
    ts.forEachChild(node, (child) => this.visit(child));
  }

  private call(call: ts.CallExpression): void {
    this.reflectiveCall(call);
    const path = this.model.playwrightPath(call.expression);
    if (path === 'expect.extend') this.matchers(call);
    const callee = this.model.unwrap(call.expression);
    const name = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? this.model.memberName(callee) : undefined;
    if (name !== undefined && this.options.context_methods.includes(name) && call.arguments[0]) this.contextOptions(call.arguments[0], name);
  }

  private credentials(): void {
    const credentials = this.environment.credentials ?? {};
    const leaks = credentialLeaks({
      model: this.model,
      credentials,
      calledFunction: (call) => this.calledFunction(call),
      isOwnMember: (receiver, name) => this.ownMember(receiver, name),
    });
    for (const leak of leaks) {
      this.report(leak.node, `The credential ${leak.variable} may go only into a locator's fill(), type() or pressSequentially(), or httpCredentials (an identity such as the username also into an assertion's expected value); here ${leak.reason}, so its value could reach a model or another host. Pass process.env.${leak.variable} straight to locator.fill(), or to a helper or page object that does.`);
    }
  }
}

/** Types, interfaces and `implements` clauses run nothing. */
function isTypeOnly(node: ts.Node): boolean {
  if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return true;
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return true;
  return ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword;
}

function inClassMember(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isSourceFile(n)) return false;
    if (ts.isClassLike(n.parent) && (ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isAccessor(n) || ts.isPropertyDeclaration(n) || ts.isClassStaticBlockDeclaration(n))) return true;
  }
  return false;
}

function isLiteralKey(e: ts.Expression): boolean {
  return ts.isStringLiteralLike(e) || ts.isNumericLiteral(e);
}
