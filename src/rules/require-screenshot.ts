import { z } from 'zod';
import { classifyCall, testCalls, testLabel } from '../analysis/test-steps.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  min_per_test: z.number().int().nonnegative(),
});

export default defineRule({
  id: 'require-screenshot',
  description: 'Every test takes screenshots (page/locator.screenshot or toHaveScreenshot), directly or in a local helper.',
  fixable: false,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    for (const test of model.tests()) {
      if (!test.body) continue;
      const taken = testCalls(model, test).filter((call) => classifyCall(model, call) === 'screenshot').length;
      if (taken >= options.min_per_test) continue;
      findings.push({
        node: test.call,
        message: `${testLabel(model, test)} takes ${taken} screenshot${taken === 1 ? '' : 's'}, fewer than the ${options.min_per_test} required; add await page.screenshot({ path: '…' }) or await expect(page).toHaveScreenshot() at the key step.`,
      });
    }
    return findings;
  },
});
