/**
 * The code of this file a call runs: the local function or method it reaches, and every call made when a
 * function runs, with the calls of the local functions it calls spliced in.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { MemoKey } from './parsed-spec.ts';
import { classMemberType, classMemberValue, enclosingClass, isDeclaredFunction, isFunctionLike, memberNameText } from './syntax.ts';
import { TestApiModel } from './test-api.ts';
import type { ValueModel } from './values.ts';

const LOCAL_FUNCTION = new MemoKey<ts.FunctionLikeDeclaration | undefined>('the local function a call runs');
const CALLS_WRITTEN_IN = new MemoKey<readonly ts.CallExpression[]>('the calls written in a function body');

const MAX_REACHABLE_CALLS = 10_000;

export class LocalFunctionModel extends TestApiModel {
  private readonly reachable = new Map<ts.Node, ts.CallExpression[]>();

  private localFunctionNames: Set<string> | undefined;

  private fixtureFunctions: Map<string, ts.FunctionLikeDeclaration> | undefined;

  /**
   * The function of this file that a call runs: a function declaration or a variable holding one, a
   * method of a class of this file (`new LoginPage(page).open()`, `loginPage.open()`, `this.open()`, a
   * static or inherited method) or of an object literal. Undefined for imported and built-in code.
   */
  localFunction(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
    return this.memo(LOCAL_FUNCTION, call, () => this.mayCallLocalFunction(call.expression) ? this.functionValue(call.expression, 0) : undefined);
  }

  /**
   * Every call made when `root` runs, in source order, with the calls of the local functions it calls
   * (or passes as callbacks) spliced in at each call site, so a helper called twice counts twice.
   * Functions declared inside `root` count where they are called, not where they are written; recursion
   * is cut off.
   */
  reachableCalls(root: ts.Node): readonly ts.CallExpression[] {
    let calls = this.reachable.get(root);
    if (!calls) {
      calls = [];
      this.collectReachable(root, [root], calls);
      this.reachable.set(root, calls);
    }
    return calls;
  }

  private collectReachable(root: ts.Node, stack: readonly ts.Node[], out: ts.CallExpression[]): void {
    for (const call of this.callsWrittenIn(root)) {
      if (out.length >= MAX_REACHABLE_CALLS) return;
      out.push(call);
      const callbacks = call.arguments
        .filter((a) => (ts.isIdentifier(a) || ts.isPropertyAccessExpression(a)) && this.mayCallLocalFunction(a))
        .map((a) => this.functionValue(a, 0));
      for (const target of [this.localFunction(call), ...callbacks]) {
        if (target?.body && !stack.includes(target) && stack.length <= MAX_DEPTH) this.collectReachable(target.body, [...stack, target], out);
      }
    }
  }

  /** The calls written inside `root`, in source order, leaving out those in functions declared there (they run where called). */
  private callsWrittenIn(root: ts.Node): readonly ts.CallExpression[] {
    return this.memo(CALLS_WRITTEN_IN, root, () => {
      // `calls` is in source order, so the ones inside `root` are a contiguous run found by bisection.
      const all = this.calls;
      let low = 0;
      let high = all.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (all[middle]!.pos < root.pos) low = middle + 1;
        else high = middle;
      }
      const calls: ts.CallExpression[] = [];
      for (let i = low; i < all.length && all[i]!.pos < root.end; i++) {
        const call = all[i]!;
        if (call.end > root.end) continue;
        let inDeclaredFunction = false;
        for (let n: ts.Node = call; n !== root && !inDeclaredFunction; n = n.parent) inDeclaredFunction = isDeclaredFunction(n);
        if (!inDeclaredFunction) calls.push(call);
      }
      return calls;
    });
  }

  /** A cheap first look: the called name is one the file declares a function, method or alias under. */
  private mayCallLocalFunction(callee: ts.Expression): boolean {
    this.localFunctionNames ??= collectFunctionNames(this);
    const e = this.unwrap(callee);
    const name = ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? this.memberName(e) : undefined;
    return name === undefined || this.localFunctionNames.has(name) || isFunctionLike(e);
  }

  private functionValue(expr: ts.Expression, depth: number): ts.FunctionLikeDeclaration | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.resolve(expr);
    if (isFunctionLike(e)) return e;
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      return declaration && ts.isFunctionDeclaration(declaration) ? declaration : undefined;
    }
    if (!ts.isPropertyAccessExpression(e) && !ts.isElementAccessExpression(e)) return undefined;
    const name = this.memberName(e);
    if (name === undefined) return undefined;
    const cls = this.classOf(e.expression, depth + 1);
    if (cls) return this.classMethod(cls, name, depth + 1);
    const object = this.objectLiteral(e.expression);
    const member = object?.properties.find((p) => this.propertyName(p) === name);
    if (member && ts.isMethodDeclaration(member)) return member;
    if (member && ts.isPropertyAssignment(member)) return this.functionValue(member.initializer, depth + 1);
    return undefined;
  }

  /** The class an expression is an instance of (or, for a class name, the class itself). */
  private classOf(expr: ts.Expression, depth: number): ts.ClassLikeDeclaration | undefined {
    if (depth > MAX_DEPTH) return undefined;
    let e = this.unwrap(expr);
    if (ts.isAwaitExpression(e)) e = this.unwrap(e.expression);
    if (e.kind === ts.SyntaxKind.ThisKeyword) return enclosingClass(e);
    if (ts.isClassExpression(e)) return e;
    if (ts.isNewExpression(e)) return this.classOf(e.expression, depth + 1);
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      if (!declaration) return undefined;
      if (ts.isClassDeclaration(declaration)) return declaration;
      if (ts.isBindingElement(declaration)) return this.fixtureClass(declaration, depth + 1);
      if (ts.isVariableDeclaration(declaration) || ts.isParameter(declaration)) {
        if (declaration.initializer) return this.classOf(declaration.initializer, depth + 1);
        return declaration.type ? this.classNamed(declaration.type) : undefined;
      }
      return undefined;
    }
    if (ts.isPropertyAccessExpression(e) && this.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword) {
      const cls = enclosingClass(e);
      if (!cls) return undefined;
      const value = classMemberValue(cls, e.name.text, this.sourceFile);
      if (value) return this.classOf(value, depth + 1);
      const type = classMemberType(cls, e.name.text, this.sourceFile);
      return type ? this.classNamed(type) : undefined;
    }
    return undefined;
  }

  /**
   * The class of a fixture a test destructures (`async ({ searchPage }) => …`) that the file's `test.extend`
   * defines: by its declared type (`extend<{ searchPage: SearchPage }>`) or what its function hands to `use`.
   */
  private fixtureClass(binding: ts.BindingElement, depth: number): ts.ClassLikeDeclaration | undefined {
    const key = binding.propertyName ?? binding.name;
    if (!ts.isIdentifier(key) || depth > MAX_DEPTH) return undefined;
    for (const call of this.extendCalls()) {
      const declared = call.typeArguments?.[0];
      const member = declared && ts.isTypeLiteralNode(declared) ? declared.members.find((m) => ts.isPropertySignature(m) && m.name.getText(this.sourceFile) === key.text) : undefined;
      const type = member && ts.isPropertySignature(member) ? member.type : undefined;
      const byType = type ? this.classNamed(type) : undefined;
      if (byType) return byType;
    }
    const fixture = this.fixtureFunction(key.text);
    const handed = fixture && this.handOver(fixture)?.arguments[0];
    return handed ? this.classOf(handed, depth + 1) : undefined;
  }

  /** The fixture function the file's `test.extend({...})` defines under a name (the last one, which overrides). */
  fixtureFunction(name: string): ts.FunctionLikeDeclaration | undefined {
    this.fixtureFunctions ??= new Map(
      this.extendCalls().flatMap((call) => {
        const fixtures = call.arguments[0] && this.objectLiteral(call.arguments[0]);
        return (fixtures?.properties ?? []).flatMap((property): Array<[string, ts.FunctionLikeDeclaration]> => {
          const key = this.propertyName(property);
          const value = ts.isPropertyAssignment(property) ? this.unwrap(property.initializer) : property;
          return key !== undefined && (isFunctionLike(value) || ts.isMethodDeclaration(value)) ? [[key, value]] : [];
        });
      }),
    );
    return this.fixtureFunctions.get(name);
  }

  /** The call that hands a fixture's value over to the test (`await use(value)`): what comes before it is the fixture's setup. */
  handOver(fixture: ts.FunctionLikeDeclaration): ts.CallExpression | undefined {
    const use = fixture.parameters[1]?.name;
    if (!use || !ts.isIdentifier(use) || !fixture.body) return undefined;
    return this.reachableCalls(fixture.body).find((call) => ts.isIdentifier(call.expression) && call.expression.text === use.text);
  }

  private extendCalls(): ts.CallExpression[] {
    return this.calls.filter((call) => this.playwrightPath(call.expression) === 'test.extend');
  }

  private classNamed(type: ts.TypeNode): ts.ClassDeclaration | undefined {
    if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return undefined;
    const name = type.typeName.text;
    return this.nodes<ts.ClassDeclaration>(ts.SyntaxKind.ClassDeclaration).find((c) => c.name?.text === name);
  }

  /** A method (or a property holding a function) of a class or the classes it extends. */
  private classMethod(cls: ts.ClassLikeDeclaration, name: string, depth: number): ts.FunctionLikeDeclaration | undefined {
    if (depth > MAX_DEPTH) return undefined;
    for (const member of cls.members) {
      if (memberNameText(member, this.sourceFile) !== name) continue;
      if (ts.isMethodDeclaration(member) && member.body) return member;
      if (ts.isPropertyDeclaration(member) && member.initializer) return this.functionValue(member.initializer, depth + 1);
    }
    const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    const baseClass = base ? this.classOf(base, depth + 1) : undefined;
    return baseClass && baseClass !== cls ? this.classMethod(baseClass, name, depth + 1) : undefined;
  }
}

