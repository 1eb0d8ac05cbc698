import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText, mayBePlaywrightObject } from './utils/ast.ts';

export default defineRule({
  id: 'no-wait-for-navigation',
  description: 'Disallows the deprecated waitForNavigation; use waitForURL or expect(page).toHaveURL.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (name !== 'waitForNavigation' || !receiver) continue;
      if (!mayBePlaywrightObject(model, receiver)) continue;
      const url = call.arguments[0] ? model.property(call.arguments[0], 'url') : undefined;
      const target = url ? model.text(url.value) : "'/expected-path'";
      const page = model.text(receiver);
      findings.push({
        node: call,
        message: `${calleeText(model, call)}() is deprecated and racy (it can miss a navigation that already happened); use await ${page}.waitForURL(${target}) or await expect(${page}).toHaveURL(${target}) after the action instead.`,
      });
    }
    return findings;
  },
});
