import { ts } from '../util/typescript.js';
import type { PropertyHit, SpecModel } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText, mayBePlaywrightObject } from './utils/ast.ts';
import { removePropertyFix } from './utils/fixes.ts';

/** Playwright's actions whose options take `force` (Page, Frame, Locator and ElementHandle alike). */
const FORCE_ACTIONS = new Set([
  'click', 'dblclick', 'check', 'uncheck', 'setChecked', 'hover', 'tap', 'fill', 'clear', 'selectOption',
  'selectText', 'dragTo', 'dragAndDrop',
]);

export default defineRule({
  id: 'no-force-option',
  description: 'Disallows `force: true` in the options of actions, which skips actionability checks.',
  fixable: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver || !FORCE_ACTIONS.has(name)) continue;
      // `force` is distinctive enough to trust on a value the analysis cannot name (`this.button`).
      if (!mayBePlaywrightObject(model, receiver)) continue;
      for (const argument of call.arguments) {
        const hit = model.property(argument, 'force');
        if (!hit || !isTrue(model, hit)) continue;
        const inline = model.unwrap(argument) === hit.property.parent;
        findings.push({
          node: inline ? hit.property : argument,
          message: `${inline ? '`force: true`' : 'The options object passed here sets `force: true`; it'} makes ${calleeText(model, call)}() skip the actionability checks (visible, stable, enabled, not covered) and hides real problems; remove it and wait for the element to be ready (e.g. await expect(locator).toBeEnabled()).`,
          fix: inline ? removePropertyFix(model, call, hit.property) : undefined,
        });
      }
    }
    return findings;
  },
});

function isTrue(model: SpecModel, hit: PropertyHit): boolean {
  return model.resolve(hit.value).kind === ts.SyntaxKind.TrueKeyword;
}
