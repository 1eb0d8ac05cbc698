/**
 * The gate's own-objects policy: members the spec declares itself (its classes, constant objects) and the
 * project's objects (imported from its modules, its fixtures module's fixtures), which a spec may use.
 */
import { MemoKey, type SpecModel } from '../../analysis/model.ts';
import { PLAYWRIGHT_BUILTIN_FIXTURES } from '../../analysis/playwright-api.ts';
import { constValue, enclosingClass, isAssignmentTarget, valueSite } from '../../analysis/syntax.ts';
import { ts } from '../../util/typescript.js';
import { extendedFixtureValue } from '../../analysis/value-origins.ts';
import { importsTest, ModulePolicy } from './modules.ts';
import { INHERITED, isRelative } from './policy.ts';
import { MAX_DEPTH } from '../../analysis/depth.ts';

export class OwnObjectPolicy extends ModulePolicy {
  /**
   * An object of the project's own test code (the user's, not the model's): a binding imported from one of its
   * modules, a constant instance of a class imported so, or a fixture of its fixtures module as a test or hook
   * of that module's `test` receives it. Its members are the project's API; what they return is checked again.
   */
  protected projectObject(receiver: ts.Expression, depth = 0): boolean {
    if (!this.options.relative_imports || depth > MAX_DEPTH) return false;
    let e = this.model.unwrap(receiver);
    if (ts.isAwaitExpression(e)) e = this.model.unwrap(e.expression);
    if (ts.isNewExpression(e)) return this.projectObject(e.expression, depth + 1);
    if (!ts.isIdentifier(e)) return false;
    const module = this.model.moduleBinding(e)?.module;
    if (module !== undefined) return isRelative(module);
    const declaration = this.model.declarationOf(e);
    if (declaration && ts.isBindingElement(declaration)) return this.projectFixture(declaration);
    const value = declaration && constValue(declaration);
    return value !== undefined && this.projectObject(value, depth + 1);
  }

  /** `{ searchPage }` in `test('…', async ({ searchPage }) => …)` (or a hook), `test` imported from the project's module, the fixture not Playwright's. */
  private projectFixture(binding: ts.BindingElement): boolean {
    const name = binding.propertyName ?? binding.name;
    if (!ts.isIdentifier(name) || this.options.fixtures.includes(name.text) || PLAYWRIGHT_BUILTIN_FIXTURES.has(name.text) || name.text.startsWith('_')) return false;
    const parameter = binding.parent.parent;
    if (!ts.isParameter(parameter) || !ts.isFunctionLike(parameter.parent) || parameter.parent.parameters[0] !== parameter) return false;
    const call = parameter.parent.parent;
    if (!ts.isCallExpression(call) || !call.arguments.some((argument) => argument === parameter.parent)) return false;
    let callee = this.model.unwrap(call.expression);
    // test(…) and its hooks and modifiers pass fixtures; test.step passes its step, whatever is destructured.
    if (ts.isPropertyAccessExpression(callee) && FIXTURE_CALLS.has(callee.name.text)) callee = this.model.unwrap(callee.expression);
    const imported = ts.isIdentifier(callee) ? this.model.moduleBinding(callee) : undefined;
    return imported !== undefined && imported.imported === 'test' && isRelative(imported.module);
  }

  /** A member the spec declares itself: of `this` in its class, a constant instance of its class, or its constant object literal. */
  protected ownMember(receiver: ts.Expression, name: string): boolean {
    if (name === '__proto__') return false;
    const cls = this.localClass(receiver);
    if (cls) return classDeclares(cls, name, this.model);
    const object = this.constObject(receiver);
    return object !== undefined && object.properties.some((p) => !ts.isSpreadAssignment(p) && this.model.propertyName(p) === name);
  }

  /** The class of `this`, of `new C()`, or of a constant holding one; a variable that may be reassigned could hold anything. */
  private localClass(receiver: ts.Expression, depth = 0): ts.ClassLikeDeclaration | undefined {
    if (depth > MAX_DEPTH) return undefined;
    let e = this.model.unwrap(receiver);
    if (ts.isAwaitExpression(e)) e = this.model.unwrap(e.expression);
    if (e.kind === ts.SyntaxKind.ThisKeyword) return enclosingClass(e);
    if (ts.isNewExpression(e)) return this.localClass(e.expression, depth + 1);
    if (ts.isClassExpression(e)) return e;
    if (!ts.isIdentifier(e)) return undefined;
    const declaration = this.model.declarationOf(e);
    if (declaration && ts.isClassDeclaration(declaration)) return declaration;
    if (declaration && ts.isBindingElement(declaration)) {
      const given = extendedFixtureValue(this.model, declaration);
      return given ? this.localClass(given, depth + 1) : undefined;
    }
    const value = declaration && constValue(declaration);
    return value ? this.localClass(value, depth + 1) : undefined;
  }

