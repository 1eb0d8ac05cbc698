/**
 * From Playwright's report to a verdict: did the run really pass, and if not, whose fault is it?
 *
 * - environment: the app is unreachable, the browser cannot start, a module is missing, an environment
 *   variable the spec needs is not set, a fixture failed to set up. Healing the spec cannot help, so
 *   these never spend a Medic attempt.
 * - test_bug: the spec is wrong: its locator resolves to nothing, matches several elements (strict
 *   mode), the spec does not compile or calls what does not exist, or it throws an error of its own.
 * - app_bug: a Playwright `expect` on something that exists failed: the app did not do what the spec
 *   expects. Only what Playwright's own assertion reports counts; an error the test throws never does.
 * - timeout: the test ran out of time with no locator to blame.
 */
import type { RunClassification, RunnerReport } from '../../contracts.ts';
import path from 'node:path';
import { errorText, testsOf, type ExecutedTest, type PlaywrightReport, type ReportError } from './playwright-report.ts';

export type FailureClass = Exclude<RunClassification, 'pass'>;

export interface Verdict {
  status: RunnerReport['status'];
  classification: RunClassification;
  message: string | null;
  line: number | null;
}

/**
 * The app could not be reached. Through a contained run's relay an app that refuses the connection is a
 * connection accepted then closed: EMPTY_RESPONSE, or on a loaded machine SOCKET_NOT_CONNECTED (closed
 * before Chromium sent the request).
 */
const UNREACHABLE =
  /net::ERR_(CONNECTION_\w+|SOCKET_NOT_CONNECTED|TIMED_OUT|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_\w+|INTERNET_DISCONNECTED|NETWORK_\w+|UNSAFE_PORT|EMPTY_RESPONSE|PROXY_\w+|CERT_\w+|SSL_\w+)|\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)\b|Cannot navigate to invalid URL/;
