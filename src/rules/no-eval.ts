import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText, mayBePlaywrightObject } from './utils/ast.ts';

const INSTEAD: Record<string, string> = {
  $eval: 'a locator with a web-first assertion (await expect(page.locator(selector)).toHaveText(...)), or locator.evaluate() when a script is truly needed',
  $$eval: 'a locator with a web-first assertion (await expect(page.locator(selector)).toHaveCount(n) / toHaveText([...])), or locator.evaluateAll() when a script is truly needed',
};

export default defineRule({
  id: 'no-eval',
  description: 'Disallows $eval and $$eval, which bypass locators and auto-waiting.',
  fixable: false,
  safety: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver || !Object.hasOwn(INSTEAD, name)) continue;
      // `$eval` is distinctive enough to trust on a value the analysis cannot name.
      if (!mayBePlaywrightObject(model, receiver)) continue;
      findings.push({
        node: call,
        message: `${calleeText(model, call)}() runs a script on elements found once, without a locator's auto-waiting or retries; use ${INSTEAD[name]} instead.`,
      });
    }
    return findings;
  },
});
