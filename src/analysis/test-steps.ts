/**
 * What a test does, for the rules that count its content (expect-expect, require-screenshot, max-steps,
 * max-duration) and the duration estimate: the calls it makes, followed into the local helpers and
 * page-object methods it calls, each classified as a navigation, a user action, an assertion, a
 * screenshot or another Playwright call.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { isFunctionLike, MemoKey, type SpecModel, type TestBlock } from './model.ts';
import { enclosingFunction } from './syntax.ts';
import { isFixtureRooted } from './value-origins.ts';
import { ASYNC_METHODS, NAVIGATIONS, PLAYWRIGHT_OBJECTS, USER_ACTIONS, type ValueKind } from './playwright-api.ts';

export type StepKind = 'navigation' | 'action' | 'assertion' | 'screenshot' | 'other';

export const STEP_KINDS: readonly StepKind[] = ['navigation', 'action', 'assertion', 'screenshot', 'other'];

const SCREENSHOT_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'locator', 'elementHandle']);
const NAVIGATION_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'frame']);
const SCREENSHOT_MATCHERS = new Set(['toHaveScreenshot']);

export interface TestHook {
  /** `test.beforeEach`, `test.afterEach`, `test.beforeAll` or `test.afterAll`. */
  path: string;
  body: ts.Node;
  /** Whether it runs for a test: the tests of the describe block (or file) it is written in. */
  applies: (test: TestBlock) => boolean;
}

const HOOK_NAMES = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll']);
const BEFORE_HOOKS = new Set(['test.beforeEach', 'test.beforeAll']);

/** The file's hooks, in source order. */
export function testHooks(model: SpecModel): TestHook[] {
  const hooks: TestHook[] = [];
  for (const call of model.calls) {
    // By its Playwright path, so an alias (`const setup = test.beforeEach`) counts too.
    const path = model.playwrightPath(call.expression);
    const body = [...call.arguments].reverse().find(isFunctionLike);
    if (!path?.startsWith('test.') || !HOOK_NAMES.has(path.slice('test.'.length)) || !body) continue;
    const scope = enclosingFunction(call) ?? model.sourceFile;
    hooks.push({ path, body, applies: (test) => test.call.pos >= scope.pos && test.call.end <= scope.end });
  }
  return hooks;
}

/**
 * The calls made before a test's body runs: the hooks before it (its describe blocks' beforeAll and beforeEach),
 * then the setup of the fixtures of the file's `test.extend` it asks for (up to their `use(…)`), helpers followed.
 */
export function callsBefore(model: SpecModel, test: TestBlock): ts.CallExpression[] {
  const hooks = testHooks(model)
    .filter((hook) => BEFORE_HOOKS.has(hook.path) && hook.applies(test))
    .flatMap((hook) => model.reachableCalls(hook.body));
  return [...hooks, ...fixtureSetup(model, test.body, 0)];
}

/** The calls the file's fixtures a function asks for (`async ({ page, searched }) => …`) make before they hand their value over. */
function fixtureSetup(model: SpecModel, fn: ts.FunctionLikeDeclaration | undefined, depth: number): ts.CallExpression[] {
  const asked = fn?.parameters[0]?.name;
  if (!asked || !ts.isObjectBindingPattern(asked) || depth > MAX_DEPTH) return [];
  return asked.elements.flatMap((element) => {
    const key = element.propertyName ?? element.name;
    const fixture = ts.isIdentifier(key) ? model.fixtureFunction(key.text) : undefined;
    if (!fixture?.body) return [];
    const calls = model.reachableCalls(fixture.body);
    const handOver = model.handOver(fixture);
    // The fixtures it asks for are set up first.
    return [...fixtureSetup(model, fixture, depth + 1), ...(handOver ? calls.slice(0, calls.indexOf(handOver)) : calls)];
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
    // A member of a fixture Playwright or the project's fixtures module provides (`products.search.fill(…)`,
    // a page object's locator) is a Playwright object by its method: the spec did not make it.
    if (!PLAYWRIGHT_OBJECTS.has(kind) && !(kind === 'unknown' && isFixtureRooted(model, receiver))) return undefined;
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
