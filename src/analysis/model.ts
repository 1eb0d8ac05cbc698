/**
 * The value analysis every rule shares. Rules ask what a value *is* (a Page, a Locator, a string, an
 * options object, Playwright's `test`) rather than what it is called, so an alias of `page`, a popup,
 * a selector held in a variable or built by a template, or `page['waitForTimeout']` are all still seen.
 *
 * It works on the compiler's syntax tree of one file (through ts-morph's `ts`), without a type checker,
 * so it stays fast enough to run on every model answer and on thousands of files.
 */
import { ts } from '../util/typescript.js';
import { fixtureKind, kindFromTypeName, kindOfCall, type ValueKind } from './playwright-api.ts';
import type { TypeDiagnostic } from './type-diagnostic.ts';

export type { ValueKind } from './playwright-api.ts';

const MAX_DEPTH = 16;

/** Wrappers that leave the value as it is: parentheses, `as`, `!`, `satisfies`, `<T>x`. */
const TRANSPARENT_KINDS = kindTable([
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.AsExpression,
  ts.SyntaxKind.NonNullExpression,
  ts.SyntaxKind.SatisfiesExpression,
  ts.SyntaxKind.TypeAssertionExpression,
]);

export interface Position {
  line: number;
  column: number;
}

export interface TestBlock {
  call: ts.CallExpression;
  /** `test`, `test.only`, `test.skip`, `test.fixme`, `test.fail`, `test.slow`. */
  path: string;
  title: string | undefined;
  body: ts.FunctionLikeDeclaration | undefined;
}

export interface Expectation {
  /** The call of the matcher: `expect(x).not.toBeVisible()`. */
  call: ts.CallExpression;
  /** The `expect(...)` call at the root of the chain. */
  expectCall: ts.CallExpression;
  /** `expect`, `expect.soft`, `expect.poll`. */
  flavour: string;
  subject: ts.Expression | undefined;
  matcher: string;
  matcherNode: ts.Node;
  negated: boolean;
  modifiers: string[];
}

export interface PropertyHit {
  property: ts.ObjectLiteralElementLike;
  value: ts.Expression;
}

export interface ModuleBinding {
  module: string;
  /** The exported name: a named import's name, `default`, or `*` for a namespace or a whole `require`. */
  imported: string;
}

type Scope = Map<string, ts.Node>;

/**
 * A question SpecModel.memo answers once per node, typed by its answer: each asker holds its own key, so
 * two questions never share answers by a coincidence of names.
 */
export class MemoKey<T> {
  declare private readonly answer: T;
  constructor(readonly question: string) {}
}

const DECLARATION_OF = new MemoKey<ts.Node | undefined>('the declaration an identifier refers to');
const PLAYWRIGHT_PATH = new MemoKey<string | undefined>('the Playwright API path of an expression');
const MODULE_BINDING = new MemoKey<ModuleBinding | undefined>('the module an identifier is imported from');
const LOCAL_FUNCTION = new MemoKey<ts.FunctionLikeDeclaration | undefined>('the local function a call runs');
const CALLS_WRITTEN_IN = new MemoKey<readonly ts.CallExpression[]>('the calls written in a function body');

export class SpecModel {
  readonly sourceFile: ts.SourceFile;
  readonly fileName: string;
  /** The nodes of each kind, in source order, indexed by kind (a plain array: the index walk fills it for every node). */
  private readonly buckets: ts.Node[][] = [];
  private readonly scopes = new Map<ts.Node, Scope>();
  private readonly kinds = new Map<ts.Node, ValueKind>();
  private readonly reachable = new Map<ts.Node, ts.CallExpression[]>();
  private readonly memos = new Map<MemoKey<unknown>, Map<ts.Node, unknown>>();
  private localFunctionNames: Set<string> | undefined;
  private testBlocks: TestBlock[] | undefined;
  private readonly semanticDiagnosticsOf: (() => readonly TypeDiagnostic[]) | undefined;

