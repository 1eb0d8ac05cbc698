/**
 * Exploring the pages behind a login. With the project's storage state file, signed in through it. Without
 * one, when the start URL lands on a sign-in page: the Playwright config's setup project (the spec's
 * project's dependencies) makes the state, run contained as in a candidate's run, since it is the user's
 * code; with no setup project, the page's own form is filled with the declared credentials (their values
 * reach the page only). What was done, or that the pages behind the login were not explored, is said.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { runGated } from '../agents/contained-run.ts';
import type { ExploreSignIn, PageInventory } from '../contracts.ts';
import { exploringBrowser, launchedBrowser, type ExploringBrowser } from '../explore/browser.ts';
import type { ExploreSettings } from '../explore/settings.ts';
import { isSignInPage, type FormCredentials } from '../explore/sign-in.ts';
import { runTarget, type ProjectContext } from '../project/context.ts';
import { withLifetimes, type Setup } from '../util/lifetimes.ts';
import { safetyGate } from '../validate/gate.ts';

export interface SignedInExploration {
  inventory: PageInventory;
  /** Absent when there was no storage state and the start page asked for no sign-in. */
  signIn?: ExploreSignIn;
}

export interface ExploreSignedInOptions {
  project: ProjectContext;
  browser: Browser;
  /** A blank page of a fresh context (ExploringBrowser), for the first exploration when it needs no storage state. */
  blankPage?: Page;
  testIdAttribute: string;
  settings: ExploreSettings;
  env: NodeJS.ProcessEnv;
  /** Progress of the setup project's run, which takes seconds. */
  onProgress: (message: string) => void;
  signal?: AbortSignal;
}

/**
 * The storage state to explore with, so pages behind a login are seen: agents/scribe.yaml
 * explore.storage_state, else the Playwright config's use.storageState; only a file that exists
 * (a setup project may not have written it yet).
 */
export function signedInState(project: ProjectContext): string | undefined {
  const configured = project.agents.scribe.explore.storage_state;
  const file = configured ? path.resolve(project.cwd, configured) : (project.playwright?.project.use.storageState ?? undefined);
  return file && existsSync(file) ? file : undefined;
}

export async function exploreSignedIn(url: string, options: ExploreSignedInOptions): Promise<SignedInExploration> {
  const { exploreSiteSigningIn } = await import('../explore/site.ts');
  const { project, browser, testIdAttribute, settings } = options;
  const explore = (extra: { storageState?: string; formSignIn?: FormCredentials; blankPage?: Page }) => exploreSiteSigningIn(url, { testIdAttribute, settings, browser, ...extra });

  const state = signedInState(project);
  if (state) {
    const { inventory } = await explore({ storageState: state });
    const shown = path.relative(project.cwd, state);
    return { inventory, signIn: outcome('storage_state', inventory, `explored signed in with the storage state ${shown}`, `with the storage state ${shown}`) };
  }
  const setup = setupProject(project);
  const credentials = setup ? undefined : formCredentials(project.agents.critic.credentials, options.env);
  const first = await explore({ ...(credentials ? { formSignIn: credentials } : {}), ...(options.blankPage ? { blankPage: options.blankPage } : {}) });
  if (first.signedInThroughForm !== undefined) {
    const signIn: ExploreSignIn = first.signedInThroughForm
      ? { method: 'login_form', explored_behind_login: true, message: 'signed in through the login form with the declared credentials' }
      : notExplored(first.inventory, 'its login form, filled with the declared credentials, did not get past it (check their values)', 'login_form');
    return { inventory: first.inventory, signIn };
  }
  if (!isSignInPage(first.inventory)) return { inventory: first.inventory };
  if (!setup) {
    const declared = Object.values(project.agents.critic.credentials).join(', ');
    return { inventory: first.inventory, signIn: notExplored(first.inventory, `there is no storage state, no setup project, and the declared credentials (${declared}) are not set`) };
  }
  options.onProgress(`${first.inventory.url} is a sign-in page: running the setup project ${setup.names} to sign in`);
  const made = await runSetupProject(project, url, setup, options);
  if ('error' in made) return { inventory: first.inventory, signIn: notExplored(first.inventory, `the setup project ${setup.names} did not make the storage state: ${made.error}`) };
  try {
    const { inventory } = await explore({ storageState: made.file });
    return { inventory, signIn: outcome('setup_project', inventory, `signed in with the storage state the setup project ${setup.names} made`, `with the storage state the setup project ${setup.names} made`) };
  } finally {
    rmSync(path.dirname(made.file), { recursive: true, force: true });
  }
}

