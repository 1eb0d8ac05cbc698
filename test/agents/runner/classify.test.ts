import { describe, expect, it } from 'vitest';
import { classifyFailure, judgeReport } from '../../../src/agents/runner/classify.ts';
import type { PlaywrightReport } from '../../../src/agents/runner/playwright-report.ts';

// Error texts as Playwright 1.5x reports them (snippets removed, as the Runner does).
const FAILED_EXPECT = `Error: expect(locator).toHaveText(expected) failed

Locator: getByTestId('title')
Expected: "Dashboard"
Received: "Home"
Timeout: 5000ms

Call log:
  - Expect "toHaveText" with timeout 5000ms
  - waiting for getByTestId('title')
    9 × locator resolved to <h1 data-testid="title">Home</h1>
      - unexpected value "Home"`;
const OLD_FAILED_EXPECT = `Error: Timed out 5000ms waiting for expect(locator).toBeVisible()

Locator: getByTestId('menu')
Expected: visible
Received: hidden`;
const OWN_ERROR = 'Error: could not find the order number in the confirmation text';
const MISSING_ENV = 'Error: DEMO_USERNAME must be set';
const FIXTURE = 'Test timeout of 30000ms exceeded while setting up "loggedInPage".';
/** An app refusing connections, through a contained run's relay: the connection accepted, then closed. */
const relayed = (error: string) => `Error: page.goto: net::ERR_${error} at http://127.0.0.1:24849/
Call log:
  - navigating to "http://127.0.0.1:24849/", waiting until "load"`;
const ACTION_ON_DISABLED = `Error: locator.click: Timeout 5000ms exceeded.
Call log:
  - waiting for getByTestId('buy')
    - locator resolved to <button disabled data-testid="buy">Buy</button>
  - attempting click action
    - element is not enabled`;

describe('classifyFailure: only a failed expect on the app is an app bug', () => {
  it.each([
    ['a failed expect', FAILED_EXPECT, 'app_bug'],
    ['a failed expect (older wording)', OLD_FAILED_EXPECT, 'app_bug'],
    ['an action on an element that exists but never became actionable', ACTION_ON_DISABLED, 'app_bug'],
    ['an error the test throws itself', OWN_ERROR, 'test_bug'],
    ['an own error quoting expect mid-message', "Error: the check expect(page).toHaveURL('/x') could not run", 'test_bug'],
    ['a missing environment variable', MISSING_ENV, 'environment'],
    ['a missing environment variable, said otherwise', 'Error: environment variable SHOP_PASSWORD is not set', 'environment'],
    ['a fixture that failed to set up', FIXTURE, 'environment'],
    ['an unreachable app behind the relay: closed before any response', relayed('EMPTY_RESPONSE'), 'environment'],
    // As a contained run reported it on a loaded machine: the relay closed the connection before Chromium wrote to it.
    ['an unreachable app behind the relay: closed before the request was sent', relayed('SOCKET_NOT_CONNECTED'), 'environment'],
  ])('%s', (_name, text, expected) => {
    expect(classifyFailure(text)).toBe(expected);
  });
});

describe('judgeReport names the cause when the class alone would mislead', () => {
  const report = (message: string): PlaywrightReport =>
    ({
      errors: [],
      suites: [
        {
          title: 'x.spec.ts',
          file: 'x.spec.ts',
          specs: [{ title: 'logs in', file: 'x.spec.ts', line: 3, tests: [{ results: [{ status: 'failed', errors: [{ message }], error: { message } }] }] }],
          suites: [],
        },
      ],
    }) as unknown as PlaywrightReport;
  const evidence = { missing: [], screenshotCalls: 0, screenshotsTaken: 0 };

  it('an own error is a test problem, said as such', () => {
    const verdict = judgeReport(report(OWN_ERROR), 'x.spec.ts', 1, evidence);
    expect(verdict).toMatchObject({ status: 'fail', classification: 'test_bug' });
    expect(verdict.message).toMatch(/^the test threw an error of its own; no assertion on the app failed/);
    expect(verdict.message).toContain(OWN_ERROR);
  });

  it('a missing environment variable is an environment problem, said as such', () => {
    const verdict = judgeReport(report(MISSING_ENV), 'x.spec.ts', 1, evidence);
    expect(verdict).toMatchObject({ status: 'error', classification: 'environment' });
    expect(verdict.message).toMatch(/^an environment variable the spec needs is not set/);
  });

  it("a failing test of another file (a setup project's) is the environment: the spec could not test the app", () => {
    const setup = report(FAILED_EXPECT);
    // As Playwright reports it: the setup file's own suite and spec, run in the 'setup' project.
    const setupSuite = structuredClone(setup.suites[0]!) as unknown as { title: string; file: string; specs: Array<{ file: string; tests: Array<{ projectName?: string }> }> };
    Object.assign(setupSuite, { title: 'auth.setup.ts', file: 'auth.setup.ts' });
    setupSuite.specs[0]!.file = 'auth.setup.ts';
    setupSuite.specs[0]!.tests[0]!.projectName = 'setup';
    setup.suites.unshift(setupSuite as unknown as PlaywrightReport['suites'][number]);
    setup.suites[1]!.specs[0]!.tests[0]!.results = [];
    const verdict = judgeReport(setup, '/run/spec/x.spec.ts', 1, evidence);
    expect(verdict).toMatchObject({ status: 'error', classification: 'environment' });
    expect(verdict.message).toMatch(/^setup project 'setup' failed at auth\.setup\.ts:3: /);
    expect(verdict.message).toContain('the spec did not run');
  });

  it('a failed expect stays an app bug, its message untouched', () => {
    const verdict = judgeReport(report(FAILED_EXPECT), 'x.spec.ts', 1, evidence);
    expect(verdict).toMatchObject({ status: 'fail', classification: 'app_bug', message: FAILED_EXPECT });
  });
});
