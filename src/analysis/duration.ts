/**
 * How long a spec is expected to run: a cost per step (navigation, action, assertion, screenshot, other)
 * plus the waits it asks for, with the hooks that run around each test. The max-duration rule holds each
 * test to its limit with it, and the Critic reports the whole file's estimate; both read the costs from
 * critic.yaml's max-duration entry, so its options are defined here, where both may import them.
 */
import { ts } from '../util/typescript.js';
import { z } from 'zod';
import { ruleOptions } from '../util/zod-helpers.ts';
import { MAX_DEPTH } from './depth.ts';
import { type SpecModel, type TestBlock } from './model.ts';
import { PLAYWRIGHT_OBJECTS } from './playwright-api.ts';
import { GLOBAL_OBJECT_NAMES } from './syntax.ts';
import { STEP_KINDS, classifyCall, testCalls, testHooks, type StepKind } from './test-steps.ts';

const Milliseconds = z.number().nonnegative();

export const MaxDurationOptions = ruleOptions({
  max_ms: z.number().int().positive(),
  cost_ms: z.strictObject({ navigation: Milliseconds, action: Milliseconds, assertion: Milliseconds, screenshot: Milliseconds, other: Milliseconds }),
});
export type MaxDurationOptions = z.infer<typeof MaxDurationOptions>;

export interface TestDuration {
  title: string | undefined;
  /** The `test(...)` call. */
  call: ts.CallExpression;
  line: number;
  /** The estimate: per-call costs, explicit waits, and the beforeEach/afterEach hooks that run around the test. */
  ms: number;
  counts: Record<StepKind, number>;
  /** The part of `ms` that fixed sleeps and wait timeouts account for. */
  waits_ms: number;
}

export interface DurationEstimate {
  tests: TestDuration[];
  /** Every test, plus the beforeAll/afterAll hooks that run for them once. */
  total_ms: number;
}

const EACH_HOOKS = new Set(['test.beforeEach', 'test.afterEach']);
const ALL_HOOKS = new Set(['test.beforeAll', 'test.afterAll']);

/** The estimated duration of each test of a spec and of the whole file. */
export function estimateDuration(model: SpecModel, options: MaxDurationOptions): DurationEstimate {
  const hooks = hookCosts(model, options);
  const tests = model.tests().map((test): TestDuration => {
    const own = callsCost(model, testCalls(model, test), options);
    const around = hooks.filter((h) => EACH_HOOKS.has(h.path) && h.applies(test));
    for (const hook of around) {
      for (const kind of STEP_KINDS) own.counts[kind] += hook.cost.counts[kind];
      own.waits_ms += hook.cost.waits_ms;
      own.ms += hook.cost.ms;
    }
    return { title: test.title, call: test.call, line: model.position(test.call).line, ...own };
  });
  const once = hooks.filter((h) => ALL_HOOKS.has(h.path) && model.tests().some((t) => h.applies(t)));
  const total_ms = tests.reduce((sum, t) => sum + t.ms, 0) + once.reduce((sum, h) => sum + h.cost.ms, 0);
  return { tests, total_ms };
}

interface Cost {
  ms: number;
  counts: Record<StepKind, number>;
  waits_ms: number;
}

function callsCost(model: SpecModel, calls: readonly ts.CallExpression[], options: MaxDurationOptions): Cost {
  const counts = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  let waits_ms = 0;
  let ms = 0;
  for (const call of calls) {
    const kind = classifyCall(model, call);
    if (kind) {
      counts[kind]++;
      ms += options.cost_ms[kind];
    }
    const wait = explicitWait(model, call);
    waits_ms += wait;
    ms += wait;
  }
  return { ms, counts, waits_ms };
}

/** Milliseconds a call is told to wait: a sleep's length, or the `timeout` given to a wait. */
function explicitWait(model: SpecModel, call: ts.CallExpression): number {
  const { name, receiver } = model.callee(call);
  if (!name) return 0;
  if (name === 'setTimeout' && isGlobalTimer(model, receiver)) return call.arguments[1] ? numberValue(model, call.arguments[1]) ?? 0 : 0;
  if (!name.startsWith('waitFor') || !receiver || !PLAYWRIGHT_OBJECTS.has(model.kindOf(receiver))) return 0;
  if (name === 'waitForTimeout') return call.arguments[0] ? numberValue(model, call.arguments[0]) ?? 0 : 0;
  for (const argument of call.arguments) {
    const timeout = model.property(argument, 'timeout');
    if (timeout) return numberValue(model, timeout.value) ?? 0;
  }
  return 0;
}

function isGlobalTimer(model: SpecModel, receiver: ts.Expression | undefined): boolean {
  if (!receiver) return true;
  const base = model.unwrap(receiver);
  return ts.isIdentifier(base) && GLOBAL_OBJECT_NAMES.has(base.text);
}

/** A number written as a literal, a constant, or simple arithmetic on them (`5 * 1000`). */
function numberValue(model: SpecModel, expr: ts.Expression, depth = 0): number | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.resolve(expr);
  if (ts.isBinaryExpression(e)) {
    const left = numberValue(model, e.left, depth + 1);
    const right = numberValue(model, e.right, depth + 1);
    if (left === undefined || right === undefined) return undefined;
    switch (e.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken: return left * right;
      case ts.SyntaxKind.PlusToken: return left + right;
      case ts.SyntaxKind.MinusToken: return left - right;
      case ts.SyntaxKind.SlashToken: return right === 0 ? undefined : left / right;
      default: return undefined;
    }
  }
  const text = model.stringValue(e);
  const value = text === undefined || text.trim() === '' ? NaN : Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

interface Hook {
  path: string;
  cost: Cost;
  applies(test: TestBlock): boolean;
}

/** The hooks of the file with their cost; a hook applies to the tests of the describe block (or file) it is written in. */
function hookCosts(model: SpecModel, options: MaxDurationOptions): Hook[] {
  return testHooks(model).map((hook) => ({ path: hook.path, cost: callsCost(model, model.reachableCalls(hook.body), options), applies: hook.applies }));
}
