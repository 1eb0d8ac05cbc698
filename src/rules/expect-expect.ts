import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { regexSource, ruleOptions } from '../util/zod-helpers.ts';
import { ts } from '../util/typescript.js';
import { ASYNC_MATCHERS } from '../analysis/playwright-api.ts';
import { isExpectation, testCalls, testLabel } from '../analysis/test-steps.ts';
import { defineRule, type Finding } from './types.ts';
import { preparesState } from './utils/setup-steps.ts';

const Options = ruleOptions({
  /** Calls that count as assertions besides expect(...) matchers: a function name or a dotted callee (`assert.ok`). */
  assert_function_names: z.array(z.string().min(1)),
  /** Callee names (the last member) that count as assertions: helpers and page-object methods named like one. */
  assert_function_patterns: z.array(regexSource).default([]),
});

export default defineRule({
  id: 'expect-expect',
  description: 'A spec declares at least one test, and every test asserts something: an expect(...) matcher, directly or in a local helper it calls.',
  fixable: false,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    if (model.tests().length === 0) {
      // A file without a test passes Playwright by running nothing: it checks even less than an empty test.
      return [{ node: 0, message: "the spec declares no test; wrap its steps in test('…', async ({ page }) => { … }) with an expect(...) matcher that checks the outcome." }];
    }
    const assertions = { names: options.assert_function_names, patterns: options.assert_function_patterns.map((pattern) => new RegExp(pattern)) };
    for (const test of model.tests()) {
      if (!test.body || preparesState(model, test)) continue;
      const calls = testCalls(model, test);
      // A helper in another file is looked into only when nothing here asserts: that takes a compiler program.
      if (calls.some((call) => isAssertion(model, call, assertions)) || calls.some((call) => helperAsserts(model, call))) continue;
      findings.push({
        node: test.call,
        message: `${testLabel(model, test)} asserts nothing; add an expect(...) matcher that checks the outcome, e.g. await expect(page.getByTestId('…')).toBeVisible().`,
      });
    }
    return findings;
  },
});

/** What counts as an assertion besides expect: the options, their patterns compiled once per file. */
interface Assertions {
  names: readonly string[];
  patterns: readonly RegExp[];
}

function isAssertion(model: SpecModel, call: ts.CallExpression, assertions: Assertions): boolean {
  if (isExpectation(model, call) || isWebFirstMatcherOnHelper(model, call)) return true;
  const { name } = model.callee(call);
  // Only for helpers from elsewhere: one written in this file is looked into, not trusted by its name.
  if (name !== undefined && assertions.patterns.some((pattern) => pattern.test(name)) && !declaredHere(model, name)) return true;
  if (assertions.names.length === 0) return false;
  const written = model.text(call.expression).replace(/\s+/g, '');
  return assertions.names.some((n) => n === name || n === written);
}

/**
 * `ShopCustomer.expects(locator).toBeVisible()`: a matcher only Playwright's expect has (a web-first one), on
 * what a call returns: the suite's helper or actor fixture hands out Playwright's expect, and the matcher asserts.
 */
function isWebFirstMatcherOnHelper(model: SpecModel, call: ts.CallExpression): boolean {
  const callee = model.unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || !ASYNC_MATCHERS.has(callee.name.text)) return false;
  let subject = model.unwrap(callee.expression);
  while (ts.isPropertyAccessExpression(subject) && subject.name.text === 'not') subject = model.unwrap(subject.expression);
  return ts.isCallExpression(subject);
}

/** With the type check, a helper imported from the project is looked into: does it call expect? */
function helperAsserts(model: SpecModel, call: ts.CallExpression): boolean {
  return model.declarationsElsewhere(call).some((declaration) => callsExpect(declaration, 0));
}

/** A function, method or property of that name declared in this file. */
function declaredHere(model: SpecModel, name: string): boolean {
  const kinds = [ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.PropertyDeclaration, ts.SyntaxKind.PropertyAssignment, ts.SyntaxKind.VariableDeclaration];
  return kinds.some((kind) => model.nodes<ts.NamedDeclaration>(kind).some((d) => d.name !== undefined && ts.isIdentifier(d.name) && d.name.text === name));
}

/** How deep helpers in other files are followed (a helper calling a helper calling expect). */
const MAX_HELPER_DEPTH = 4;

/**
 * Whether a function or method declared in another file calls expect(…) (or expect.soft/poll, test.expect),
 * by its syntax: that file has no model of its own. Helpers it calls in its own file are followed too.
 */
function callsExpect(declaration: ts.Node, depth: number): boolean {
  if (depth > MAX_HELPER_DEPTH) return false;
  const body = ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration;
  if (!body) return false;
  let found = false;
  const localHelpers = new Map<string, ts.Node>();
  for (const statement of declaration.getSourceFile().statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) localHelpers.set(statement.name.text, statement);
  }
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node)) {
      let root: ts.Expression = node.expression;
      while (ts.isPropertyAccessExpression(root) || ts.isCallExpression(root)) root = root.expression;
      if (ts.isIdentifier(root) && root.text === 'expect') found = true;
      else if (ts.isIdentifier(node.expression) && localHelpers.has(node.expression.text) && localHelpers.get(node.expression.text) !== declaration) found = callsExpect(localHelpers.get(node.expression.text)!, depth + 1);
    }
    if (!found) ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}
