import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText } from './utils/ast.ts';

export default defineRule({
  id: 'no-page-pause',
  description: 'Disallows page.pause(), which stops the run for a debugger.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (name !== 'pause' || !receiver || model.kindOf(receiver) !== 'page') continue;
      findings.push({
        node: call,
        message: `${calleeText(model, call)}() stops the run and waits for a debugger, so the test hangs in CI; remove it (debug with \`npx playwright test --debug\` instead).`,
      });
    }
    return findings;
  },
});
