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

/**
 * Fills the visible form around the page's password field and submits it, then waits (within the timeout)
 * for the page that answers. Whether it worked is for the caller to see: the start page no longer asks to
 * sign in.
 */
export async function signInThroughForm(page: Page, credentials: FormCredentials, timeoutMs: number): Promise<void> {
  const password = page.locator('input[type=password]:visible').first();
  // The form holding the password field, or the page where the field stands outside any form.
  const form = (await password.locator('xpath=ancestor::form[1]').count()) > 0 ? password.locator('xpath=ancestor::form[1]') : page.locator('body');
  const identity = form.locator(IDENTITY_FIELD).first();
  if ((await identity.count()) > 0) await identity.fill(credentials.username, { timeout: timeoutMs });
  await password.fill(credentials.password, { timeout: timeoutMs });
  const submit = form.locator(SUBMIT).first();
  const answered = page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  if ((await submit.count()) > 0) await submit.click({ timeout: timeoutMs });
  else await password.press('Enter', { timeout: timeoutMs });
  await answered;
  // A client-side login answers without a load: give its request the time it takes to settle.
  await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => undefined);
}
