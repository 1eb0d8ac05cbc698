/**
 * Signing in through a login form while exploring: success is decided by what signing in changes (the form
 * gone, and the page, a sign-out control or the session changed), not by the URL alone. The demo app signs
 * in on the same page (the form hidden, the dashboard and its "Log out" shown); the suite app redirects with a
 * session cookie, and answers a wrong password with an error page in the form's place at the same path.
 */
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadExploreSettings } from '../../src/config/explore.ts';
import { DEMO_ACCOUNT, startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { launchOptions } from '../../src/explore/browser.ts';
import { signedInBy, type FormCredentials } from '../../src/explore/sign-in.ts';
import { exploreSiteSigningIn } from '../../src/explore/site.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';

const settings = loadExploreSettings();
const testIdAttribute = loadCriticConfig().testIdAttribute;
const SUITE_PASSWORD = 'Lantern-Moss-4410';

let browser: Browser;
let demo: DemoApp;
let suite: SuiteApp;

beforeAll(async () => {
  [browser, demo, suite] = await Promise.all([chromium.launch(launchOptions()), startDemoApp(), startSuiteApp({ password: SUITE_PASSWORD })]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), demo?.close(), suite?.close()]);
});

const explore = (url: string, formSignIn: FormCredentials) => exploreSiteSigningIn(url, { testIdAttribute, settings, browser, formSignIn });
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
});

describe('signedInBy', () => {
  const none = { passwordShown: false, pathChanged: false, signOutShown: false, sessionChanged: false };
  it('needs the password field gone and one thing signing in changes', () => {
    expect(signedInBy({ ...none, pathChanged: true })).toBe(true);
    expect(signedInBy({ ...none, signOutShown: true })).toBe(true);
    expect(signedInBy({ ...none, sessionChanged: true })).toBe(true);
    // An error page in the form's place, at the same path, with nothing kept: not signed in.
    expect(signedInBy(none)).toBe(false);
    // The form still (or again) asks for a password, whatever else changed (a flash cookie, a redirect to ?error).
    expect(signedInBy({ passwordShown: true, pathChanged: true, signOutShown: true, sessionChanged: true })).toBe(false);
  });
});
