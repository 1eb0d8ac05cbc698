import { ts } from 'ts-morph';
import { noOptions } from '../config/zod-helpers.ts';
import { isFunctionLike, type SpecModel } from '../validate/model.ts';
import { defineRule, type Finding } from './types.ts';

/**
 * Methods whose function argument does not run as a step of the test: it runs in the browser
 * (evaluate, $eval, init scripts) or as a handler or predicate when something happens (route, on,
 * waitForResponse). Branches there are how such code is written, not a test taking two paths.
 */
const RUNS_ELSEWHERE = new Set([
  'evaluate', 'evaluateAll', 'evaluateHandle', '$eval', '$$eval', 'waitForFunction', 'addInitScript',
  'exposeFunction', 'exposeBinding', 'route', 'routeWebSocket', 'unroute', 'on', 'once', 'addListener',
  'prependListener', 'waitForEvent', 'waitForResponse', 'waitForRequest', 'waitForURL', 'addLocatorHandler',
]);
const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);
const ONE_PATH = 'a test follows one path: split it into separate tests (or assert the condition with expect) instead';

export default defineRule({
  id: 'no-conditional-in-test',
  description: 'Disallows branches in test bodies (if, ternary, switch, && / || as statements) and catches that swallow failures.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    const visit = (node: ts.Node): void => {
      if (isFunctionLike(node) || ts.isFunctionDeclaration(node)) {
        if (runsElsewhere(model, node)) return;
      }
      const message = problemOf(model, node);
      if (message) findings.push({ node, message });
      ts.forEachChild(node, visit);
    };
    for (const test of model.tests()) {
      if (test.body?.body) visit(test.body.body);
    }
    return findings;
  },
});

function problemOf(model: SpecModel, node: ts.Node): string | undefined {
  if (ts.isIfStatement(node)) return `\`if\` in a test makes what it checks depend on the run; ${ONE_PATH}.`;
  if (ts.isConditionalExpression(node)) return `A conditional expression (\`?:\`) in a test makes what it checks depend on the run; ${ONE_PATH}.`;
  if (ts.isSwitchStatement(node)) return `\`switch\` in a test makes what it checks depend on the run; ${ONE_PATH}.`;
  if (ts.isExpressionStatement(node)) {
    const e = statementExpression(model, node.expression);
    if (ts.isBinaryExpression(e) && LOGICAL.has(e.operatorToken.kind)) {
      return `\`${e.operatorToken.getText(model.sourceFile)}\` used as a statement is an \`if\` in disguise: the right side runs only sometimes; ${ONE_PATH}.`;
    }
  }
  if (ts.isTryStatement(node) && node.catchClause && !rethrows(node.catchClause.block)) {
    return 'This try/catch swallows failures: its catch does not rethrow, so a failing step or assertion passes silently; remove the try/catch and let the test fail (or rethrow).';
  }
  if (ts.isCallExpression(node) && model.callee(node).name === 'catch' && model.callee(node).receiver && !handlerRethrows(node)) {
    return '`.catch(…)` swallows the failure of this promise, so a failing step passes silently; remove it and let the test fail.';
  }
  return undefined;
}

function statementExpression(model: SpecModel, expr: ts.Expression): ts.Expression {
  let e = model.unwrap(expr);
  while (ts.isAwaitExpression(e) || ts.isVoidExpression(e)) e = model.unwrap(e.expression);
  return e;
}

/** Whether a block throws somewhere of its own (a throw inside a nested function does not count). */
function rethrows(block: ts.Node): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found || isFunctionLike(node) || ts.isFunctionDeclaration(node)) return;
    if (ts.isThrowStatement(node)) found = true;
    else ts.forEachChild(node, visit);
  };
  ts.forEachChild(block, visit);
  return found;
}

function handlerRethrows(call: ts.CallExpression): boolean {
  const handler = call.arguments[0];
  if (!handler || !isFunctionLike(handler)) return false;
  return ts.isBlock(handler.body) ? rethrows(handler.body) : false;
}

/** A function handed to the browser or registered as a handler or predicate, directly or through a variable. */
function runsElsewhere(model: SpecModel, fn: ts.Node): boolean {
  if (isHandedToElsewhere(model, fn)) return true;
  const declaration = ts.isFunctionDeclaration(fn) ? fn : ts.isVariableDeclaration(fn.parent) && fn.parent.initializer === fn ? fn.parent : undefined;
  if (!declaration) return false;
  const references = model.referencesTo(declaration);
  return references.length > 0 && references.every((reference) => isHandedToElsewhere(model, reference));
}

function isHandedToElsewhere(model: SpecModel, node: ts.Node): boolean {
  let argument: ts.Node = node;
  while (ts.isParenthesizedExpression(argument.parent)) argument = argument.parent;
  const call = argument.parent;
  if (!ts.isCallExpression(call) || !call.arguments.includes(argument as ts.Expression)) return false;
  const { name, receiver } = model.callee(call);
  return name !== undefined && receiver !== undefined && RUNS_ELSEWHERE.has(name);
}
