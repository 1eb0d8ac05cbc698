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
    for (const call of model.calls) {
      const what = promiseKind(model, call);
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
function promiseKind(model: SpecModel, call: ts.CallExpression): string | undefined {
  const expectation = model.expectation(call);
  if (expectation) {
    const isAsync = ASYNC_MATCHERS.has(expectation.matcher) || expectation.flavour === 'expect.poll' || expectation.modifiers.includes('resolves') || expectation.modifiers.includes('rejects');
    return isAsync ? `The matcher ${expectation.matcher}()` : undefined;
  }
  if (model.playwrightPath(call.expression) === 'test.step') return 'test.step()';
  const { name, receiver } = model.callee(call);
  if (!name || !receiver || !ASYNC_METHODS.has(name)) return undefined;
  return PLAYWRIGHT_OBJECTS.has(model.kindOf(receiver)) ? `${calleeText(model, call)}()` : undefined;
}

/** Inserting `await` is safe only where the call is a statement of its own in an async function. */
function awaitFix(model: SpecModel, call: ts.CallExpression) {
  if (!ts.isExpressionStatement(call.parent) || !inAsyncFunction(call)) return undefined;
  const start = call.getStart(model.sourceFile);
  return [{ start, end: start, text: 'await ' }];
}
