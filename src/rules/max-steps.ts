import { z } from 'zod';
import { classifyCall, testCalls, testLabel } from '../analysis/test-steps.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  max: z.number().int().positive(),
});

export default defineRule({
  id: 'max-steps',
  description: 'A test performs at most `max` user actions and navigations, counted through local helpers.',
  fixable: false,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    for (const test of model.tests()) {
      const steps = testCalls(model, test).filter((call) => {
        const kind = classifyCall(model, call);
        return kind === 'action' || kind === 'navigation';
      }).length;
      if (steps <= options.max) continue;
      findings.push({
        node: test.call,
        message: `${testLabel(model, test)} has ${steps} steps (user actions and navigations), more than the ${options.max} allowed; split it into smaller tests, or move shared setup into a beforeEach hook or a fixture.`,
      });
    }
    return findings;
  },
});
