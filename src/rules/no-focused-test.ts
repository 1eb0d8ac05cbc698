import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding, type TextEdit } from './types.ts';

export default defineRule({
  id: 'no-focused-test',
  description: 'Disallows test.only and test.describe.only, which make the runner skip every other test.',
  fixable: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      // Cheap first: a written member must be `only`; only an alias (`const solo = test.only`) needs following.
      const callee = model.unwrap(call.expression);
      if (!ts.isIdentifier(callee) && model.memberName(callee) !== 'only') continue;
      const path = model.playwrightPath(callee);
      if (!path?.startsWith('test.') || !path.endsWith('.only')) continue;
      findings.push({
        node: call,
        message: `${path}() makes the runner skip every other test in the run; remove \`.only\` (use \`npx playwright test -g "<title>"\` to run one test locally).`,
        fix: removeOnlyFix(model, call),
      });
    }
    return findings;
  },
});

/** Removes `.only` (or `['only']`) where it is written on the call; an alias (`const focus = test.only`) is left to a person. */
function removeOnlyFix(model: SpecModel, call: ts.CallExpression): TextEdit[] | undefined {
  const callee = model.unwrap(call.expression);
  if (!(ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) || model.memberName(callee) !== 'only') return undefined;
  return [{ start: callee.expression.end, end: callee.end, text: '' }];
}
