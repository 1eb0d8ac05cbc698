import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { ASYNC_MATCHERS, ASYNC_METHODS, PLAYWRIGHT_OBJECTS } from '../analysis/playwright-api.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText, inAsyncFunction } from './utils/ast.ts';

export default defineRule({
  id: 'missing-playwright-await',
  description: 'Playwright actions, navigations, async matchers and test.step must be awaited.',
  fixable: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    const customMatchers = asyncCustomMatchers(model);
    for (const call of model.calls) {
      const what = promiseKind(model, call, customMatchers);
      if (!what || model.isAwaited(call)) continue;
      findings.push({
        node: call,
        message: `${what} returns a promise that is not awaited; add \`await\` so the test waits for it.`,
        fix: awaitFix(model, call),
      });
    }
    return findings;
  },
});

/** What kind of promise a call makes, for the message; undefined when it makes none we track. */
function promiseKind(model: SpecModel, call: ts.CallExpression, customMatchers: ReadonlySet<string>): string | undefined {
  const expectation = model.expectation(call);
  if (expectation) {
    const isAsync = ASYNC_MATCHERS.has(expectation.matcher) || customMatchers.has(expectation.matcher) || expectation.flavour === 'expect.poll' || expectation.modifiers.includes('resolves') || expectation.modifiers.includes('rejects');
    return isAsync ? `The matcher ${expectation.matcher}()` : undefined;
  }
  if (model.playwrightPath(call.expression) === 'test.step') return 'test.step()';
  const { name, receiver } = model.callee(call);
  if (!name || !receiver || !ASYNC_METHODS.has(name)) return undefined;
  return PLAYWRIGHT_OBJECTS.has(model.kindOf(receiver)) ? `${calleeText(model, call)}()` : undefined;
}

/**
 * The async matchers the file adds with `expect.extend({ async toHaveAmount(…) { … } })` (also as
 * `name: async (…) => …`, on an alias of expect): each returns a promise as Playwright's own web-first ones do.
 */
function asyncCustomMatchers(model: SpecModel): Set<string> {
  const names = new Set<string>();
  for (const call of model.calls) {
    if (model.playwrightPath(call.expression) !== 'expect.extend') continue;
    const matchers = call.arguments[0] && model.unwrap(call.arguments[0]);
    if (!matchers || !ts.isObjectLiteralExpression(matchers)) continue;
    for (const member of matchers.properties) {
      const fn = ts.isMethodDeclaration(member) ? member : ts.isPropertyAssignment(member) ? model.unwrap(member.initializer) : undefined;
      const isAsync = fn !== undefined && (ts.isMethodDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && (ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async) !== 0;
      if (isAsync && member.name && (ts.isIdentifier(member.name) || ts.isStringLiteralLike(member.name))) names.add(member.name.text);
    }
  }
  return names;
}

/** Inserting `await` is safe only where the call is a statement of its own in an async function. */
function awaitFix(model: SpecModel, call: ts.CallExpression) {
  if (!ts.isExpressionStatement(call.parent) || !inAsyncFunction(call)) return undefined;
  const start = call.getStart(model.sourceFile);
  return [{ start, end: start, text: 'await ' }];
}
