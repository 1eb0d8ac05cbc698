/** Which Playwright object a value holds (a Page, a Locator, a frame, ...), from how it was made or declared. */
import { ts } from '../util/typescript.js';
import { fixtureKind, kindFromTypeName, kindOfCall, type ValueKind } from './playwright-api.ts';
import { MemoKey } from './parsed-spec.ts';
import { enclosingClass, findThisAssignment, returnStatements } from './syntax.ts';
import { ValueModel } from './values.ts';

const CLASSES_IN_FILE = new MemoKey<readonly ts.ClassLikeDeclaration[]>('the classes declared in the file');

export class KindModel extends ValueModel {
  private readonly kinds = new Map<ts.Node, ValueKind>();

  /** Which Playwright object an expression holds (a promise of one counts as the object). */
  kindOf(expr: ts.Expression): ValueKind {
    const cached = this.kinds.get(expr);
    if (cached) return cached;
    this.kinds.set(expr, 'unknown'); // guards against cycles such as `let a = b; let b = a`
    const kind = this.computeKind(this.unwrap(expr));
    this.kinds.set(expr, kind);
    return kind;
  }

  private computeKind(e: ts.Expression): ValueKind {
    if (ts.isAwaitExpression(e)) return this.kindOf(e.expression);
    if (ts.isIdentifier(e)) return this.kindOfIdentifier(e);
    if (ts.isCallExpression(e)) {
      const { name, receiver } = this.callee(e);
      if (name === undefined || receiver === undefined) return 'unknown';
      // `this.input()` in a page object: what its method returns.
      if (this.unwrap(receiver).kind === ts.SyntaxKind.ThisKeyword) {
        const method = this.classMember(e, name, ts.isMethodDeclaration);
        if (method) return this.returnedKind(method);
      }
      const firstArgument = e.arguments[0] ? this.stringValue(e.arguments[0]) : undefined;
      return kindOfCall(name, this.kindOf(receiver), firstArgument);
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.memberName(e);
      const receiver = this.unwrap(e.expression);
      if (receiver.kind === ts.SyntaxKind.ThisKeyword && name) {
        const member = this.classMemberKind(e, name);
        if (member !== 'unknown') return member;
      }
      // `context.pages()[0]`
      if (ts.isElementAccessExpression(e) && ts.isCallExpression(receiver) && this.callee(receiver).name === 'pages') return 'page';
      if (name) {
        const viaReceiver = kindOfCall(name, this.kindOf(receiver), undefined, true);
        if (viaReceiver !== 'unknown') return viaReceiver;
        const fixture = fixtureKind(name);
        if (fixture) return fixture;
        const hit = this.property(receiver, name);
        if (hit) return this.kindOf(hit.value);
      }
      return 'unknown';
    }
    if (ts.isConditionalExpression(e)) {
      const whenTrue = this.kindOf(e.whenTrue);
      return whenTrue === this.kindOf(e.whenFalse) ? whenTrue : 'unknown';
    }
    return 'unknown';
  }

  private kindOfIdentifier(id: ts.Identifier): ValueKind {
    const declaration = this.declarationOf(id);
    if (!declaration) return fixtureKind(id.text) ?? 'unknown';
    if (ts.isVariableDeclaration(declaration) || ts.isParameter(declaration) || ts.isPropertyDeclaration(declaration)) {
      const typed = declaration.type ? kindFromTypeNode(declaration.type) : undefined;
      if (typed) return typed;
      if (declaration.initializer && ts.isIdentifier(declaration.name)) return this.kindOf(declaration.initializer);
      if (ts.isParameter(declaration) && ts.isIdentifier(declaration.name)) return fixtureKind(declaration.name.text) ?? 'unknown';
      return 'unknown';
    }
    if (ts.isBindingElement(declaration)) {
      if (ts.isArrayBindingPattern(declaration.parent)) return this.arrayElementKind(declaration, declaration.parent);
      const key = declaration.propertyName ?? declaration.name;
      const keyName = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
      return (keyName && fixtureKind(keyName)) || 'unknown';
    }
    return 'unknown';
  }

  /** `const [popup] = await Promise.all([page.waitForEvent('popup'), …])`: the kind of the matching element. */
  private arrayElementKind(element: ts.BindingElement, pattern: ts.ArrayBindingPattern): ValueKind {
    if (!ts.isVariableDeclaration(pattern.parent) || !pattern.parent.initializer) return 'unknown';
    let init = this.unwrap(pattern.parent.initializer);
    if (ts.isAwaitExpression(init)) init = this.unwrap(init.expression);
    if (ts.isCallExpression(init) && this.isPromiseCombinator(init) && init.arguments[0]) init = this.resolve(init.arguments[0]);
    if (!ts.isArrayLiteralExpression(init)) return 'unknown';
    const item = init.elements[pattern.elements.indexOf(element)];
    return item && !ts.isSpreadElement(item) ? this.kindOf(item) : 'unknown';
  }

