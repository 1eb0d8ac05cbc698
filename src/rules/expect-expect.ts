import { z } from 'zod';
import { ruleOptions } from '../config/zod-helpers.ts';
import type { SpecModel } from '../validate/model.ts';
import type { ts } from 'ts-morph';
import { isExpectation, testCalls, testLabel } from './test-steps.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  /** Calls that count as assertions besides expect(...) matchers: a function name or a dotted callee (`assert.ok`). */
  assert_function_names: z.array(z.string().min(1)),
});
type Options = z.infer<typeof Options>;

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
    for (const test of model.tests()) {
      if (!test.body || testCalls(model, test).some((call) => isAssertion(model, call, options))) continue;
      findings.push({
        node: test.call,
        message: `${testLabel(model, test)} asserts nothing; add an expect(...) matcher that checks the outcome, e.g. await expect(page.getByTestId('…')).toBeVisible().`,
      });
    }
    return findings;
  },
});

function isAssertion(model: SpecModel, call: ts.CallExpression, options: Options): boolean {
  if (isExpectation(model, call)) return true;
  if (options.assert_function_names.length === 0) return false;
  const { name } = model.callee(call);
  const written = model.text(call.expression).replace(/\s+/g, '');
  return options.assert_function_names.some((n) => n === name || n === written);
}
