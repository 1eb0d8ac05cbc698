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

/** What signing in changes, seen on the page once the form was sent. */
export interface SignInSigns {
  /** A password field is still shown: the form is still there, or shown again with an error. */
  passwordShown: boolean;
  /** The page's path changed (a query alone, `?error=1`, is not a change). */
  pathChanged: boolean;
  /** A visible control to sign out ("Log out", "Sign out"). */
  signOutShown: boolean;
  /** The browser's cookies or the page's web storage changed: a session was kept. */
  sessionChanged: boolean;
}

/**
 * Whether the form signed in: the password field is gone, and with it something signing in changes (the page,
 * a sign-out control, the session). An app that signs in on the same page (hiding the form, showing the
 * signed-in view) changes no URL; an error page that replaces the form changes nothing else.
 */
export function signedInBy(signs: SignInSigns): boolean {
  return !signs.passwordShown && (signs.pathChanged || signs.signOutShown || signs.sessionChanged);
}

const SIGN_OUT = /\b(log|sign)\s?(out|off)\b/i;
const CONTROLS = visible(['button', 'a[href]', '[role=button]', '[role=link]', '[role=menuitem]', 'input[type=submit]', 'input[type=button]']);

/**
 * Fills the visible form around the page's password field and submits it, then waits (within the timeout)
 * for the page that answers, and says what signing in changed there.
 */
export async function signInThroughForm(page: Page, credentials: FormCredentials, timeoutMs: number): Promise<SignInSigns> {
  const password = page.locator('input[type=password]:visible').first();
  // The form holding the password field, or the page where the field stands outside any form.
  const form = (await password.locator('xpath=ancestor::form[1]').count()) > 0 ? password.locator('xpath=ancestor::form[1]') : page.locator('body');
  const identity = form.locator(IDENTITY_FIELD).first();
  if ((await identity.count()) > 0) await identity.fill(credentials.username, { timeout: timeoutMs });
  await password.fill(credentials.password, { timeout: timeoutMs });
  const before = { path: new URL(page.url()).pathname, session: await sessionOf(page) };
  const submit = form.locator(SUBMIT).first();
  const answered = page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  if ((await submit.count()) > 0) await submit.click({ timeout: timeoutMs });
  else await password.press('Enter', { timeout: timeoutMs });
  await answered;
  // A client-side login answers without a load: give its request the time it takes to settle.
  await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => undefined);
  await outcomeShown(page, Math.min(timeoutMs, OUTCOME_WAIT_MS));
  return {
    passwordShown: (await page.locator('input[type=password]:visible').count()) > 0,
    pathChanged: new URL(page.url()).pathname !== before.path,
    signOutShown: (await page.locator(CONTROLS).filter({ hasText: SIGN_OUT }).count()) > 0,
    sessionChanged: (await sessionOf(page)) !== before.session,
  };
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

/** The browser's cookies and the page's web storage, as one text to compare (never shown: it may hold a session). */
async function sessionOf(page: Page): Promise<string> {
  const storage = await page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])).catch(() => '');
  return JSON.stringify(await page.context().cookies()) + storage;
}
