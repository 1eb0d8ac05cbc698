import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText, mayBePlaywrightObject } from './utils/ast.ts';
import { removePropertyFix, removeStatementFix } from './utils/fixes.ts';

const NETWORK_IDLE = 'networkidle';
/** Methods whose options take `waitUntil` (Page and Frame). */
const WAIT_UNTIL_METHODS = new Set(['goto', 'reload', 'goBack', 'goForward', 'setContent', 'waitForURL', 'waitForNavigation']);
const ADVICE = "wait for what the test needs instead: await expect(locator).toBeVisible(), or waitForResponse for a specific request";

export default defineRule({
  id: 'no-networkidle',
  description: "Disallows waiting for 'networkidle' (waitForLoadState and waitUntil), which is discouraged and flaky.",
  fixable: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver || (name !== 'waitForLoadState' && !WAIT_UNTIL_METHODS.has(name))) continue;
      if (!mayBePlaywrightObject(model, receiver)) continue;
      if (name === 'waitForLoadState') {
        const state = call.arguments[0];
        if (!state || model.stringValue(state) !== NETWORK_IDLE) continue;
        findings.push({
          node: call,
          message: `${calleeText(model, call)}('networkidle') waits for the network to fall silent, which is discouraged and flaky; ${ADVICE}.`,
          fix: removeStatementFix(model, call),
        });
      } else if (WAIT_UNTIL_METHODS.has(name)) {
        for (const argument of call.arguments) {
          const hit = model.property(argument, 'waitUntil');
          if (!hit || model.stringValue(hit.value) !== NETWORK_IDLE) continue;
          const inline = model.unwrap(argument) === hit.property.parent;
          findings.push({
            node: inline ? hit.property : argument,
            message: `${inline ? "waitUntil: 'networkidle'" : "The options object passed here sets waitUntil: 'networkidle'; it"} makes ${calleeText(model, call)}() wait for the network to fall silent, which is discouraged and flaky; drop it (the default waits for 'load') and ${ADVICE}.`,
            fix: inline ? removePropertyFix(model, call, hit.property) : undefined,
          });
        }
      }
    }
    return findings;
  },
});