  /** The object literal a constant (or a property of a constant object) holds. */
  protected constObject(receiver: ts.Expression, depth = 0): ts.ObjectLiteralExpression | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.model.unwrap(receiver);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (ts.isIdentifier(e)) {
      const declaration = this.model.declarationOf(e);
      const value = declaration && constValue(declaration);
      return value ? this.constObject(value, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.model.memberName(e);
      const owner = this.constObject(e.expression, depth + 1);
      const property = owner?.properties.find((p) => this.model.propertyName(p) === name);
      return property && ts.isPropertyAssignment(property) ? this.constObject(property.initializer, depth + 1) : undefined;
    }
    return undefined;
  }

  /** Writing `x.name = …` is fine on the spec's own objects only, never on Playwright's or a global. */
  protected mayAssign(receiver: ts.Expression, name: string): boolean {
    if (name === '__proto__' || INHERITED.has(name)) return false;
    if (receiver.kind === ts.SyntaxKind.ThisKeyword) return enclosingClass(receiver) !== undefined;
    return this.constObject(receiver) !== undefined;
  }

  /** A fixture on the list, one the spec defines with test.extend, or one of the project's fixtures module (not a Playwright built-in). */
  protected fixtureAllowed(name: string): boolean {
    if (this.fixtures.has(name)) return true;
    if (PLAYWRIGHT_BUILTIN_FIXTURES.has(name) || name.startsWith('_')) return false;
    return this.model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration).some(
      (d) => ts.isStringLiteralLike(d.moduleSpecifier) && isRelative(d.moduleSpecifier.text) && importsTest(d),
    );
  }

  /** The function of this file a call runs: a helper, a method of the spec's class (also through its own fixtures). */
  protected calledFunction(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
    const local = this.model.localFunction(call);
    if (local) return local;
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return undefined;
    const name = this.model.memberName(callee);
    for (let cls = this.localClass(callee.expression), depth = 0; cls && name !== undefined && depth < 8; depth++) {
      const method = cls.members.find((m) => (ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) && m.name && this.model.text(m.name) === name);
      if (method && ts.isMethodDeclaration(method)) return method;
      if (method && ts.isPropertyDeclaration(method) && method.initializer) {
        const value = this.model.unwrap(method.initializer);
        return ts.isArrowFunction(value) || ts.isFunctionExpression(value) ? value : undefined;
      }
      const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
      cls = base ? this.localClass(base) : undefined;
    }
    return undefined;
  }

  /** A method of the spec's own class read without calling it (`page.on('load', helper.run)`). */
  protected isDetachedMethod(access: ts.PropertyAccessExpression | ts.ElementAccessExpression, receiver: ts.Expression, name: string): boolean {
    const node = valueSite(access);
    if ((ts.isCallExpression(node.parent) || ts.isTaggedTemplateExpression(node.parent)) && (node.parent as ts.CallExpression).expression === node) return false;
    const cls = this.localClass(receiver);
    return cls !== undefined && classMethodUsesThis(cls, name);
  }
}

/** The members of `test` whose callback receives the fixtures. */
const FIXTURE_CALLS = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'only', 'fixme', 'fail', 'slow']);

/** Per class, the member names asked about so far and whether it declares each. */
const CLASS_DECLARES = new MemoKey<Map<string, boolean>>('the members a class declares');

/** Members a class of the spec declares (also `this.x = …` in its methods and parameter properties), or one it extends. */
function classDeclares(cls: ts.ClassLikeDeclaration, name: string, model: SpecModel, depth = 0): boolean {
  if (depth > 8) return false;
  const answers = model.memo(CLASS_DECLARES, cls, () => new Map<string, boolean>());
  if (!answers.has(name)) answers.set(name, computeClassDeclares(cls, name, model, depth));
  return answers.get(name)!;
}

function computeClassDeclares(cls: ts.ClassLikeDeclaration, name: string, model: SpecModel, depth: number): boolean {
  for (const member of cls.members) {
    const memberName = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteralLike(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;
    if (memberName === name) return true;
    if (ts.isConstructorDeclaration(member) && member.parameters.some((p) => ts.getModifiers(p)?.length && ts.isIdentifier(p.name) && p.name.text === name)) return true;
  }
  const assigned = model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression).some(
    (a) => a.name.text === name && a.expression.kind === ts.SyntaxKind.ThisKeyword && enclosingClass(a) === cls && isAssignmentTarget(a),
  );
  if (assigned) return true;
  const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  if (!base || !ts.isIdentifier(base)) return false;
  const declaration = model.declarationOf(base);
  return declaration !== undefined && ts.isClassDeclaration(declaration) && classDeclares(declaration, name, model, depth + 1);
}

/** Whether a class (or one it extends) has a method of this name whose body mentions `this` (a getter's read calls it on its object: nothing is handed on). */
function classMethodUsesThis(cls: ts.ClassLikeDeclaration, name: string): boolean {
  const usesThis = (node: ts.Node): boolean => node.kind === ts.SyntaxKind.ThisKeyword || (!ts.isFunctionDeclaration(node) && !ts.isFunctionExpression(node) && !ts.isClassLike(node) && ts.forEachChild(node, usesThis) === true);
  return cls.members.some((member) => {
    const memberName = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteralLike(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;
    return memberName === name && ts.isMethodDeclaration(member) && member.body !== undefined && ts.forEachChild(member.body, usesThis) === true;
  });
}

