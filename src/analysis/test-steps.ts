/**
 * What a test does, for the rules that count its content (expect-expect, require-screenshot, max-steps,
 * max-duration) and the duration estimate: the calls it makes, followed into the local helpers and
 * page-object methods it calls, each classified as a navigation, a user action, an assertion, a
 * screenshot or another Playwright call.
 */
import type { ts } from '../util/typescript.js';
import { isFunctionLike, MemoKey, type SpecModel, type TestBlock } from './model.ts';
import { ASYNC_METHODS, NAVIGATIONS, PLAYWRIGHT_OBJECTS, USER_ACTIONS, type ValueKind } from './playwright-api.ts';

export type StepKind = 'navigation' | 'action' | 'assertion' | 'screenshot' | 'other';

export const STEP_KINDS: readonly StepKind[] = ['navigation', 'action', 'assertion', 'screenshot', 'other'];

const SCREENSHOT_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'locator', 'elementHandle']);
const NAVIGATION_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'frame']);
const SCREENSHOT_MATCHERS = new Set(['toHaveScreenshot']);

/** The bodies of the hooks that run before a test (`test.beforeEach`, `test.beforeAll`), in source order. */
export function beforeHookBodies(model: SpecModel): ts.Node[] {
  return model.calls.flatMap((call) => {
    const path = model.playwrightPath(call.expression);
    const body = path === 'test.beforeEach' || path === 'test.beforeAll' ? [...call.arguments].reverse().find(isFunctionLike) : undefined;
    return body ? [body] : [];
  });
}

/** Every call a test makes, helpers and page-object methods of the same file included. */
export function testCalls(model: SpecModel, test: TestBlock): readonly ts.CallExpression[] {
  return test.body ? model.reachableCalls(test.body) : [];
}

const STEP_KIND = new MemoKey<StepKind | undefined>('what a call does as a test step');
const IS_EXPECTATION = new MemoKey<boolean>('whether a call is the matcher of an expect chain');

/** What a call does as a test step; undefined for calls that are not Playwright work (locator factories, plain code). */
export function classifyCall(model: SpecModel, call: ts.CallExpression): StepKind | undefined {
  return model.memo(STEP_KIND, call, () => stepKind(model, call));
}

/** Whether a call is the matcher of an expect(...) chain; asked of every call by several rules, so answered once. */
export function isExpectation(model: SpecModel, call: ts.CallExpression): boolean {
  return model.memo(IS_EXPECTATION, call, () => model.expectation(call) !== undefined);
}

function stepKind(model: SpecModel, call: ts.CallExpression): StepKind | undefined {
  const { name, receiver } = model.callee(call);
  if (!name || !receiver) return undefined;
  // Playwright's method names first: they are cheap to check, and no matcher shares them.
  if (ASYNC_METHODS.has(name) || USER_ACTIONS.has(name)) {
    const kind = model.kindOf(receiver);
    if (!PLAYWRIGHT_OBJECTS.has(kind)) return undefined;
    if (name === 'screenshot' && SCREENSHOT_RECEIVERS.has(kind)) return 'screenshot';
    if (NAVIGATIONS.has(name) && NAVIGATION_RECEIVERS.has(kind)) return 'navigation';
    return USER_ACTIONS.has(name) ? 'action' : 'other';
  }
  if (!isExpectation(model, call)) return undefined;
  return SCREENSHOT_MATCHERS.has(name) ? 'screenshot' : 'assertion';
}

/** How a message names a test: its title, or its position when it has none. */
export function testLabel(model: SpecModel, test: Pick<TestBlock, 'title' | 'call'>): string {
  return test.title !== undefined ? `Test "${test.title}"` : `The test at line ${model.position(test.call).line}`;
}
