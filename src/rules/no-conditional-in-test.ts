import { ts } from '../util/typescript.js';
import { isFunctionLike, type SpecModel, type TestBlock } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { GLOBAL_OBJECT_NAMES, isAssignmentTarget, valueSite } from '../analysis/syntax.ts';
import { defineRule, type Finding } from './types.ts';
import { preparesState } from './utils/setup-steps.ts';

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
/** Timers: their callback runs when the timer fires, beside the test (sampling the page while it changes), as a handler does. */
const TIMERS = new Set(['setInterval', 'setTimeout']);
const COMPARING = new Set(['sort', 'toSorted']);
const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);
const ONE_PATH = 'a test follows one path: split it into separate tests (or assert the condition with expect) instead';

export default defineRule({
  id: 'no-conditional-in-test',
  description: 'Disallows branches in test bodies (if, ternary, switch, && / || as statements) and catches that swallow failures.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    // A setup or teardown project's step that only prepares state is checked as a hook is: not at all.
    for (const test of model.tests().filter((t) => !preparesState(model, t))) {
      const visit = (node: ts.Node): void => {
        if (isFunctionLike(node) || ts.isFunctionDeclaration(node)) {
          if (runsElsewhere(model, node) || !takesSteps(model, node, new Set())) return;
        }
        const message = problemOf(model, node);
        if (message && !decidedWhenDeclared(model, node, test) && !filtersData(model, node)) findings.push({ node, message });
        ts.forEachChild(node, visit);
      };
      if (test.body?.body) visit(test.body.body);
    }
    return findings;
  },
});

/** The condition of a branch: what an `if`, `?:`, `switch` or `&&`/`||` statement decides by. */
function conditionOf(model: SpecModel, node: ts.Node): ts.Expression | undefined {
  if (ts.isConditionalExpression(node)) return node.condition;
  if (ts.isIfStatement(node) || ts.isSwitchStatement(node)) return node.expression;
  if (ts.isExpressionStatement(node)) {
    const e = statementExpression(model, node.expression);
    return ts.isBinaryExpression(e) ? e.left : undefined;
  }
  return undefined;
}

/**
 * `for (const scenario of matrix) test(…, () => { if (scenario === 'navigate') … })`: a condition on nothing but
 * the parameters of the function or the loop that declares the test (and literals), directly or through a
 * `const` computed from them alone (`const expectRequest = preload && !reloadDocument`), is decided when the
 * test is declared; each generated test takes one path, named in its title.
 */
function decidedWhenDeclared(model: SpecModel, node: ts.Node, test: TestBlock): boolean {
  const condition = conditionOf(model, node);
  return condition !== undefined && decidedExpression(model, condition, test, new Set());
}

function decidedExpression(model: SpecModel, expression: ts.Expression, test: TestBlock, seen: Set<ts.Node>): boolean {
  let decided = true;
  const visit = (child: ts.Node): void => {
    if (!decided) return;
    if (ts.isCallExpression(child) || ts.isAwaitExpression(child) || isFunctionLike(child)) decided = false;
    else if (ts.isPropertyAccessExpression(child)) visit(child.expression);
    else if (ts.isIdentifier(child)) decided = child.text === 'undefined' || declaresTheTest(model, child, test) || constantOfDeclared(model, child, test, seen);
    else ts.forEachChild(child, visit);
  };
  visit(expression);
  return decided;
}

/**
 * A `const` whose initialiser is decided when the test is declared (decidedExpression), followed once per
 * declaration. One that makes an object or array is not: the test may fill it (`const texts = []`, then push).
 */
function constantOfDeclared(model: SpecModel, identifier: ts.Identifier, test: TestBlock, seen: Set<ts.Node>): boolean {
  const declaration = model.declarationOf(identifier);
  if (!declaration || seen.has(declaration) || !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || !declaration.initializer) return false;
  if (!ts.isVariableDeclarationList(declaration.parent) || (declaration.parent.flags & ts.NodeFlags.Const) === 0 || makesAnObject(declaration.initializer)) return false;
  seen.add(declaration);
  return decidedExpression(model, declaration.initializer, test, seen);
}

