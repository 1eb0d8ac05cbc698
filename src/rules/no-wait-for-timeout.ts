import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText } from './utils/ast.ts';
import { removeStatementFix } from './utils/fixes.ts';

const TIMER_MODULES = new Set(['timers/promises', 'node:timers/promises', 'timers', 'node:timers']);

export default defineRule({
  id: 'no-wait-for-timeout',
  description: 'Disallows fixed sleeps: waitForTimeout and setTimeout promises.',
  fixable: true,
  options: noOptions,
  check(model) {
    const findings: Finding[] = [];
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (name === 'waitForTimeout') {
        findings.push({
          node: call,
          message: `${calleeText(model, call)}() sleeps for a fixed time; wait for a condition instead (await expect(locator).toBeVisible()).`,
          fix: removeStatementFix(model, call),
        });
      } else if (isTimerCall(model, call, name, receiver) && !inRouteHandler(model, call)) {
        const sleep = enclosingPromise(call);
        findings.push({
          node: call,
          message: 'A setTimeout promise sleeps for a fixed time; wait for a condition instead (a web-first assertion).',
          fix: sleep ? removeStatementFix(model, sleep) : undefined,
        });
      }
    }
    return findings;
  },
});

/**
 * A call of the global setTimeout (also via globalThis/window), or of node's timers' setTimeout under any
 * name (`import { setTimeout as sleep } from 'node:timers/promises'`).
 */
function isTimerCall(model: SpecModel, call: ts.CallExpression, name: string | undefined, receiver: ts.Expression | undefined): boolean {
  if (receiver) {
    const base = model.unwrap(receiver);
    return name === 'setTimeout' && ts.isIdentifier(base) && (['globalThis', 'window', 'global', 'self'].includes(base.text) || TIMER_MODULES.has(model.moduleBinding(base)?.module ?? ''));
  }
  const callee = model.unwrap(call.expression);
  if (!ts.isIdentifier(callee)) return false;
  const binding = model.moduleBinding(callee);
  if (binding) return TIMER_MODULES.has(binding.module) && binding.imported === 'setTimeout';
  return name === 'setTimeout' && model.declarationOf(callee) === undefined;
}

/** Methods whose callback answers the page's requests: a delay there simulates the server, the test does not wait. */
const ROUTE_METHODS = new Set(['route', 'routeWebSocket', 'routeFromHAR']);

/** Inside a function handed to page.route() and the like (a mocked endpoint's latency). */
function inRouteHandler(model: SpecModel, node: ts.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (!ts.isArrowFunction(current) && !ts.isFunctionExpression(current)) continue;
    const call = current.parent;
    if (call && ts.isCallExpression(call) && call.arguments.includes(current) && ROUTE_METHODS.has(model.callee(call).name ?? '')) return true;
  }
  return false;
}

/** `new Promise((r) => setTimeout(r, 500))`: the sleep as a whole, so the fix removes all of it. */
function enclosingPromise(call: ts.CallExpression): ts.NewExpression | undefined {
  for (let n: ts.Node = call.parent; n; n = n.parent) {
    if (ts.isNewExpression(n)) return ts.isIdentifier(n.expression) && n.expression.text === 'Promise' ? n : undefined;
    if (ts.isStatement(n) && !ts.isBlock(n) && !ts.isExpressionStatement(n)) return undefined;
  }
  return undefined;
}
