import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { enclosingFunction, GLOBAL_OBJECT_NAMES, valueSite } from '../analysis/syntax.ts';
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
      } else if (isSleep(model, call, name, receiver) && !inRouteHandler(model, call) && !clearedElsewhere(model, call)) {
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
 * A fixed sleep: timers/promises' setTimeout under any name (`import { setTimeout as sleep } from
 * 'node:timers/promises'`), which is a promise, or a callback setTimeout (global, via globalThis/window, or
 * node's timers) that settles a `new Promise`. A callback setTimeout elsewhere schedules work and waits for
 * nothing: app code the test hands the page (a plugin hook that calls `next` later), not the test sleeping.
 */
function isSleep(model: SpecModel, call: ts.CallExpression, name: string | undefined, receiver: ts.Expression | undefined): boolean {
  const timer = timerModule(model, call, name, receiver);
  if (timer === undefined) return false;
  return PROMISE_TIMER_MODULES.has(timer) || enclosingPromise(call) !== undefined;
}

const PROMISE_TIMER_MODULES = new Set(['timers/promises', 'node:timers/promises']);

/**
 * Where a setTimeout call comes from: its module for node's timers (imported under any name, or through
 * a namespace), 'global' for the global one (also via globalThis/window); undefined for any other call.
 */
function timerModule(model: SpecModel, call: ts.CallExpression, name: string | undefined, receiver: ts.Expression | undefined): string | undefined {
  if (receiver) {
    const base = model.unwrap(receiver);
    if (name !== 'setTimeout' || !ts.isIdentifier(base)) return undefined;
    if (GLOBAL_OBJECT_NAMES.has(base.text)) return 'global';
    const module = model.moduleBinding(base)?.module ?? '';
    return TIMER_MODULES.has(module) ? module : undefined;
  }
  const callee = model.unwrap(call.expression);
  if (!ts.isIdentifier(callee)) return undefined;
  const binding = model.moduleBinding(callee);
  if (binding) return TIMER_MODULES.has(binding.module) && binding.imported === 'setTimeout' ? binding.module : undefined;
  return name === 'setTimeout' && model.declarationOf(callee) === undefined ? 'global' : undefined;
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

/**
 * `timer = setTimeout(done, 500)` with `clearTimeout(timer)` in another function (the handler that settles the
 * wait when its event comes, a child process's exit): a deadline or fallback the awaited event cancels, not a sleep.
 * A clearTimeout in the timer's own function could never run before it fires, so it does not count.
 */
function clearedElsewhere(model: SpecModel, call: ts.CallExpression): boolean {
  const handle = handleOf(model, call);
  if (!handle) return false;
  const own = enclosingFunction(call);
  return model.calls.some((clear) => {
    const { name, receiver } = model.callee(clear);
    const argument = clear.arguments[0];
    if (name !== 'clearTimeout' || receiver !== undefined || !argument || enclosingFunction(clear) === own) return false;
    const cleared = model.unwrap(argument);
    return ts.isIdentifier(handle) ? ts.isIdentifier(cleared) && model.declarationOf(cleared) === model.declarationOf(handle) && model.declarationOf(handle) !== undefined : model.text(cleared) === model.text(handle);
  });
}

/** Where a timer's handle is kept: the variable or property it is assigned to or declares. */
function handleOf(model: SpecModel, call: ts.CallExpression): ts.Expression | undefined {
  const node = valueSite(call);
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node) {
    const target = model.unwrap(parent.left);
    return ts.isIdentifier(target) || ts.isPropertyAccessExpression(target) ? target : undefined;
  }
  return ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name) ? parent.name : undefined;
}

/** `new Promise((r) => setTimeout(r, 500))`: the sleep as a whole, so the fix removes all of it. */
function enclosingPromise(call: ts.CallExpression): ts.NewExpression | undefined {
  for (let n: ts.Node = call.parent; n; n = n.parent) {
    if (ts.isNewExpression(n)) return ts.isIdentifier(n.expression) && n.expression.text === 'Promise' ? n : undefined;
    if (ts.isStatement(n) && !ts.isBlock(n) && !ts.isExpressionStatement(n)) return undefined;
  }
  return undefined;
}