function makesAnObject(node: ts.Node): boolean {
  if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node) || ts.isNewExpression(node)) return true;
  return ts.forEachChild(node, (child) => makesAnObject(child) || undefined) ?? false;
}

/** Whether an identifier is a parameter (or loop variable) of a function or loop the test is declared in, never assigned. */
function declaresTheTest(model: SpecModel, identifier: ts.Identifier, test: TestBlock): boolean {
  const declaration = model.declarationOf(identifier);
  if (!declaration) return false;
  let binding: ts.Node = declaration;
  while (ts.isBindingElement(binding) || ts.isObjectBindingPattern(binding) || ts.isArrayBindingPattern(binding)) binding = binding.parent;
  const owner = ts.isParameter(binding) ? binding.parent : ts.isVariableDeclaration(binding) && ts.isVariableDeclarationList(binding.parent) && ts.isForOfStatement(binding.parent.parent) && (binding.parent.flags & ts.NodeFlags.Const) !== 0 ? binding.parent.parent : undefined;
  if (!owner || owner === test.body || !encloses(owner, test.call)) return false;
  return model.referencesTo(declaration).every((reference) => !isAssignmentTarget(reference));
}

function encloses(outer: ts.Node, inner: ts.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end && inner.getSourceFile() === outer.getSourceFile();
}

/**
 * `for (const step of trace) { if (step.file.includes('gen')) continue; expect(step.line)… }`: an `if` in a loop of
 * the test that only skips a record, on a condition that takes no step (no await, assertion or Playwright call),
 * filters the records the loop checks, as `.filter` would; every run does the same.
 */
function filtersData(model: SpecModel, node: ts.Node): boolean {
  if (!ts.isIfStatement(node) || node.elseStatement || !inLoop(node) || takesSteps(model, node, new Set())) return false;
  const then = ts.isBlock(node.thenStatement) ? node.thenStatement.statements : [node.thenStatement];
  return then.length > 0 && then.every((statement) => ts.isContinueStatement(statement));
}

/** Whether a statement sits in a loop's body within its own function. */
function inLoop(node: ts.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionLike(current) || ts.isFunctionDeclaration(current) || ts.isMethodDeclaration(current)) return false;
    if (ts.isIterationStatement(current, false)) return true;
  }
  return false;
}

