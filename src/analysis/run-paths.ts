/**
 * Where code written outside a test runs in it. A helper's or page object's method runs at each call of it, a
 * constructor (and a class's field initialisers) at each `new`, a getter where its member is read. A position
 * in the flow is therefore a path: the call sites from the file's top-level code (a test body, a hook, a
 * fixture) inward, then the node's own position, compared in that order. `cart.open()` in a test at 900,
 * whose method navigates at 120, navigates at [900, 120]: after what the test did before 900, before what it
 * does after.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import type { SpecModel } from './model.ts';
import { isDeclaredFunction } from './syntax.ts';

export type RunPath = readonly number[];

/**
 * The paths at which a node runs, at `position` within its own function. None for a class member nothing in
 * the file uses (a page object's method for another test); its source position for a function nothing in the
 * file calls, which may run anyway (a fixture `test.extend` calls, an exported helper).
 */
export function runPaths(model: SpecModel, node: ts.Node, position: number, depth = 0): RunPath[] {
  const declared = declaringFunction(node);
  if (!declared || depth > MAX_DEPTH) return [[position]];
  const sites = callSites(model, declared);
  if (sites.length === 0) return isClassMember(declared) ? [] : [[position]];
  return sites.flatMap((site) => runPaths(model, site, site.getStart(), depth + 1).map((path) => [...path, position]));
}

function isClassMember(declared: ts.Node): boolean {
  return ts.isClassLike(declared) || ts.isClassLike(declared.parent);
}

/** The earliest of several paths. */
export function earliest(paths: readonly RunPath[]): RunPath | undefined {
  return paths.reduce<RunPath | undefined>((first, path) => (first === undefined || comparePaths(path, first) < 0 ? path : first), undefined);
}

/** Lexicographic: the outer call sites first; a path that is a prefix of another runs before it. */
export function comparePaths(a: RunPath, b: RunPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The innermost function, method, constructor, getter or class (for a field's initialiser) whose code runs where it is called, not where it is written. */
function declaringFunction(node: ts.Node): ts.Node | undefined {
  for (let n = node.parent; n; n = n.parent) if (isDeclaredFunction(n)) return n;
  return undefined;
}

/** Where the file calls, constructs or reads it. */
function callSites(model: SpecModel, declared: ts.Node): ts.Node[] {
  if (ts.isConstructorDeclaration(declared)) return constructions(model, declared.parent);
  if (ts.isClassLike(declared)) return constructions(model, declared);
  if (ts.isGetAccessorDeclaration(declared)) {
    const name = declared.name.getText(model.sourceFile);
    // A read of the member, not a call of a method of the same name (`locator.first()`).
    return model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression).filter((access) => access.name.text === name && !within(access, declared) && !(ts.isCallExpression(access.parent) && access.parent.expression === access));
  }
  return model.calls.filter((call) => !within(call, declared) && model.localFunction(call) === declared);
}

/** `new LoginPage(page)` of a class, by its name. */
function constructions(model: SpecModel, cls: ts.ClassLikeDeclaration): ts.Node[] {
  const name = cls.name?.text;
  if (!name) return [];
  return model.nodes<ts.NewExpression>(ts.SyntaxKind.NewExpression).filter((created) => ts.isIdentifier(created.expression) && created.expression.text === name);
}

function within(node: ts.Node, container: ts.Node): boolean {
  return node.pos >= container.pos && node.end <= container.end;
}
