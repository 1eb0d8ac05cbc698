/**
 * Signing in through a page's own login form, so the explorer sees the pages behind it: the declared
 * credentials typed into the form that holds the password field, and the form submitted. This is
 * Scribe's own code in Scribe's own browser; the values go to the page and nowhere else (no log, no
 * inventory: the page is read again afterwards, from a fresh load).
 */
import type { Page } from '@playwright/test';
import type { PageInventory } from '../contracts.ts';

/** The declared credentials' values (critic.yaml settings.credentials, read from the environment). */
export interface FormCredentials {
  username: string;
  password: string;
}

/** A page that asks for a password: where a run without a storage state lands in front of a login. */
export function isSignInPage(page: PageInventory): boolean {
  return page.fields.some((field) => field.type === 'password');
}

/** The text fields a username or email goes into: not the password, not a box, button or hidden field. */
const IDENTITY_FIELD = visible(['input:not([type])', 'input[type=text]', 'input[type=email]', 'input[type=tel]']);
const SUBMIT = visible(['button[type=submit]', 'input[type=submit]', 'button:not([type])']);

/** Playwright's `:visible` on each alternative (Locator.filter's `visible` is newer than the Playwright range Scribe takes). */
function visible(selectors: string[]): string {
  return selectors.map((selector) => `${selector}:visible`).join(', ');
}

/** What the page shows once the form was sent: evidence of a session, and signs that signing in failed. */
export interface SignInSigns {
  /** A password field is still shown: the form is still there, or shown again with an error. */
  passwordShown: boolean;
  /** An error is shown: an alert that reads as one, or a text saying the credentials were refused ("Invalid password"). */
  failureShown: boolean;
  /** The form led to another path that names a sign-in or error page (`/login-failed`, `/error`, `/signin`). */
  failurePage: boolean;
  /** A visible control to sign out ("Log out", "Sign out"), named by its text, `aria-label` or `title`. */
  signOutShown: boolean;
  /** A cookie or web storage entry the page did not have before the form was sent. */
  sessionAppeared: boolean;
  /** The form led to another path, one that a visit without the browser's session does not reach. */
  behindLoginReached: boolean;
}

/**
 * Whether the form signed in: nothing says it failed (the password field still asked for, an error shown, an
 * error or sign-in page reached) and something shows a session (a sign-out control, a cookie or storage entry
 * that appeared, a page behind the login reached). A changed URL alone is no evidence: a wrong password is often
 * answered by a redirect to a page without the form.
 */
export function signedInBy(signs: SignInSigns): boolean {
  const failed = signs.passwordShown || signs.failureShown || signs.failurePage;
  return !failed && (signs.signOutShown || signs.sessionAppeared || signs.behindLoginReached);
}

const SIGN_OUT = /\b(log|sign)\s?(out|off)\b/i;
/** An alert's text that reads as an error (a welcome toast is an alert too). */
const ERROR_ALERT = /\b(invalid|incorrect|wrong|fail(ed|ure)?|error|denied|unauthori[sz]ed|not (found|recogni[sz]ed|match)|locked|try again)\b/i;
/** Texts that say the credentials were refused, wherever they stand on the page. */
const REFUSED =
  /\b(invalid|incorrect|wrong|unknown|bad)\b[^.\n]{0,30}\b(user ?names?|e-?mails?|passwords?|credentials|log ?ins?|accounts?)\b|\b(log ?in|sign ?in|authentication)\s+(failed|error|unsuccessful)\b|\baccess denied\b/i;
/** A path naming a sign-in or error page: one of its words, between slashes, dots, dashes or underscores. */
const FAILURE_PATH = /(^|[/_.-])(log-?in|sign-?in|error|errors|fail|failed|failure|denied|unauthori[sz]ed|forbidden)([/_.-]|$)/i;

/**
 * Fills the visible form around the page's password field and submits it, then waits (within the timeout)
 * for the page that answers, and says what it shows.
 */