function problemOf(model: SpecModel, node: ts.Node): string | undefined {
  // One look at the kind: this runs for every node of every test body.
  switch (node.kind) {
    case ts.SyntaxKind.IfStatement:
      return isGuard(model, node as ts.IfStatement) ? undefined : `\`if\` in a test makes what it checks depend on the run; ${ONE_PATH}.`;
    case ts.SyntaxKind.ConditionalExpression:
      return `A conditional expression (\`?:\`) in a test makes what it checks depend on the run; ${ONE_PATH}.`;
    case ts.SyntaxKind.SwitchStatement:
      return `\`switch\` in a test makes what it checks depend on the run; ${ONE_PATH}.`;
    case ts.SyntaxKind.ExpressionStatement: {
      const e = statementExpression(model, (node as ts.ExpressionStatement).expression);
      if (ts.isBinaryExpression(e) && LOGICAL.has(e.operatorToken.kind)) {
        return `\`${e.operatorToken.getText(model.sourceFile)}\` used as a statement is an \`if\` in disguise: the right side runs only sometimes; ${ONE_PATH}.`;
      }
      return undefined;
    }
    case ts.SyntaxKind.TryStatement: {
      const statement = node as ts.TryStatement;
      if (statement.catchClause && !rethrows(statement.catchClause.block) && !recordsForAnAssertion(model, statement) && !retries(model, statement)) {
        return 'This try/catch swallows failures: its catch does not rethrow, so a failing step or assertion passes silently; remove the try/catch and let the test fail (or rethrow).';
      }
      return undefined;
    }
    case ts.SyntaxKind.CallExpression: {
      const { name, receiver } = model.callee(node as ts.CallExpression);
      if (name === 'catch' && receiver && !handlerRethrows(node as ts.CallExpression)) {
        return '`.catch(…)` swallows the failure of this promise, so a failing step passes silently; remove it and let the test fail.';
      }
      if (name === 'then' && receiver && (node as ts.CallExpression).arguments.length > 1 && !handlerRethrows(node as ts.CallExpression, 1)) {
        return '`.then(…, onRejected)` swallows the failure of this promise, so a failing step passes silently; remove the second handler and let the test fail.';
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * `if (!token) throw new Error('…')`, `if (browserName === 'webkit') test.skip()`: the test stops (fails,
 * or is skipped and says so in the report) or goes on along its one path; nothing is checked only sometimes.
 */
function isGuard(model: SpecModel, node: ts.IfStatement): boolean {
  if (node.elseStatement) return false;
  const then = node.thenStatement;
  const statements = ts.isBlock(then) ? then.statements : [then];
  const stops = (statement: ts.Statement) => ts.isThrowStatement(statement) || (ts.isExpressionStatement(statement) && isSkipCall(model, statement.expression));
  return statements.length > 0 && stops(statements[0]!) && statements.slice(1).every((s) => ts.isReturnStatement(s) && !s.expression);
}

/**
 * Whether a function does something a test does: awaits, asserts, calls on a Playwright object or hands one
 * on, or calls a function of its own that does. One that only computes a value (a `reduce` or `map` callback,
 * a recursive search through data, like a sort comparator) shapes data: its branches are not a path of the test.
 */
function takesSteps(model: SpecModel, fn: ts.Node, seen: Set<ts.Node>): boolean {
  seen.add(fn);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isAwaitExpression(node) || ts.isYieldExpression(node)) found = true;
    else if (ts.isCallExpression(node)) found = isStep(model, node, seen);
    if (!found) ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn, visit);
  return found;
}

function isStep(model: SpecModel, call: ts.CallExpression, seen: Set<ts.Node>): boolean {
  const path = model.playwrightPath(call.expression);
  if (path !== undefined && /^(expect|test)\b/.test(path)) return true;
  const { receiver } = model.callee(call);
  if (receiver !== undefined && model.kindOf(receiver) !== 'unknown') return true;
  if (call.arguments.some((argument) => model.kindOf(argument) !== 'unknown')) return true;
  const local = model.localFunction(call);
  if (local) return !seen.has(local) && takesSteps(model, local, seen);
  // An imported or passed-in function may do anything; a method of a value (`x.toString()`, `list.map`) computes.
  return receiver === undefined;
}

/**
 * `try { await check(153); } catch { await check(154); }`: the catch makes the same call again (another value,
 * another wait), and its last attempt is not caught, so a failure still fails the test.
 */
function retries(model: SpecModel, node: ts.TryStatement): boolean {
  const tried = new Set(node.tryBlock.statements.map((statement) => attempted(model, statement)).filter((callee) => callee !== undefined));
  const last = node.catchClause?.block.statements.at(-1);
  if (!last || tried.size === 0) return false;
  if (ts.isTryStatement(last)) return last.tryBlock.statements.some((statement) => tried.has(attempted(model, statement) ?? '')) && retries(model, last);
  return tried.has(attempted(model, last) ?? '');
}

/** The callee a statement calls (`check` of `await check(154);`). */
function attempted(model: SpecModel, statement: ts.Statement): string | undefined {
  if (!ts.isExpressionStatement(statement)) return undefined;
  const e = statementExpression(model, statement.expression);
  return ts.isCallExpression(e) ? model.text(e.expression) : undefined;
}

/** `test.skip()`, `test.fixme(…)`, `testInfo.skip()`: the test stops here and is reported as skipped. */
export function isSkipCall(model: SpecModel, expr: ts.Expression): boolean {
  let e = model.unwrap(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (!ts.isCallExpression(e)) return false;
  const path = model.playwrightPath(e.expression);
  if (path === 'test.skip' || path === 'test.fixme') return true;
  const { name, receiver } = model.callee(e);
  return (name === 'skip' || name === 'fixme') && receiver !== undefined && /^(testInfo|info)$/.test(model.text(receiver));
}

/**
 * `try { … } catch { failed = true; }` followed by `expect(failed)…`: the catch records the failure for an
 * assertion that comes after it, so nothing is swallowed.
 */
function recordsForAnAssertion(model: SpecModel, node: ts.TryStatement): boolean {
  // Not an assertion's own failure: its message says how long it waited, which is shorter in the proof's copy.
  if (holdsAssertion(node.tryBlock)) return false;
  const statements = node.catchClause!.block.statements;
  const recorded = statements.map((statement) => {
    const e = ts.isExpressionStatement(statement) ? model.unwrap(statement.expression) : undefined;
    return e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(e.left) ? e.left.text : undefined;
  });
  if (recorded.length === 0 || recorded.some((name) => name === undefined)) return false;
  const block = node.parent;
  if (!ts.isBlock(block)) return false;
  const after = block.statements.slice(block.statements.indexOf(node) + 1);
  return recorded.every((name) => after.some((statement) => assertsOn(model, statement, name!)));
}

function holdsAssertion(block: ts.Block): boolean {
  const visit = (node: ts.Node): boolean => (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'expect') || (ts.forEachChild(node, visit) ?? false);
  return visit(block);
}

/** Whether a statement holds an `expect(…)` whose subject mentions `name`. */
function assertsOn(model: SpecModel, statement: ts.Node, name: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'expect' && node.arguments[0] && mentions(node.arguments[0], name)) found = true;
    else ts.forEachChild(node, visit);
  };
  visit(statement);
  return found;
}

function mentions(node: ts.Node, name: string): boolean {
  if (ts.isIdentifier(node)) return node.text === name;
  return ts.forEachChild(node, (child) => mentions(child, name) || undefined) ?? false;
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

function handlerRethrows(call: ts.CallExpression, index = 0): boolean {
  const handler = call.arguments[index];
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
  const argument = valueSite(node);
  const call = argument.parent;
  if (!ts.isCallExpression(call) || !call.arguments.includes(argument as ts.Expression)) return false;
  const { name, receiver } = model.callee(call);
  if (name !== undefined && receiver !== undefined && RUNS_ELSEWHERE.has(name)) return true;
  if (isGlobalTimer(model, name, receiver)) return true;
  // A sort comparator orders data; its branches are how a comparison is written.
  if (name !== undefined && receiver !== undefined && COMPARING.has(name)) return true;
  if (passedOnToElsewhere(model, call, call.arguments.indexOf(argument as ts.Expression))) return true;
  // Polled until it holds: expect.poll(() => …) and expect(async () => …).toPass().
  return model.playwrightPath(call.expression) === 'expect.poll' || isToPassSubject(model, call);
}

/** `setTimeout(…)` or `setInterval(…)`, also on the global object (not a local of its name): its callback runs later, beside the test. */
function isGlobalTimer(model: SpecModel, name: string | undefined, receiver: ts.Expression | undefined): boolean {
  if (name === undefined || !TIMERS.has(name)) return false;
  if (receiver === undefined) return true;
  const base = model.unwrap(receiver);
  return ts.isIdentifier(base) && GLOBAL_OBJECT_NAMES.has(base.text) && !model.declarationOf(base);
}

/** `runInBrowser(page, () => …)` where the local helper hands that parameter to page.evaluate (or another RUNS_ELSEWHERE call). */
function passedOnToElsewhere(model: SpecModel, call: ts.CallExpression, index: number): boolean {
  const helper = model.localFunction(call);
  const parameter = helper?.parameters[index];
  if (!parameter || !ts.isIdentifier(parameter.name)) return false;
  const references = model.referencesTo(parameter);
  return references.length > 0 && references.some((reference) => {
    const parent = reference.parent;
    if (!ts.isCallExpression(parent) || !parent.arguments.includes(reference)) return false;
    const { name, receiver } = model.callee(parent);
    return name !== undefined && receiver !== undefined && RUNS_ELSEWHERE.has(name);
  });
}

function isToPassSubject(model: SpecModel, call: ts.CallExpression): boolean {
  if (model.playwrightPath(call.expression) !== 'expect') return false;
  let outer: ts.Node = call;
  while (ts.isPropertyAccessExpression(outer.parent) || (ts.isCallExpression(outer.parent) && outer.parent.expression !== outer)) outer = outer.parent;
  return ts.isPropertyAccessExpression(outer) && outer.name.text === 'toPass';
}
