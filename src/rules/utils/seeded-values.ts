import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { PLAYWRIGHT_BUILTIN_FIXTURES, PLAYWRIGHT_MODULES } from '../../analysis/playwright-api.ts';

/** The calls that type a value into a field. */
export const TYPING_METHODS = new Set(['fill', 'type', 'pressSequentially']);

/**
 * `const token = 'seed-1'; await prisma.apiToken.create({ data: { token } })`: a value the test writes into
 * its own database (a module of the project's, not Playwright) before using it is test data it creates.
 */
export function seededByTheTest(model: SpecModel, literal: ts.Node): boolean {
  const declaration = literal.parent;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== literal || !ts.isIdentifier(declaration.name)) return false;
  return model.referencesTo(declaration).some((reference) => {
    for (let node: ts.Node = reference; node.parent; node = node.parent) {
      const call = node.parent;
      if (ts.isCallExpression(call) && call.arguments.includes(node as ts.Expression)) return isProjectModuleCall(model, call);
      if (ts.isStatement(node)) return false;
    }
    return false;
  });
}

/**
 * A call on something of the project's own, not Playwright's: imported from a module that is not Playwright
 * (`prisma.x.create`, `db.insert`), or a fixture the suite defines (`TestDataService.createCustomer({ password })`
 * with `TestDataService` taken from the test's fixtures, not one of Playwright's such as `page` or `request`).
 */
function isProjectModuleCall(model: SpecModel, call: ts.CallExpression): boolean {
  const module = model.chainModule(call.expression);
  if (module !== undefined) return !PLAYWRIGHT_MODULES.includes(module);
  // Typing it into a field of the fixture's page object signs in with it; it does not create it.
  if (TYPING_METHODS.has(model.callee(call).name ?? '')) return false;
  const root = chainRoot(model, call.expression);
  const declaration = root && model.declarationOf(root);
  return declaration !== undefined && isProjectFixture(declaration);
}

function chainRoot(model: SpecModel, expr: ts.Expression): ts.Identifier | undefined {
  let root = model.unwrap(expr);
  while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root) || ts.isCallExpression(root)) root = model.unwrap(root.expression);
  return ts.isIdentifier(root) ? root : undefined;
}

/** `{ TestDataService }` destructured from a function's first parameter (a test's fixtures) and not one Playwright provides. */
function isProjectFixture(declaration: ts.Node): boolean {
  if (!ts.isBindingElement(declaration) || !ts.isObjectBindingPattern(declaration.parent)) return false;
  const parameter = declaration.parent.parent;
  if (!ts.isParameter(parameter) || parameter.parent.parameters[0] !== parameter) return false;
  const key = declaration.propertyName ?? declaration.name;
  return ts.isIdentifier(key) && !PLAYWRIGHT_BUILTIN_FIXTURES.has(key.text);
}