export async function signInThroughForm(page: Page, credentials: FormCredentials, timeoutMs: number): Promise<SignInSigns> {
  const password = page.locator('input[type=password]:visible').first();
  // The form holding the password field, or the page where the field stands outside any form.
  const form = (await password.locator('xpath=ancestor::form[1]').count()) > 0 ? password.locator('xpath=ancestor::form[1]') : page.locator('body');
  const identity = form.locator(IDENTITY_FIELD).first();
  if ((await identity.count()) > 0) await identity.fill(credentials.username, { timeout: timeoutMs });
  await password.fill(credentials.password, { timeout: timeoutMs });
  const before = { path: new URL(page.url()).pathname, session: await sessionKeys(page) };
  const submit = form.locator(SUBMIT).first();
  const answered = page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  if ((await submit.count()) > 0) await submit.click({ timeout: timeoutMs });
  else await password.press('Enter', { timeout: timeoutMs });
  await answered;
  // A client-side login answers without a load: give its request the time it takes to settle.
  await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => undefined);
  await outcomeShown(page, Math.min(timeoutMs, OUTCOME_WAIT_MS));
  const landed = new URL(page.url());
  const pathChanged = landed.pathname !== before.path;
  const signs = {
    passwordShown: (await page.locator('input[type=password]:visible').count()) > 0,
    failureShown: (await page.getByRole('alert').filter({ hasText: ERROR_ALERT }).count()) > 0 || REFUSED.test(await page.locator('body').innerText().catch(() => '')),
    failurePage: pathChanged && FAILURE_PATH.test(landed.pathname),
    signOutShown: await signOutShown(page),
    sessionAppeared: [...(await sessionKeys(page))].some((key) => !before.session.has(key)),
  };
  const failed = signs.passwordShown || signs.failureShown || signs.failurePage;
  // The extra visit only where it can decide: another page was reached and nothing else settled the question.
  const worthVisiting = pathChanged && !failed && !signs.signOutShown && !signs.sessionAppeared;
  return { ...signs, behindLoginReached: worthVisiting && (await notReachedAnonymously(page, landed.href, timeoutMs)) };
}

/** A button, link or menu item whose accessible name (its text, `aria-label` or `title`) says sign out. */
async function signOutShown(page: Page): Promise<boolean> {
  const counts = await Promise.all((['button', 'link', 'menuitem'] as const).map((role) => page.getByRole(role, { name: SIGN_OUT }).count()));
  return counts.some((count) => count > 0);
}

/**
 * Whether a browser without this one's cookies and storage, sent to the address, ends elsewhere or is asked for
 * a password: the page is behind the login. False when it cannot tell (no browser to open a context in).
 */
async function notReachedAnonymously(page: Page, url: string, timeoutMs: number): Promise<boolean> {
  const browser = page.context().browser();
  if (!browser) return false;
  const anonymous = await browser.newContext();
  try {
    const visit = await anonymous.newPage();
    await visit.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    await visit.waitForLoadState('networkidle', { timeout: Math.min(timeoutMs, OUTCOME_WAIT_MS) }).catch(() => undefined);
    return new URL(visit.url()).pathname !== new URL(url).pathname || (await visit.locator('input[type=password]:visible').count()) > 0;
  } catch {
    return false;
  } finally {
    await anonymous.close();
  }
}

/**
 * How long a login answered in the page (no navigation, the check in its script) may take to show its outcome:
 * the form hidden, or an alert. A wrong password that shows neither costs this wait, no more.
 */
const OUTCOME_WAIT_MS = 5000;

async function outcomeShown(page: Page, timeoutMs: number): Promise<void> {
  // Whichever comes first; the other's wait ends at its own timeout, unheeded.
  const shown = (wait: Promise<void>) => wait.then(() => true, () => false);
  await Promise.race([
    shown(page.locator('input[type=password]:visible').first().waitFor({ state: 'hidden', timeout: timeoutMs })),
    shown(page.locator('[role=alert]:visible').first().waitFor({ state: 'visible', timeout: timeoutMs })),
  ]);
}

/** The names of the browser's cookies and the page's web storage entries (never their values: they may hold a session). */
async function sessionKeys(page: Page): Promise<Set<string>> {
  const storage = await page.evaluate(() => [...Object.keys(localStorage).map((key) => `local:${key}`), ...Object.keys(sessionStorage).map((key) => `session:${key}`)]).catch(() => []);
  const cookies = (await page.context().cookies()).map((cookie) => `cookie:${cookie.domain}${cookie.path}${cookie.name}`);
  return new Set([...cookies, ...storage]);
}
