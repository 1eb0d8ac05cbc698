/**
 * What a piece of syntax is, from the tree alone: the analysis's one home for questions such as "does this
 * node open a scope?", "is this identifier the name being declared?", "which function runs when called?".
 * Pure functions of the nodes; no model, no memo.
 */
import { ts } from '../util/typescript.js';

export type Scope = Map<string, ts.Node>;

/** A lookup by syntax kind, 1 for the kinds given: an array index is cheaper than a Set for what runs on every node. */
export function kindTable(kinds: readonly ts.SyntaxKind[]): Uint8Array {
  const table = new Uint8Array(ts.SyntaxKind.Count);
  for (const kind of kinds) table[kind] = 1;
  return table;
}

/** Wrappers that leave the value as it is: parentheses, `as`, `!`, `satisfies`, `<T>x`. */
export const TRANSPARENT_KINDS = kindTable([
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.AsExpression,
  ts.SyntaxKind.NonNullExpression,
  ts.SyntaxKind.SatisfiesExpression,
  ts.SyntaxKind.TypeAssertionExpression,
]);

/** The outermost of the transparent wrappers around an expression (`((x as T)!)`), or the expression itself: where its value is used. */
export function valueSite(node: ts.Node): ts.Node {
  let site = node;
  while (TRANSPARENT_KINDS[site.parent.kind] === 1) site = site.parent;
  return site;
}

export function isFunctionLike(node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression {
  return node.kind === ts.SyntaxKind.ArrowFunction || node.kind === ts.SyntaxKind.FunctionExpression;
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

export function isScopeContainer(node: ts.Node): boolean {
  return SCOPE_KINDS[node.kind] === 1 || ts.isFunctionLike(node);
}

export function collectDeclarations(container: ts.Node): Scope {
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

export function declarationName(declaration: ts.Node): string | undefined {
  const name = (declaration as { name?: ts.Node }).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
}

/** Names that declare rather than read: functions, classes, parameters, variables, destructured names, enums and their members, type parameters. */
export function isDeclaringName(id: ts.Identifier): boolean {
  const parent = id.parent;
  if ((ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassDeclaration(parent) || ts.isClassExpression(parent) || ts.isEnumDeclaration(parent) || ts.isEnumMember(parent)) && parent.name === id) return true;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) && parent.name === id) return true;
  return ts.isTypeParameterDeclaration(parent);
}

/** The key a destructuring reads (`env` in `const { env: e } = process`): a property's name, not a variable. */
export function isBindingPropertyName(id: ts.Identifier): boolean {
  return ts.isBindingElement(id.parent) && id.parent.propertyName === id;
}

/** The innermost function (declaration, expression, arrow, method, accessor) the node is in. */
export function enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return n;
  return undefined;
}

/** The `return` statements of a function's body, not those of functions (or classes) written inside it. */
export function returnStatements(body: ts.Node): ts.ReturnStatement[] {
  const found: ts.ReturnStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isReturnStatement(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

export function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

export function memberNameText(member: ts.ClassElement | ts.ParameterDeclaration, sourceFile: ts.SourceFile): string | undefined {
  const name = member.name;
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(sourceFile);
}

export function findThisAssignment(body: ts.Block, name: string): ts.Expression | undefined {
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

export function classMemberValue(cls: ts.ClassLikeDeclaration, name: string, sourceFile: ts.SourceFile): ts.Expression | undefined {
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
export function classMemberType(cls: ts.ClassLikeDeclaration, name: string, sourceFile: ts.SourceFile): ts.TypeNode | undefined {
  for (const member of cls.members) {
    if (ts.isPropertyDeclaration(member) && member.type && memberNameText(member, sourceFile) === name) return member.type;
    if (ts.isConstructorDeclaration(member)) {
      const parameter = member.parameters.find((p) => p.type && ts.getModifiers(p)?.length && memberNameText(p, sourceFile) === name);
      if (parameter?.type) return parameter.type;
    }
  }
  return undefined;
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
export function isDeclaredFunction(node: ts.Node): boolean {
  if (DECLARED_FUNCTION_KINDS[node.kind] === 1) return true;
  if (!isFunctionLike(node)) return false;
  const parent = node.parent;
  return (
    (ts.isVariableDeclaration(parent) && parent.initializer === node) ||
    (ts.isPropertyAssignment(parent) && parent.initializer === node) ||
    (ts.isPropertyDeclaration(parent) && parent.initializer === node)
  );
}

/** The names of JavaScript's global object: anywhere (`globalThis`), in a browser (`window`), a worker (`self`), Node (`global`). */
export const GLOBAL_OBJECT_NAMES: ReadonlySet<string> = new Set(['globalThis', 'window', 'global', 'self']);

/** The initializer of a `const name = …` declaration; anything else may change, so it has none. */
export function constValue(declaration: ts.Node): ts.Expression | undefined {
  if (!ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || !declaration.initializer) return undefined;
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0 ? declaration.initializer : undefined;
}

/** JavaScript specs (.js, .mjs, .cjs, .jsx) are parsed and checked as JavaScript. */
export function scriptKindOf(file: string): ts.ScriptKind {
  if (/\.[cm]?js$/i.test(file)) return ts.ScriptKind.JS;
  if (/\.jsx$/i.test(file)) return ts.ScriptKind.JSX;
  if (/\.tsx$/i.test(file)) return ts.ScriptKind.TSX;
  return ts.ScriptKind.TS;
}

/** Whether an expression is written to: `x = 1`, `x.a += 1`, `x.a++`, `delete x.a`, `[x.a] = list`, `for (x.a of …)`. */
export function isAssignmentTarget(node: ts.Expression): boolean {
  let child: ts.Node = node;
  for (let parent = node.parent; ; child = parent, parent = parent.parent) {
    if (TRANSPARENT_KINDS[parent.kind] === 1) continue;
    if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) continue;
    if (ts.isPropertyAssignment(parent) && parent.initializer === child) continue;
    if (ts.isObjectLiteralExpression(parent)) continue;
    if (ts.isBinaryExpression(parent)) return parent.left === child && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
    if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
    if (ts.isDeleteExpression(parent)) return true;
    if (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) return parent.initializer === child;
    return false;
  }
}