  /**
   * What a page object's member gives where it is read: `todos.input()` or `this.input()` is the one expression
   * its method `input() { return this.page.getByTestId('new-todo-input'); }` returns; a getter's likewise. Only
   * when the file's classes have one member of that name, with one `return` of a value.
   */
  returnedBy(expr: ts.Expression): ts.Expression | undefined {
    const e = this.unwrap(expr);
    const read = ts.isCallExpression(e) && e.arguments.length === 0 ? this.unwrap(e.expression) : e;
    if (!ts.isPropertyAccessExpression(read)) return undefined;
    const name = read.name.text;
    const isMember = read === e ? ts.isGetAccessorDeclaration : ts.isMethodDeclaration;
    const members = this.classes().flatMap((cls) => cls.members.filter((member) => isMember(member) && member.name?.getText(this.sourceFile) === name)) as Array<ts.MethodDeclaration | ts.GetAccessorDeclaration>;
    if (members.length !== 1) return undefined;
    const returned = returnsOf(members[0]!);
    return returned.length === 1 ? returned[0] : undefined;
  }

  /** The classes declared in the file, found once. */
  private classes(): readonly ts.ClassLikeDeclaration[] {
    return this.memo(CLASSES_IN_FILE, this.sourceFile, () => {
      const found: ts.ClassLikeDeclaration[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isClassLike(node)) found.push(node);
        ts.forEachChild(node, visit);
      };
      visit(this.sourceFile);
      return found;
    });
  }

  /** The member of the class `node` is in with that name, when it is of the kind asked for. */
  private classMember<T extends ts.ClassElement>(node: ts.Node, name: string, isKind: (member: ts.ClassElement) => member is T): T | undefined {
    const cls = enclosingClass(node);
    return cls?.members.find((member): member is T => isKind(member) && member.name?.getText(this.sourceFile) === name);
  }

  /** The kind every `return` of a method or getter gives (not those of functions inside it); unknown when they differ. */
  private returnedKind(member: ts.MethodDeclaration | ts.GetAccessorDeclaration): ValueKind {
    const returned = returnsOf(member);
    const kinds = new Set(returned.map((expr) => (expr ? this.kindOf(expr) : 'unknown')));
    return kinds.size === 1 ? [...kinds][0]! : 'unknown';
  }

  /** `this.x` in a class: its declared type, its initializer, what the constructor assigns, or what its getter returns. */
  private classMemberKind(access: ts.Node, name: string): ValueKind {
    const cls = enclosingClass(access);
    if (!cls) return 'unknown';
    const getter = this.classMember(access, name, ts.isGetAccessorDeclaration);
    if (getter) return this.returnedKind(getter);
    for (const member of cls.members) {
      if (ts.isPropertyDeclaration(member) && member.name.getText(this.sourceFile) === name) {
        if (member.type) {
          const typed = kindFromTypeNode(member.type);
          if (typed) return typed;
        }
        if (member.initializer) return this.kindOf(member.initializer);
      }
      if (ts.isConstructorDeclaration(member)) {
        for (const parameter of member.parameters) {
          if (ts.isIdentifier(parameter.name) && parameter.name.text === name && parameter.type) {
            const typed = kindFromTypeNode(parameter.type);
            if (typed) return typed;
          }
          // `constructor(readonly page) {}`: an untyped parameter property, named as a fixture is.
          if (ts.isIdentifier(parameter.name) && parameter.name.text === name && !parameter.type && ts.isParameterPropertyDeclaration(parameter, member)) return fixtureKind(name) ?? 'unknown';
        }
        const assigned = member.body ? findThisAssignment(member.body, name) : undefined;
        if (assigned) return this.kindOf(assigned);
      }
    }
    return 'unknown';
  }
}

/** The values a method's or getter's `return`s give (not those of functions inside it); undefined for a bare `return`. */
function returnsOf(member: ts.MethodDeclaration | ts.GetAccessorDeclaration): Array<ts.Expression | undefined> {
  return member.body ? returnStatements(member.body).map((statement) => statement.expression) : [];
}

function kindFromTypeNode(type: ts.TypeNode): ValueKind | undefined {
  if (ts.isTypeReferenceNode(type)) {
    const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
    if (name === 'Promise' && type.typeArguments?.[0]) return kindFromTypeNode(type.typeArguments[0]);
    return kindFromTypeName(name);
  }
  return undefined;
}