  private readonly checkerOf: (() => ts.TypeChecker) | undefined;

  /** `semanticDiagnostics` and `checker` come from a compiler program when the file is type-checked. */
  constructor(sourceFile: ts.SourceFile, semanticDiagnostics?: () => readonly TypeDiagnostic[], checker?: () => ts.TypeChecker) {
    this.sourceFile = sourceFile;
    this.semanticDiagnosticsOf = semanticDiagnostics;
    this.checkerOf = checker;
    this.fileName = sourceFile.fileName;
    // One walk indexes the nodes by kind and links each to its parent (the parser is not asked to: that
    // would be a second walk of every node).
    let parent: ts.Node = sourceFile;
    const visit = (node: ts.Node): void => {
      (node as { parent: ts.Node }).parent = parent;
      const bucket = this.buckets[node.kind];
      if (bucket) bucket.push(node);
      else this.buckets[node.kind] = [node];
      parent = node;
      ts.forEachChild(node, visit);
      parent = node.parent;
    };
    ts.forEachChild(sourceFile, visit);
  }

  static fromText(fileName: string, text: string): SpecModel {
    return new SpecModel(SpecModel.parse(fileName, text));
  }

  /** The syntax tree a model is built over; building the model links its nodes to their parents. */
  static parse(fileName: string, text: string): ts.SourceFile {
    return ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, scriptKindOf(fileName));
  }

  /** The parser's errors; no program is needed for them. */
  syntaxDiagnostics(): readonly ts.Diagnostic[] {
    return (this.sourceFile as ts.SourceFile & { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  }

  /** The type checker's errors, when the file was parsed in a program; otherwise none. */
  semanticDiagnostics(): readonly TypeDiagnostic[] {
    return this.semanticDiagnosticsOf?.() ?? [];
  }

  /**
   * Where a called name is declared in another file of the program (a helper or page-object method
   * imported from the project); nothing without a type check, or for names declared in this file.
   */
  declarationsElsewhere(call: ts.CallExpression): readonly ts.Declaration[] {
    if (!this.checkerOf || !this.mayBeDeclaredElsewhere(call)) return [];
    const checker = this.checkerOf();
    const callee = this.unwrap(call.expression);
    const at = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
    let symbol = at && checker.getSymbolAtLocation(at);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).filter((d) => d.getSourceFile() !== this.sourceFile && !d.getSourceFile().isDeclarationFile);
  }

  /**
   * Whether the checker could find the callee declared in another of the project's files. It cannot for a
   * Playwright object's method (declared in Playwright's types), a name declared here, or a global: asking
   * it only for the rest spares building a JavaScript program where the native checker type-checks.
   */
  private mayBeDeclaredElsewhere(call: ts.CallExpression): boolean {
    const callee = this.unwrap(call.expression);
    if (this.playwrightPath(callee) !== undefined || this.localFunction(call) !== undefined) return false;
    if (ts.isIdentifier(callee)) {
      const declaration = this.declarationOf(callee);
      return declaration !== undefined && this.moduleBinding(callee) !== undefined;
    }
    if (ts.isPropertyAccessExpression(callee)) return this.kindOf(callee.expression) === 'unknown';
    return false;
  }

  /** Every node of a syntax kind, in source order. */
  nodes<T extends ts.Node = ts.Node>(kind: ts.SyntaxKind): readonly T[] {
    return (this.buckets[kind] ?? []) as T[];
  }

  get calls(): readonly ts.CallExpression[] {
    return this.nodes<ts.CallExpression>(ts.SyntaxKind.CallExpression);
  }

  /** 1-based line and column of a node's first character. */
  position(node: ts.Node): Position {
    const { line, character } = this.sourceFile.getLineAndCharacterOfPosition(node.getStart(this.sourceFile));
    return { line: line + 1, column: character + 1 };
  }

  text(node: ts.Node): string {
    return node.getText(this.sourceFile);
  }

  lineText(line: number): string {
    return this.sourceFile.text.split(/\r?\n/)[line - 1] ?? '';
  }

  // --- names and scopes --------------------------------------------------------------------------

  /** The declaration an identifier refers to (variable, parameter, binding element, import, function). */
  declarationOf(identifier: ts.Identifier): ts.Node | undefined {
    return this.memo(DECLARATION_OF, identifier, () => {
      const name = identifier.text;
      for (let node: ts.Node | undefined = identifier.parent; node; node = node.parent) {
        if (!isScopeContainer(node)) continue;
        const found = this.scopeOf(node).get(name);
        if (found) return found;
      }
      return undefined;
    });
  }

  /** Every identifier that refers to the given declaration, the declaring name excluded. */
  referencesTo(declaration: ts.Node): ts.Identifier[] {
    const name = declarationName(declaration);
    if (!name) return [];
    return this.nodes<ts.Identifier>(ts.SyntaxKind.Identifier).filter(
      (id) => id.text === name && !isDeclaringName(id) && this.declarationOf(id) === declaration,
    );
  }

  private scopeOf(container: ts.Node): Scope {
    let scope = this.scopes.get(container);
    if (!scope) {
      scope = collectDeclarations(container);
      this.scopes.set(container, scope);
    }
    return scope;
  }

  // --- values ------------------------------------------------------------------------------------

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
  stringValue(expr: ts.Expression, placeholder?: string, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return placeholder;
    const e = this.unwrap(expr);
    if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const part = this.stringValue(span.expression, placeholder, depth + 1);
        if (part === undefined) return undefined;
        out += part + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.stringValue(e.left, placeholder, depth + 1);
      const right = this.stringValue(e.right, placeholder, depth + 1);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) {
        return this.stringValue(declaration.initializer, placeholder, depth + 1);
      }
      return placeholder;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.memberName(e);
      const hit = name === undefined ? undefined : this.property(e.expression, name, depth + 1);
      if (hit) return this.stringValue(hit.value, placeholder, depth + 1);
      const member = name !== undefined && this.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword ? this.thisMemberValue(e, name) : undefined;
      if (member) return this.stringValue(member, placeholder, depth + 1);
    }
    return placeholder;
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

  // --- what a value is ---------------------------------------------------------------------------

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

  /** `this.x` in a class: its declared type, its initializer, or what the constructor assigns. */
  private classMemberKind(access: ts.Node, name: string): ValueKind {
    let cls: ts.Node | undefined = access.parent;
    while (cls && !ts.isClassLike(cls)) cls = cls.parent;
    if (!cls || !ts.isClassLike(cls)) return 'unknown';
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
        }
        const assigned = member.body ? findThisAssignment(member.body, name) : undefined;
        if (assigned) return this.kindOf(assigned);
      }
    }
    return 'unknown';
  }

  // --- Playwright's test and expect --------------------------------------------------------------

  /**
   * Where an expression leads in Playwright's API, as a dotted path rooted at `test` or `expect`:
   * `test.describe.only`, `expect.soft`. Followed through aliases, `test.extend(...)`,
   * `expect.configure(...)` and fixtures modules that re-export `test`.
   */
  playwrightPath(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    // Depth only guards cycles: an answer found at any depth is the answer.
    return this.memo(PLAYWRIGHT_PATH, expr, () => this.computePlaywrightPath(expr, depth));
  }

  private computePlaywrightPath(expr: ts.Expression, depth: number): string | undefined {
    const e = this.unwrap(expr);
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      if (!declaration) return e.text === 'test' || e.text === 'expect' ? e.text : undefined;
      if (ts.isImportSpecifier(declaration)) {
        const imported = (declaration.propertyName ?? declaration.name).text;
        return imported === 'test' || imported === 'expect' ? imported : undefined;
      }
      if (ts.isVariableDeclaration(declaration) && declaration.initializer) return this.playwrightPath(declaration.initializer, depth + 1) ?? this.factoryTest(declaration);
      if (ts.isBindingElement(declaration)) return this.destructuredPath(declaration, depth + 1);
      return undefined;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const base = this.playwrightPath(e.expression, depth + 1);
      const name = this.memberName(e);
      // test.expect is expect itself.
      if (base === 'test' && name === 'expect') return 'expect';
      return base && name ? `${base}.${name}` : undefined;
    }
    if (ts.isCallExpression(e)) {
      const path = this.playwrightPath(e.expression, depth + 1);
      if (path?.endsWith('.extend') || path?.endsWith('.configure')) return path.slice(0, path.lastIndexOf('.'));
      // `baseTest().extend({...})`, `fixtures.base.extend({...})`: a test factory of the project's, imported.
      if (path === undefined && this.memberName(this.unwrap(e.expression)) === 'extend' && this.importedRoot(e.expression)) return 'test';
    }
    return undefined;
  }

  /**
   * `const test = testFactory(import.meta.url, …)`, `const test = await fixtures.create()`: a `test` a
   * project's helper module makes (typed or not), which the spec then calls as Playwright's.
   */
  private factoryTest(declaration: ts.VariableDeclaration): 'test' | undefined {
    if (!ts.isIdentifier(declaration.name) || declaration.name.text !== 'test' || !declaration.initializer) return undefined;
    let init = this.unwrap(declaration.initializer);
    if (ts.isAwaitExpression(init)) init = this.unwrap(init.expression);
    return ts.isCallExpression(init) && this.importedRoot(init.expression) ? 'test' : undefined;
  }

  /** Whether an access chain (`a.b().c`) starts at a name imported or required from a module. */
  private importedRoot(expr: ts.Expression): boolean {
    return this.chainModule(expr) !== undefined;
  }

  /** The module the name at the start of an access chain (`prisma.user.count()`, `a.b().c`) comes from, if imported or required. */
  chainModule(expr: ts.Expression): string | undefined {
    let root = this.unwrap(expr);
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root) || ts.isCallExpression(root)) root = this.unwrap(root.expression);
    return ts.isIdentifier(root) ? this.moduleBinding(root)?.module : undefined;
  }

  /** `const { describe } = test` → `test.describe`; a nested pattern adds a segment per level. */
  private destructuredPath(element: ts.BindingElement, depth: number): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : ts.isComputedPropertyName(key) ? this.stringValue(key.expression) : undefined;
    const pattern = element.parent;
    if (!name || !ts.isObjectBindingPattern(pattern)) return undefined;
    const owner = pattern.parent;
    let base: string | undefined;
    if (ts.isBindingElement(owner)) base = this.destructuredPath(owner, depth + 1);
    else if (ts.isVariableDeclaration(owner) && owner.initializer) {
      // `const { test, expect } = require('@playwright/test')` (or a fixtures module): named as an import would be.
      if (this.requiredModule(owner.initializer) !== undefined) return name === 'test' || name === 'expect' ? name : undefined;
      base = this.playwrightPath(owner.initializer, depth + 1);
    }
    return base ? `${base}.${name}` : undefined;
  }

  /** The module an identifier was imported or required from. */
  moduleBinding(identifier: ts.Identifier): ModuleBinding | undefined {
    return this.memo(MODULE_BINDING, identifier, () => this.computeModuleBinding(identifier));
  }

  private computeModuleBinding(identifier: ts.Identifier): ModuleBinding | undefined {
    const declaration = this.declarationOf(identifier);
    if (!declaration) return undefined;
    if (ts.isImportSpecifier(declaration)) {
      return { module: moduleText(declaration.parent.parent.parent), imported: (declaration.propertyName ?? declaration.name).text };
    }
    if (ts.isImportClause(declaration)) return { module: moduleText(declaration.parent), imported: 'default' };
    if (ts.isNamespaceImport(declaration)) return { module: moduleText(declaration.parent.parent), imported: '*' };
    if (ts.isImportEqualsDeclaration(declaration) && ts.isExternalModuleReference(declaration.moduleReference)) {
      const module = this.stringValue(declaration.moduleReference.expression);
      return module === undefined ? undefined : { module, imported: '*' };
    }
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const required = this.requiredModule(declaration.initializer);
      if (required !== undefined) return { module: required, imported: '*' };
      const init = this.unwrap(declaration.initializer);
      if (ts.isIdentifier(init)) return this.moduleBinding(init);
      if ((ts.isPropertyAccessExpression(init) || ts.isElementAccessExpression(init)) && ts.isIdentifier(this.unwrap(init.expression))) {
        const base = this.moduleBinding(this.unwrap(init.expression) as ts.Identifier);
        const member = this.memberName(init);
        if (base && member) return { module: base.module, imported: base.imported === '*' ? member : `${base.imported}.${member}` };
      }
    }
    if (ts.isBindingElement(declaration)) {
      let root: ts.Node = declaration.parent;
      while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
      if (ts.isVariableDeclaration(root) && root.initializer) {
        const key = declaration.propertyName ?? declaration.name;
        const imported = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : '*';
        const required = this.requiredModule(root.initializer);
        if (required !== undefined) return { module: required, imported };
        const init = this.unwrap(root.initializer);
        if (ts.isIdentifier(init)) {
          const base = this.moduleBinding(init);
          if (base) return { module: base.module, imported };
        }
      }
    }
    return undefined;
  }

  /** The module named by `require('x')` or `await import('x')` (or another loader, see isModuleLoader), when the expression is one. */
  requiredModule(expr: ts.Expression): string | undefined {
    let e = this.unwrap(expr);
    if (ts.isAwaitExpression(e)) e = this.unwrap(e.expression);
    if (!ts.isCallExpression(e) || !e.arguments[0] || !this.isModuleLoader(e.expression)) return undefined;
    return this.stringValue(e.arguments[0], '?');
  }

  /** `require`, `import`, `module.require`, a function made by `createRequire`, or an alias of one. */
  isModuleLoader(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    const callee = this.unwrap(expr);
    if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
    if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) return this.memberName(callee) === 'require';
    if (ts.isCallExpression(callee)) return this.callee(callee).name === 'createRequire';
    if (!ts.isIdentifier(callee)) return false;
    if (callee.text === 'require') return true;
    const resolved = this.resolve(callee);
    return resolved !== callee && this.isModuleLoader(resolved, depth + 1);
  }

  /** Every `test(...)` call (with its modifier) in the file, in source order. */
  tests(): readonly TestBlock[] {
    if (!this.testBlocks) {
      this.testBlocks = [];
      for (const call of this.calls) {
        const path = this.playwrightPath(call.expression);
        if (!path || !TEST_PATHS.has(path)) continue;
        // A test's title comes first, so a function there is a condition: `test.skip(({ browserName }) => …, 'reason')`.
        const body = call.arguments.slice(1).reverse().find(isFunctionLike);
        // `test.skip()` or `test.fixme(condition)` inside a test are annotations, not tests.
        if (path !== 'test' && !body) continue;
        const title = call.arguments[0] ? this.stringValue(call.arguments[0], '…') : undefined;
        this.testBlocks.push({ call, path, title, body });
      }
    }
    return this.testBlocks;
  }

  /** The test whose body holds a node, if any. */
  enclosingTest(node: ts.Node): TestBlock | undefined {
    for (const test of this.tests()) {
      if (test.body && node.pos >= test.body.pos && node.end <= test.body.end) return test;
    }
    return undefined;
  }

  /** When a call is the matcher of an `expect(...)` chain, its parts. */
  expectation(call: ts.CallExpression): Expectation | undefined {
    const callee = this.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return undefined;
    const matcher = this.memberName(callee);
    if (!matcher) return undefined;
    const modifiers: string[] = [];
    let e = this.unwrap(callee.expression);
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.memberName(e);
      if (!name || !EXPECT_MODIFIERS.has(name)) return undefined;
      modifiers.unshift(name);
      e = this.unwrap(e.expression);
    }
    if (!ts.isCallExpression(e)) return undefined;
    const flavour = this.playwrightPath(e.expression);
    if (!flavour || !EXPECT_FLAVOURS.has(flavour)) return undefined;
    const matcherNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee.argumentExpression;
    return {
      call,
      expectCall: e,
      flavour,
      subject: e.arguments[0],
      matcher,
      matcherNode,
      negated: modifiers.filter((m) => m === 'not').length % 2 === 1,
      modifiers,
    };
  }

  /** Every expectation in the file. */
  expectations(): Expectation[] {
    const found: Expectation[] = [];
    for (const call of this.calls) {
      const expectation = this.expectation(call);
      if (expectation) found.push(expectation);
    }
    return found;
  }

  // --- promises ----------------------------------------------------------------------------------

  /**
   * Whether the promise an expression makes is awaited: directly, returned, passed to Promise.all and
   * friends or to expect, chained with then/catch/finally that is itself awaited, or stored in a
   * variable that is awaited later.
   */
  isAwaited(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return true;
    let node: ts.Node = expr;
    for (;;) {
      const parent: ts.Node = node.parent;
      if (
        ts.isParenthesizedExpression(parent) ||
        ts.isAsExpression(parent) ||
        ts.isNonNullExpression(parent) ||
        ts.isSatisfiesExpression(parent)
      ) {
        node = parent;
        continue;
      }
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node && PROMISE_CHAIN.has(parent.name.text) && ts.isCallExpression(parent.parent)) {
        node = parent.parent;
        continue;
      }
      if (ts.isAwaitExpression(parent) || ts.isReturnStatement(parent)) return true;
      if (ts.isArrowFunction(parent)) return parent.body === node;
      if (ts.isArrayLiteralExpression(parent)) {
        node = parent;
        continue;
      }
      if (ts.isCallExpression(parent)) {
        // Promise.all([...]) hands the promise on; any other callee (expect, a helper) takes it over.
        return this.isPromiseCombinator(parent) ? this.isAwaited(parent, depth + 1) : true;
      }
      if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
        if (!ts.isIdentifier(parent.name)) return true;
        return this.referencesTo(parent).some((ref) => this.isAwaited(ref, depth + 1));
      }
      if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return false;
      if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken) return false;
      return true;
    }
  }

  private isPromiseCombinator(call: ts.CallExpression): boolean {
    const callee = this.unwrap(call.expression);
    return (
      ts.isPropertyAccessExpression(callee) &&
      ts.isIdentifier(callee.expression) &&
      callee.expression.text === 'Promise' &&
      PROMISE_COMBINATORS.has(callee.name.text)
    );
  }

  // --- local functions ---------------------------------------------------------------------------

  /**
   * The function of this file that a call runs: a function declaration or a variable holding one, a
   * method of a class of this file (`new LoginPage(page).open()`, `loginPage.open()`, `this.open()`, a
   * static or inherited method) or of an object literal. Undefined for imported and built-in code.
   */
  localFunction(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
    return this.memo(LOCAL_FUNCTION, call, () => this.mayCallLocalFunction(call.expression) ? this.functionValue(call.expression, 0) : undefined);
  }

  /** A fact about a node computed once per model: rules that ask the same question of every call share the answer. */
  memo<T>(key: MemoKey<T>, node: ts.Node, compute: () => T): T {
    let answers = this.memos.get(key);
    if (!answers) {
      answers = new Map();
      this.memos.set(key, answers);
    }
    const known = answers.get(node);
    // An answer may be undefined itself: only then is the second lookup needed.
    if (known !== undefined || answers.has(node)) return known as T;
    const answer = compute();
    answers.set(node, answer);
    return answer;
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

  /** The value `this.name` holds in the class around `access`: the property's initializer or what the constructor assigns. */
  thisMemberValue(access: ts.Node, name: string): ts.Expression | undefined {
    const cls = enclosingClass(access);
    return cls ? classMemberValue(cls, name, this.sourceFile) : undefined;
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

const TEST_PATHS = new Set(['test', 'test.only', 'test.skip', 'test.fixme', 'test.fail', 'test.slow']);
const EXPECT_FLAVOURS = new Set(['expect', 'expect.soft', 'expect.poll']);
const EXPECT_MODIFIERS = new Set(['not', 'resolves', 'rejects']);
const PROMISE_CHAIN = new Set(['then', 'catch', 'finally']);
const PROMISE_COMBINATORS = new Set(['all', 'allSettled', 'race', 'any']);

export function isFunctionLike(node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression {
  return node.kind === ts.SyntaxKind.ArrowFunction || node.kind === ts.SyntaxKind.FunctionExpression;
}

function kindFromTypeNode(type: ts.TypeNode): ValueKind | undefined {
  if (ts.isTypeReferenceNode(type)) {
    const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
    if (name === 'Promise' && type.typeArguments?.[0]) return kindFromTypeNode(type.typeArguments[0]);
    return kindFromTypeName(name);
  }
  return undefined;
}

function moduleText(declaration: ts.Node): string {
  return ts.isImportDeclaration(declaration) && ts.isStringLiteralLike(declaration.moduleSpecifier) ? declaration.moduleSpecifier.text : '';
}

function findThisAssignment(body: ts.Block, name: string): ts.Expression | undefined {
  for (const statement of body.statements) {
    if (!ts.isExpressionStatement(statement)) continue;
    const e = statement.expression;
    if (
      ts.isBinaryExpression(e) &&
      e.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(e.left) &&
      e.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
      e.left.name.text === name
    ) {
      return e.right;
    }
  }
  return undefined;
}

const SCOPE_KINDS = kindTable([
  ts.SyntaxKind.SourceFile,
  ts.SyntaxKind.Block,
  ts.SyntaxKind.ModuleBlock,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.DefaultClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.CatchClause,
]);

function isScopeContainer(node: ts.Node): boolean {
  return SCOPE_KINDS[node.kind] === 1 || ts.isFunctionLike(node);
}

function collectDeclarations(container: ts.Node): Scope {
  const scope: Scope = new Map();
  const addBinding = (name: ts.BindingName, declaration: ts.Node): void => {
    if (ts.isIdentifier(name)) {
      scope.set(name.text, declaration);
      return;
    }
    for (const element of name.elements) {
      if (ts.isBindingElement(element)) addBinding(element.name, ts.isIdentifier(element.name) ? element : declaration);
    }
  };
  const addList = (list: ts.VariableDeclarationList): void => {
    for (const declaration of list.declarations) addBinding(declaration.name, declaration);
  };
  const addStatement = (statement: ts.Statement): void => {
    if (ts.isVariableStatement(statement)) addList(statement.declarationList);
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) scope.set(statement.name.text, statement);
    else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) scope.set(clause.name.text, clause);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) scope.set(bindings.name.text, bindings);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) scope.set(element.name.text, element);
    } else if (ts.isImportEqualsDeclaration(statement)) scope.set(statement.name.text, statement);
  };

  if (ts.isSourceFile(container) || ts.isBlock(container) || ts.isModuleBlock(container) || ts.isCaseClause(container) || ts.isDefaultClause(container)) {
    container.statements.forEach(addStatement);
  } else if (ts.isFunctionLike(container)) {
    for (const parameter of container.parameters) addBinding(parameter.name, parameter);
    if ((ts.isFunctionExpression(container) || ts.isClassExpression(container)) && container.name) scope.set(container.name.text, container);
  } else if ((ts.isForStatement(container) || ts.isForInStatement(container) || ts.isForOfStatement(container)) && container.initializer && ts.isVariableDeclarationList(container.initializer)) {
    addList(container.initializer);
  } else if (ts.isCatchClause(container) && container.variableDeclaration) {
    addBinding(container.variableDeclaration.name, container.variableDeclaration);
  }
  return scope;
}