/** Names under which the file declares something callable: functions, methods, variables and properties holding a function or an alias. */
function collectFunctionNames(model: ValueModel): Set<string> {
  const names = new Set<string>();
  const add = (name: ts.Node | undefined) => {
    if (name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name))) names.add(name.text);
  };
  const holdsFunction = (value: ts.Expression | undefined) => {
    const e = value && model.unwrap(value);
    return e !== undefined && (isFunctionLike(e) || ts.isIdentifier(e) || ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isCallExpression(e));
  };
  for (const d of model.nodes<ts.FunctionDeclaration>(ts.SyntaxKind.FunctionDeclaration)) add(d.name);
  for (const m of model.nodes<ts.MethodDeclaration>(ts.SyntaxKind.MethodDeclaration)) add(m.name);
  for (const v of model.nodes<ts.VariableDeclaration>(ts.SyntaxKind.VariableDeclaration)) if (holdsFunction(v.initializer)) add(v.name);
  for (const p of model.nodes<ts.PropertyAssignment>(ts.SyntaxKind.PropertyAssignment)) if (holdsFunction(p.initializer)) add(p.name);
  for (const p of model.nodes<ts.PropertyDeclaration>(ts.SyntaxKind.PropertyDeclaration)) if (holdsFunction(p.initializer)) add(p.name);
  return names;
}
