import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { ELEMENT_HANDLE_FACTORIES } from '../analysis/playwright-api.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText } from './utils/ast.ts';

const INSTEAD: Record<string, string> = {
  $: 'page.locator(selector)',
  $$: 'page.locator(selector) (with expect(...).toHaveCount(n) or locator.all())',
  querySelector: 'page.locator(selector)',
  querySelectorAll: 'page.locator(selector) (with expect(...).toHaveCount(n) or locator.all())',
  elementHandle: 'the locator itself',
  elementHandles: 'the locator itself (with locator.all() to iterate)',
  waitForSelector: 'page.locator(selector), and await expect(locator).toBeVisible() for the wait',
};

export default defineRule({
  id: 'no-element-handle',
  description: 'Disallows element handles ($, $$, elementHandle(s), a waitForSelector result); use locators.',
  fixable: false,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name } = model.callee(call);
      if (!name || !ELEMENT_HANDLE_FACTORIES.has(name) || model.kindOf(call) !== 'elementHandle') continue;
      // A waitForSelector whose result is dropped is a wait, not a handle.
      if (name === 'waitForSelector' && !resultIsUsed(model, call)) continue;
      findings.push({
        node: call,
        message: `${calleeText(model, call)}() returns an ElementHandle, which does not auto-wait and goes stale when the page re-renders; use ${INSTEAD[name] ?? 'a locator'} instead.`,
      });
    }
    return findings;
  },
});

function resultIsUsed(model: SpecModel, call: ts.CallExpression): boolean {
  let node: ts.Node = call;
  for (;;) {
    const parent = node.parent;
    if (ts.isAwaitExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isArrayLiteralExpression(parent)) node = parent;
    else if (ts.isCallExpression(parent) && ts.isArrayLiteralExpression(node) && isPromiseCombinator(model, parent)) node = parent;
    else return !ts.isExpressionStatement(parent) && !ts.isVoidExpression(parent);
  }
}

function isPromiseCombinator(model: SpecModel, call: ts.CallExpression): boolean {
  const { receiver } = model.callee(call);
  return receiver !== undefined && ts.isIdentifier(receiver) && receiver.text === 'Promise';
}
