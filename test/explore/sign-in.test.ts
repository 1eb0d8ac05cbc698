/**
 * Signing in through a login form while exploring: success needs evidence of a session (a sign-out control, a
 * cookie or storage entry that appeared, a page behind the login reached) and no sign of failure (the password
 * asked for again, an error shown, an error or sign-in page reached); a changed URL alone is neither. The demo app
 * signs in on the same page (the form hidden, the dashboard and its "Log out" shown); the suite app redirects with
 * a session cookie, and answers a wrong password with an error page in the form's place at the same path; the
 * sign-in app (test/fixtures/sign-in-app.ts) gives little evidence either way.
 */
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadExploreSettings } from '../../src/config/explore.ts';
import { DEMO_ACCOUNT, startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { launchOptions } from '../../src/explore/browser.ts';
import { signedInBy, type FormCredentials } from '../../src/explore/sign-in.ts';
import { exploreSiteSigningIn } from '../../src/explore/site.ts';
import { startSignInApp, type SignInApp } from '../fixtures/sign-in-app.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';

const settings = loadExploreSettings();
const testIdAttribute = loadCriticConfig().testIdAttribute;
const SUITE_PASSWORD = 'Lantern-Moss-4410';
const SIGN_IN_APP_PASSWORD = 'Quarry-Fern-2087';

let browser: Browser;
let demo: DemoApp;
let suite: SuiteApp;
let sparse: SignInApp;

beforeAll(async () => {
  [browser, demo, suite, sparse] = await Promise.all([chromium.launch(launchOptions()), startDemoApp(), startSuiteApp({ password: SUITE_PASSWORD }), startSignInApp(SIGN_IN_APP_PASSWORD)]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), demo?.close(), suite?.close(), sparse?.close()]);
});

const explore = (url: string, formSignIn: FormCredentials) => exploreSiteSigningIn(url, { testIdAttribute, settings, browser, formSignIn });
/** The headings of the pages explored beside the start page. */
const otherHeadings = (inventory: { pages?: Array<{ headings: Array<{ text: string }> }> }) => (inventory.pages ?? []).flatMap((page) => page.headings.map((heading) => heading.text));
/** The test ids of the explored pages shown visible. */
const visibleIds = (pages: Array<{ testIds: Array<{ testId: string; visible?: boolean }> }>) => pages.flatMap((page) => page.testIds.filter((id) => id.visible).map((id) => id.testId));

describe('signing in through the form', () => {
  it('on an app that signs in on the same page: signed in, and the signed-in view is explored', async () => {
    const { signedInThroughForm, inventory } = await explore(`${demo.url}/login`, DEMO_ACCOUNT);
    expect(signedInThroughForm).toBe(true);
    // The start page stays the sign-in page, as a spec without a storage state finds it.
    expect(visibleIds([inventory])).toContain('login-button');
    expect(visibleIds(inventory.pages ?? [])).toEqual(expect.arrayContaining(['dashboard-heading', 'logout-button']));
  });

  it('with a wrong password on the same app: not signed in (the form is shown again with its error)', async () => {
    const { signedInThroughForm, inventory } = await explore(`${demo.url}/login`, { ...DEMO_ACCOUNT, password: 'not-the-password' });
    expect(signedInThroughForm).toBe(false);
    expect(visibleIds(inventory.pages ?? [])).not.toContain('logout-button');
  });

  it('on an app that redirects after signing in: signed in, and the pages behind the login are explored', async () => {
    const { signedInThroughForm, inventory } = await explore(`${suite.url}/login`, { username: 'ada', password: SUITE_PASSWORD });
    expect(signedInThroughForm).toBe(true);
    expect(visibleIds(inventory.pages ?? [])).toContain('welcome');
  });

  it('with a wrong password there: not signed in, though its error page has no password field', async () => {
    const { signedInThroughForm, inventory } = await explore(`${suite.url}/login`, { username: 'ada', password: 'not-the-password' });
    expect(signedInThroughForm).toBe(false);
    expect(visibleIds(inventory.pages ?? [])).not.toContain('welcome');
  });

  it('in a blank page opened ahead (generate opens one while it starts): the same exploration, and its context closed after', async () => {
    const fresh = await explore(`${suite.url}/login`, { username: 'ada', password: SUITE_PASSWORD });
    const before = browser.contexts().length;
    const blankPage = await (await browser.newContext()).newPage();
    const ahead = await exploreSiteSigningIn(`${suite.url}/login`, { testIdAttribute, settings, browser, formSignIn: { username: 'ada', password: SUITE_PASSWORD }, blankPage });
    expect(ahead).toEqual(fresh);
    expect(blankPage.isClosed()).toBe(true);
    expect(browser.contexts()).toHaveLength(before);
  });
});

describe('signing in where the evidence is sparse (a session cookie from the first visit, kept by the server)', () => {
  const wrong = { username: 'ada@example.com', password: 'not-the-password' };
  const right = { username: 'ada@example.com', password: SIGN_IN_APP_PASSWORD };

  it.each(['/login-failed', '/error', '/oops'])('a wrong password redirected to a form-less page at %s that says "Invalid password": not signed in', async (failure) => {
    const { signedInThroughForm, inventory } = await explore(`${sparse.url}/login?failure=${failure}`, wrong);
    expect(signedInThroughForm).toBe(false);
    expect(otherHeadings(inventory)).not.toContain('We could not sign you in');
  });

  it('a right password redirected to a page anonymous visits cannot reach (no sign-out control, no cookie appeared): signed in', async () => {
    const { signedInThroughForm, inventory } = await explore(`${sparse.url}/login`, right);
    expect(signedInThroughForm).toBe(true);
    expect(otherHeadings(inventory)).toContain('Your orders');
  });

  it.each(['aria-label', 'title'])('signed in on the same page, its sign-out control an icon named only by %s: signed in', async (naming) => {
    const { signedInThroughForm, inventory } = await explore(`${sparse.url}/app?naming=${naming}`, right);
    expect(signedInThroughForm).toBe(true);
    expect(otherHeadings(inventory)).toContain('Workspace');
  });
});

describe('signedInBy', () => {
  const none = { passwordShown: false, failureShown: false, failurePage: false, signOutShown: false, sessionAppeared: false, behindLoginReached: false };
  it('needs one piece of evidence of a session', () => {
    expect(signedInBy({ ...none, signOutShown: true })).toBe(true);
    expect(signedInBy({ ...none, sessionAppeared: true })).toBe(true);
    expect(signedInBy({ ...none, behindLoginReached: true })).toBe(true);
    // The form gone and nothing else: a page in its place with no session shown is no sign-in.
    expect(signedInBy(none)).toBe(false);
  });
  it('is refused by any sign of failure, whatever evidence there is', () => {
    const all = { ...none, signOutShown: true, sessionAppeared: true, behindLoginReached: true };
    // The form still (or again) asks for a password; an error is shown (a flash cookie appeared with it); an error page was reached.
    expect(signedInBy({ ...all, passwordShown: true })).toBe(false);
    expect(signedInBy({ ...all, failureShown: true })).toBe(false);
    expect(signedInBy({ ...all, failurePage: true })).toBe(false);
  });
});