function declarationName(declaration: ts.Node): string | undefined {
  const name = (declaration as { name?: ts.Node }).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
}

function isDeclaringName(id: ts.Identifier): boolean {
  const parent = id.parent;
  return (
    ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent) || ts.isFunctionDeclaration(parent)) && parent.name === id) ||
    (ts.isBindingElement(parent) && parent.propertyName === id)
  );
}

const MAX_REACHABLE_CALLS = 10_000;

function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

function memberNameText(member: ts.ClassElement | ts.ParameterDeclaration, sourceFile: ts.SourceFile): string | undefined {
  const name = member.name;
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(sourceFile);
}

function classMemberValue(cls: ts.ClassLikeDeclaration, name: string, sourceFile: ts.SourceFile): ts.Expression | undefined {
  for (const member of cls.members) {
    if (ts.isPropertyDeclaration(member) && member.initializer && memberNameText(member, sourceFile) === name) return member.initializer;
    if (ts.isConstructorDeclaration(member) && member.body) {
      const assigned = findThisAssignment(member.body, name);
      if (assigned) return assigned;
    }
  }
  return undefined;
}

/** The declared type of a class property, also of a constructor parameter property (`constructor(private lp: LoginPage)`). */
function classMemberType(cls: ts.ClassLikeDeclaration, name: string, sourceFile: ts.SourceFile): ts.TypeNode | undefined {
  for (const member of cls.members) {
    if (ts.isPropertyDeclaration(member) && member.type && memberNameText(member, sourceFile) === name) return member.type;
    if (ts.isConstructorDeclaration(member)) {
      const parameter = member.parameters.find((p) => p.type && ts.getModifiers(p)?.length && memberNameText(p, sourceFile) === name);
      if (parameter?.type) return parameter.type;
    }
  }
  return undefined;
}