const BROWSER_UNAVAILABLE = /browserType\.launch|Executable doesn't exist|BrowserNotFoundError|No Chromium found|Failed to launch|Host system is missing dependencies/;
const MODULE_MISSING = /Cannot find (module|package) ['"]|ERR_MODULE_NOT_FOUND|\bMODULE_NOT_FOUND\b/;
const DOES_NOT_COMPILE = /^(SyntaxError|ReferenceError|TypeError|TransformError)\b/m;
const STRICT_MODE = /strict mode violation/;
const NOT_FOUND = /element\(s\) not found/;
/** The call log of an action or assertion that waited for a locator. */
const WAITED_FOR_LOCATOR = /^\s*- waiting for (getBy\w+\(|locator\(|frameLocator\(|internal:)/m;
const LOCATOR_RESOLVED = /resolved to (<|\d+ elements?)/;
const TIMED_OUT = /Timeout \d+ms exceeded|Test timeout of \d+ms exceeded/;
/** A failed Playwright assertion, as Playwright words it at the start of a line (not a message quoting one). */
const ASSERTION = /^(?:Error: )?(?:Timed out \d+ms waiting for )?expect(?:\.soft|\.poll)?\(\w+\)\.(?:not\.)?(?:resolves\.|rejects\.)?to\w+\(/m;
/** An action (click, fill) on an element that exists but never became actionable. */
const ACTION_ON_RESOLVED = /^\s*- (?:locator )?resolved to (<|\d+ elements?)/m;
/** The spec's own check of its environment: `DEMO_USERNAME must be set`, `process.env.X is undefined`. */
const MISSING_ENV =
  /\b(?:process\.env\.)?[A-Z][A-Z0-9_]{2,}\b (?:must be set|is not set|is required|is missing|is undefined|not set|not defined)|\b(?:missing|required|undefined) environment variable\b|\benvironment variable\b[^\n]*\b(?:not set|missing|required|undefined)\b/i;
/** A fixture or hook that failed before or after the test body. */
const FIXTURE_FAILED = /\bwhile (?:setting up|tearing down) "[^"]+"|\bError in (?:fixture|"(?:beforeAll|beforeEach|afterAll|afterEach)" hook)/;
/** The first line of an error the spec threw itself: `Error: …` that is none of Playwright's own. */
const OWN_ERROR = /^(?:Error|RangeError|AssertionError)(?: \[\w+\])?: /;
const TEST_TIMEOUT = /Test timeout of \d+ms exceeded/;
const NO_TESTS = /^Error: No tests found/;

/** The class of a failure from its error text (all errors of the failing test, snippets removed). */
export function classifyFailure(text: string): FailureClass {
  return diagnoseFailure(text).classification;
}

/** The class of a failure and, when the class alone would mislead, what the failure was in words. */
export function diagnoseFailure(text: string): { classification: FailureClass; cause: string | null } {
  if (UNREACHABLE.test(text) || BROWSER_UNAVAILABLE.test(text) || MODULE_MISSING.test(text)) return { classification: 'environment', cause: null };
  if (MISSING_ENV.test(text)) return { classification: 'environment', cause: 'an environment variable the spec needs is not set (an environment problem, not an app bug)' };
  if (FIXTURE_FAILED.test(text)) return { classification: 'environment', cause: 'a fixture or hook failed before the test could check the app (an environment problem, not an app bug)' };
  if (DOES_NOT_COMPILE.test(text) || STRICT_MODE.test(text) || NOT_FOUND.test(text)) return { classification: 'test_bug', cause: null };
  if (TIMED_OUT.test(text) && WAITED_FOR_LOCATOR.test(text) && !LOCATOR_RESOLVED.test(text)) return { classification: 'test_bug', cause: null };
  if (ASSERTION.test(text)) return { classification: 'app_bug', cause: null };
  if (TIMED_OUT.test(text) && ACTION_ON_RESOLVED.test(text)) return { classification: 'app_bug', cause: null };
  if (TEST_TIMEOUT.test(text)) return { classification: 'timeout', cause: null };
  if (OWN_ERROR.test(text)) return { classification: 'test_bug', cause: 'the test threw an error of its own; no assertion on the app failed (a test problem, not an app bug)' };
  return { classification: 'test_bug', cause: null };
}

export function statusOf(classification: RunClassification): RunnerReport['status'] {
  if (classification === 'pass') return 'pass';
  return classification === 'environment' ? 'error' : 'fail';
}

/** What a green run must also show: the screenshots the spec took exist. */
export interface GreenEvidence {
  /** Screenshots or attachments the run says it wrote that are not on disk. */
  missing: string[];
  /** `.screenshot(` calls in the spec, and screenshots the run produced. */
  screenshotCalls: number;
  screenshotsTaken: number;
}

export function judgeReport(report: PlaywrightReport, specFile: string, exitCode: number | null, evidence: GreenEvidence): Verdict {
  const loadErrors = report.errors.filter((error) => !NO_TESTS.test(errorText(error)));
  if (loadErrors.length > 0) return failure(loadErrors, specFile);

  const tests = testsOf(report);
  if (tests.length === 0) return notPass('Playwright found no test in the spec: nothing ran, so nothing passed.');

  const failed = tests.find((test) => test.result && test.result.status !== 'passed' && test.result.status !== 'skipped');
  if (failed?.result && failed.file !== undefined && path.basename(failed.file) !== path.basename(specFile)) return setupFailure(failed);
  if (failed?.result) {
    if (failed.result.status === 'interrupted') return { status: 'error', classification: 'environment', message: `test "${failed.title}" was interrupted before it finished`, line: null };
    // A test of another file is a setup project's (or a dependency's): the spec could not test the app.
    if (failed.file && path.basename(failed.file) !== path.basename(specFile)) return setupFailure(failed);
    return failure(failed.result.errors.length > 0 ? failed.result.errors : [failed.result.error ?? { message: `test "${failed.title}" ${failed.result.status}` }], specFile);
  }

  const notRun = tests.find((test) => !test.result || test.result.status === 'skipped');
  if (notRun) return notPass(`test "${notRun.title}" (line ${notRun.line}) was skipped or never ran: a skipped test is not a pass.`, notRun.line);

  if (exitCode !== 0) return { status: 'error', classification: 'environment', message: `Playwright exited with code ${exitCode} although every test passed`, line: null };
  if (evidence.missing.length > 0) return notPass(`the run reports files that do not exist: ${evidence.missing.join(', ')}`);
  if (evidence.screenshotCalls > 0 && evidence.screenshotsTaken === 0) return notPass('the spec takes screenshots but the run wrote none.');
  return { status: 'pass', classification: 'pass', message: null, line: null };
}

/** Playwright ran but produced no report: judge by what it printed. */
export function judgeWithoutReport(problem: string, output: string, exitCode: number | null): Verdict {
  const tail = output.trim().split('\n').slice(-20).join('\n');
  const classification = UNREACHABLE.test(output) || BROWSER_UNAVAILABLE.test(output) || MODULE_MISSING.test(output) ? 'environment' : DOES_NOT_COMPILE.test(output) ? 'test_bug' : 'environment';
  return { status: statusOf(classification), classification, message: `${problem} (exit code ${exitCode ?? 'none'})${tail ? `:\n${tail}` : ''}`, line: null };
}

function failure(errors: ReportError[], specFile: string): Verdict {
  const text = [...new Set(errors.map((error) => withoutSnippet(errorText(error))))].join('\n\n');
  const { classification, cause } = diagnoseFailure(text);
  const message = cause ? `${cause}:\n${text}` : text;
  return { status: statusOf(classification), classification, message, line: lineInSpec(errors, specFile) };
}

/**
 * A test of another file failed: one of a project the spec's project depends on (a setup project signing
 * in). The spec never got to check the app, and healing it cannot help.
 */
function setupFailure(failed: ExecutedTest): Verdict {
  const errors = failed.result!.errors.length > 0 ? failed.result!.errors : failed.result!.error ? [failed.result!.error] : [];
  const location = errors.find((error) => error.location)?.location;
  const where = location ? `${location.file}:${location.line}` : `${failed.file}:${failed.line}`;
  const first = errors.length > 0 ? withoutSnippet(errorText(errors[0])).split('\n')[0] : failed.result!.status;
  return { status: 'error', classification: 'environment', message: `setup project '${failed.project ?? 'setup'}' failed at ${where}: ${first} (an environment problem: the spec did not run)`, line: null };
}

function notPass(message: string, line: number | null = null): Verdict {
  return { status: 'fail', classification: 'test_bug', message, line };
}

/**
 * Playwright appends the source lines around an error and an `at` line; they repeat the spec (whose
 * text must not be mistaken for the error) and the Runner reports the line on its own.
 */
export function withoutSnippet(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(>\s*)?\d+\s*\|/.test(line) && !/^\s*\|\s*\^/.test(line) && !/^\s+at /.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The first line in the spec that an error points at: its location, else a frame of its stack. */
export function lineInSpec(errors: ReportError[], specFile: string): number | null {
  for (const error of errors) {
    if (error.location && error.location.file === specFile) return error.location.line;
  }
  const frame = new RegExp(`${escapeRegExp(specFile)}:(\\d+)`);
  for (const error of errors) {
    const found = frame.exec(`${error.stack ?? ''}\n${error.message ?? ''}`);
    if (found) return Number(found[1]);
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