/**
 * Explores in a browser of its own (`launch`: by default launched now), held only while exploring (the runs launch theirs inside their boundary,
 * so an idle Chromium would only compete with them) and closed at once when the work is cancelled: a
 * navigation to a page that never answers would otherwise hold it to its timeout, past a stopped command's grace.
 */
export async function exploreInOwnBrowser(url: string, options: Omit<ExploreSignedInOptions, 'browser' | 'blankPage'> & { launch?: Setup<ExploringBrowser> }): Promise<SignedInExploration> {
  const { launch = exploringBrowser(launchedBrowser(options.env)), ...exploring } = options;
  return withLifetimes(options.signal, async (lifetimes) => {
    const { browser, blankPage } = await lifetimes.acquire('the browser', launch);
    const stop = () => void browser.close().catch(() => undefined);
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      return await exploreSignedIn(url, { ...exploring, browser, ...(blankPage ? { blankPage } : {}) });
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  });
}

/** What the terminal says of a sign-in: what was done, or that the pages behind the login were not explored and how to fix it. */
export function signInLine(signIn: ExploreSignIn): string {
  if (signIn.explored_behind_login) return signIn.message;
  return `${signIn.message} (set explore.storage_state in agents/scribe.yaml, a setup project that writes your config's use.storageState, or the declared credentials)`;
}

/** The result of a way of signing in: explored behind the login, or the start page still asks to sign in. */
function outcome(method: ExploreSignIn['method'], inventory: PageInventory, done: string, tried: string): ExploreSignIn {
  if (!isSignInPage(inventory)) return { method, explored_behind_login: true, message: done };
  return { method, explored_behind_login: false, message: `${inventory.url} still asks to sign in after signing in ${tried}: the pages behind the login were not explored` };
}

function notExplored(inventory: PageInventory, why: string, method: ExploreSignIn['method'] = 'none'): ExploreSignIn {
  return { method, explored_behind_login: false, message: `${inventory.url} is a sign-in page and ${why}: the pages behind the login were not explored` };
}

/** The declared username and password, when both are set (critic.yaml settings.credentials). */
export function formCredentials(credentials: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): FormCredentials | undefined {
  const username = credentials.username ? env[credentials.username] : undefined;
  const password = credentials.password ? env[credentials.password] : undefined;
  return username && password ? { username, password } : undefined;
}

interface SetupProject {
  /** The setup projects' names, quoted, as messages show them. */
  names: string;
  /** The storage state file the spec's project reads, relative to the config's folder (where the run writes it). */
  stateFile: string;
}

/** The setup project(s) the spec's project depends on, when that project reads a storage state file they make. */
function setupProject(project: ProjectContext): SetupProject | undefined {
  const playwright = project.playwright;
  const state = playwright?.project.use.storageState;
  if (!playwright || !state || playwright.project.dependencies.length === 0) return undefined;
  const stateFile = path.relative(playwright.configDir, state);
  if (stateFile.startsWith('..') || path.isAbsolute(stateFile)) return undefined;
  return { names: playwright.project.dependencies.map((name) => `'${name}'`).join(', '), stateFile };
}

/** Nothing but what its project's dependencies do: the setup projects run first, as Playwright runs them. */
const SIGN_IN_SPEC = `import { test } from '@playwright/test';

test('scribe: the setup projects sign in for exploring', () => {});
`;

/** Runs the setup project contained, in the spec's project, and keeps the storage state it writes. */
async function runSetupProject(project: ProjectContext, url: string, setup: SetupProject, options: ExploreSignedInOptions): Promise<{ file: string } | { error: string }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'scribe-state-')), 'storage-state.json');
  // Through the gate like every contained run; the spec is Scribe's own, so its safety rules are enough.
  const gate = safetyGate(project.agents.critic, { projectRoot: project.cwd });
  const { report } = await runGated(gate, path.join(project.cwd, 'scribe-sign-in.spec.ts'), SIGN_IN_SPEC, {
    baseURL: url,
    cwd: project.cwd,
    env: options.env,
    ...runTarget(project),
    signal: options.signal,
    keepFile: { from: setup.stateFile, to: file },
  });
  if (report.status === 'pass' && existsSync(file)) return { file };
  rmSync(path.dirname(file), { recursive: true, force: true });
  return { error: report.status === 'pass' ? `no file at ${setup.stateFile} after it ran` : (report.error_message ?? report.status) };
}