/** Names under which the file declares something callable: functions, methods, variables and properties holding a function or an alias. */
function collectFunctionNames(model: SpecModel): Set<string> {
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

/** Declarations whose code runs when called (or constructed), not where it is written. */
const DECLARED_FUNCTION_KINDS = kindTable([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
]);

/** Functions that run when called rather than where they are written. */
function isDeclaredFunction(node: ts.Node): boolean {
  if (DECLARED_FUNCTION_KINDS[node.kind] === 1) return true;
  if (!isFunctionLike(node)) return false;
  const parent = node.parent;
  return (
    (ts.isVariableDeclaration(parent) && parent.initializer === node) ||
    (ts.isPropertyAssignment(parent) && parent.initializer === node) ||
    (ts.isPropertyDeclaration(parent) && parent.initializer === node)
  );
}

/** A lookup by syntax kind, 1 for the kinds given: an array index is cheaper than a Set for what runs on every node. */
function kindTable(kinds: readonly ts.SyntaxKind[]): Uint8Array {
  const table = new Uint8Array(ts.SyntaxKind.Count);
  for (const kind of kinds) table[kind] = 1;
  return table;
}

/** JavaScript specs (.js, .mjs, .cjs, .jsx) are parsed and checked as JavaScript. */
export function scriptKindOf(file: string): ts.ScriptKind {
  if (/\.[cm]?js$/i.test(file)) return ts.ScriptKind.JS;
  if (/\.jsx$/i.test(file)) return ts.ScriptKind.JSX;
  if (/\.tsx$/i.test(file)) return ts.ScriptKind.TSX;
  return ts.ScriptKind.TS;
}
