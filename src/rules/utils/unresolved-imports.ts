/**
 * What an import that does not resolve makes untyped. The checker gives such an import's bindings the type
 * `any`, and what flows from them is `any` or `unknown` (a fixture of its `test`, the parameter of a callback
 * passed to one of its calls, `Array.from` of its result). A type error there says the checkout lacks a
 * module, not that the spec is wrong: the module is reported once, so those errors are its knock-on.
 */
import { ts } from '../../util/typescript.js';

/** The declaration a name refers to, in its scope (the spec model's `declarationOf`). */
export type DeclarationOf = (identifier: ts.Identifier) => ts.Node | undefined;

/**
 * The declarations in the file whose values trace to a binding of one of the `unresolved` module specifiers:
 * the imported names, then (to a fixed point) variables initialised from them, loop variables over them,
 * and the parameters of callbacks passed to calls on them.
 */
export function untypedDeclarations(sourceFile: ts.SourceFile, unresolved: ReadonlySet<string>, declarationOf: DeclarationOf): Set<ts.Node> {
  const declarations = new Set<ts.Node>();
  const untyped: Untyped = { declarations, declarationOf };
  const addBound = (name: ts.BindingName): void => {
    for (const identifier of boundNames(name)) {
      const declaration = declarationOf(identifier);
      if (declaration) declarations.add(declaration);
    }
  };
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !unresolved.has(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) addBound(clause.name);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) addBound(bindings.name);
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) addBound(element.name);
  }
  if (declarations.size === 0) return declarations;
  for (let before = -1; before !== declarations.size; ) {
    before = declarations.size;
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && node.initializer && referencesAny(node.initializer, untyped)) addBound(node.name);
      if ((ts.isForOfStatement(node) || ts.isForInStatement(node)) && referencesAny(node.expression, untyped) && ts.isVariableDeclarationList(node.initializer)) {
        for (const declaration of node.initializer.declarations) addBound(declaration.name);
      }
      if (ts.isCallExpression(node) && referencesAny(node.expression, untyped)) {
        for (const argument of node.arguments) if (ts.isArrowFunction(argument) || ts.isFunctionExpression(argument)) for (const parameter of argument.parameters) addBound(parameter.name);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return declarations;
}

interface Untyped {
  declarations: ReadonlySet<ts.Node>;
  declarationOf: DeclarationOf;
}

/**
 * Whether the expression a diagnostic at `position` sits in reads one of the `untyped` declarations: from the
 * innermost node at that position up through its enclosing expressions, stopping at a statement or a function.
 */
export function diagnosticReadsAny(sourceFile: ts.SourceFile, position: number, declarations: ReadonlySet<ts.Node>, declarationOf: DeclarationOf): boolean {
  if (declarations.size === 0) return false;
  const untyped: Untyped = { declarations, declarationOf };
  let node: ts.Node | undefined = innermostAt(sourceFile, position);
  while (node && !ts.isStatement(node) && !ts.isBlock(node) && !ts.isSourceFile(node)) {
    if (ts.isFunctionLike(node)) return false;
    if (referencesAny(node, untyped)) return true;
    node = node.parent;
  }
  return false;
}

function innermostAt(sourceFile: ts.SourceFile, position: number): ts.Node {
  let found: ts.Node = sourceFile;
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(sourceFile) || position >= node.getEnd()) return;
    found = node;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return found;
}

/** Whether `node` reads one of the untyped declarations (a property name after a dot is not a read of a variable). */
function referencesAny(node: ts.Node, untyped: Untyped): boolean {
  if (ts.isIdentifier(node)) {
    const declaration = untyped.declarationOf(node);
    return declaration !== undefined && untyped.declarations.has(declaration);
  }
  if (ts.isPropertyAccessExpression(node)) return referencesAny(node.expression, untyped);
  return ts.forEachChild(node, (child) => (referencesAny(child, untyped) ? true : undefined)) ?? false;
}

/** The identifiers a binding name declares: itself, or each of a destructuring pattern's, nested. */
function boundNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)));
}
