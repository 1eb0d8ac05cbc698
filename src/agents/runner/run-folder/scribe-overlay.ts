/**
 * A candidate run under the user's own Playwright config: their projects (a setup project the spec's
 * project depends on, its storageState), fixtures, `use` options and webServer stay theirs; Scribe adds
 * its reporter and output folder, narrows the spec's project to the one candidate file, and fills in
 * time limits and a browser only where the user set none.
 *
 * The run's config (playwright.config.ts in the run folder, written by workspace.ts) imports the user's
 * config and exports `overlayUserConfig(user)`; what this run changes comes from scribe-run.json.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { PlaywrightTestConfig, PlaywrightTestOptions, PlaywrightWorkerOptions, ReporterDescription } from '@playwright/test';
import { readRunSettings } from './scribe-run.js';

export interface RunOverlay {
  /** The folder of the user's config: their relative paths are relative to it. */
  configDir: string;
  /** The project the spec belongs to; undefined for a config without projects (or the first project). */
  project?: string;
  specDir: string;
  /** The spec's file name, or the spec's and its proof copies'. */
  specName: string | string[];
  /** One, and one more per proof copy (each file in a worker of its own). */
  workers: number;
  outputDir: string;
  reportFile: string;
  snapshotDir: string;
  baseURL: string;
  timeouts: { test_ms: number; expect_ms: number; action_ms: number; navigation_ms: number };
  launchOptions: Record<string, unknown>;
  /** A contained run: every project's test connects to the run's own browser (launched inside the boundary), and this tsconfig serves every file. */
  connectOptions?: { wsEndpoint: string };
  tsconfig?: string;
  failureScreenshot: boolean;
  /** The trace Scribe records of the candidate's run and keeps (workspace.ts runTrace); none when absent. */
  trace?: RunTrace;
  /**
   * Scribe's trace whatever the user's `trace` option says (model-written code, contained); else the
   * user's option where they set one (their own specs: `scribe heal`, `scribe run`), Scribe's where not.
   */
  traceOverUser: boolean;
  /** Scribe's own reporters after the JSON report (the line reporter; those `scribe run --reporter` names, which Playwright checks). */
  reporters: unknown[][];
}

/** Playwright's `use.trace` as Scribe records it. */
export interface RunTrace {
  mode: 'on';
  snapshots: boolean;
  screenshots: boolean;
  sources: boolean;
}

type Project = NonNullable<PlaywrightTestConfig['projects']>[number];
type Use = Partial<PlaywrightTestOptions & PlaywrightWorkerOptions>;

/** Copies an existing file to a path relative to the run folder (the working directory), and only into it. */
function mirror(from: string, relative: string): void {
  const to = path.resolve(relative);
  if (existsSync(from) && !path.relative(process.cwd(), to).startsWith('..') && !existsSync(to)) cpSync(from, to);
}

/** The user's config as this run needs it. */
export function overlayUserConfig(user: PlaywrightTestConfig): PlaywrightTestConfig {
  const run = readRunSettings().overlay;
  if (!run) throw new Error('scribe-run.json has no overlay: this run has no user config');
  return overlay(user, run);
}

function overlay(user: PlaywrightTestConfig, run: RunOverlay): PlaywrightTestConfig {
  const absolute = <T>(value: T): T | string => (typeof value === 'string' ? path.resolve(run.configDir, value) : value);
  const absoluteScripts = (value: string | string[] | undefined) => (Array.isArray(value) ? value.map(absolute) : absolute(value));
  const projects: Project[] = user.projects && user.projects.length > 0 ? user.projects : [{}];
  const target = projects.find((p) => p.name === run.project) ?? projects.find((p) => !projects.some((other) => other.dependencies?.includes(p.name ?? ''))) ?? projects[0]!;

  // The spec's project and everything it needs (dependencies and their teardowns), nothing else.
  const needed = new Set<Project>();
  const visit = (project: Project | undefined) => {
    if (!project || needed.has(project)) return;
    needed.add(project);
    for (const name of project.dependencies ?? []) visit(projects.find((p) => p.name === name));
    if (project.teardown) visit(projects.find((p) => p.name === project.teardown));
  };
  visit(target);

  const testDirOf = (project: Project) => absolute(project.testDir ?? user.testDir ?? '.');
  // The run folder is the working directory: a state file a setup project writes lands there, and one the
  // project keeps on disk (relative to where the user runs Playwright) is copied there first.
  for (const project of needed) {
    const state = project.use?.storageState ?? user.use?.storageState;
    if (typeof state === 'string') mirror(absolute(state), state);
  }
  // A contained run: every project's test connects to the run's own browser.
  const connect = run.connectOptions ? { connectOptions: run.connectOptions } : {};
  const candidateUse = (use: Use = {}): Use => ({
    ...use,
    baseURL: run.baseURL,
    actionTimeout: use.actionTimeout ?? user.use?.actionTimeout ?? run.timeouts.action_ms,
    navigationTimeout: use.navigationTimeout ?? user.use?.navigationTimeout ?? run.timeouts.navigation_ms,
    launchOptions: use.launchOptions ?? user.use?.launchOptions ?? run.launchOptions,
    screenshot: use.screenshot ?? user.use?.screenshot ?? (run.failureScreenshot ? 'only-on-failure' : 'off'),
    trace: run.traceOverUser ? (run.trace ?? use.trace ?? user.use?.trace) : (use.trace ?? user.use?.trace ?? run.trace),
    ...connect,
  });
  const helperUse = (use: Use | undefined): Use => ({
    ...use,
    launchOptions: use?.launchOptions ?? user.use?.launchOptions ?? run.launchOptions,
    ...connect,
  });

  const kept = projects
    .filter((project) => needed.has(project))
    .map((project): Project => {
      const base = { ...project, outputDir: path.resolve(run.outputDir, project.name || 'default'), snapshotDir: absolute(project.snapshotDir) };
      if (project !== target) return { ...base, testDir: testDirOf(project), use: helperUse(project.use) };
      return { ...base, testDir: run.specDir, testMatch: run.specName, testIgnore: [], snapshotDir: run.snapshotDir, use: candidateUse(project.use) };
    });

  const webServers = user.webServer === undefined ? undefined : Array.isArray(user.webServer) ? user.webServer : [user.webServer];
  return {
    ...user,
    testDir: run.specDir,
    outputDir: run.outputDir,
    snapshotDir: run.snapshotDir,
    globalSetup: absoluteScripts(user.globalSetup),
    globalTeardown: absoluteScripts(user.globalTeardown),
    // Scribe may already have started the app the way this config does: use it rather than refuse. A
    // contained run starts nothing: its caller started the app, and its browser (Scribe's) reaches it.
    webServer: run.connectOptions ? undefined : webServers?.map((server) => ({ ...server, cwd: absolute(server.cwd ?? '.'), reuseExistingServer: true })),
    timeout: user.timeout ?? run.timeouts.test_ms,
    expect: { ...user.expect, timeout: user.expect?.timeout ?? run.timeouts.expect_ms },
    workers: run.workers,
    retries: 0,
    fullyParallel: false,
    forbidOnly: false,
    updateSnapshots: 'none',
    reporter: [['json', { outputFile: run.reportFile }], ...(run.reporters as unknown as ReporterDescription[])],
    use: { ...user.use, baseURL: run.baseURL, ...connect },
    ...(run.tsconfig ? { tsconfig: user.tsconfig ? absolute(user.tsconfig) : run.tsconfig } : {}),
    projects: kept,
  };
}
