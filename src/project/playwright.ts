/**
 * The user's Playwright config, read as Playwright reads it (its own loader and TypeScript transform, in a
 * child process; see read-playwright-config.cjs), reduced to what Scribe needs: where tests live and what
 * they match, the `use` options that shape a generated spec, the projects and their dependencies, and
 * the web server that starts the app.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as osConstants, setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError } from '../config/errors.ts';
import { findPlaywrightConfig, SAMPLE_SPEC } from './config-file.ts';

/** The names `npx playwright test` looks for, in its order. */

const READER = fileURLToPath(new URL('./read-playwright-config.cjs', import.meta.url));

const Pattern = z.union([z.object({ glob: z.string() }), z.object({ regex: z.string(), flags: z.string() })]);

const PlaywrightProjectEntry = z.object({
  name: z.string(),
  testDir: z.string(),
  testMatch: z.array(Pattern),
  testIgnore: z.array(Pattern),
  dependencies: z.array(z.string()),
  /** Whether Playwright would run a spec at the sample path asked for (see readPlaywrightConfig). */
  runsSample: z.boolean(),
  use: z.object({
    baseURL: z.string().optional(),
    testIdAttribute: z.string().optional(),
    /** A file path; null when the config gives the state inline (an object). */
    storageState: z.string().nullable().optional(),
  }),
});
export type PlaywrightProjectEntry = z.infer<typeof PlaywrightProjectEntry>;

export const WebServer = z.object({
  command: z.string(),
  url: z.string().optional(),
  port: z.number().int().optional(),
  reuseExistingServer: z.boolean(),
  cwd: z.string(),
  env: z.record(z.string(), z.string().optional()).optional(),
  timeout: z.number().optional(),
});
export type WebServer = z.infer<typeof WebServer>;

const ReadConfig = z.object({
  /** The variables asked for (see readPlaywrightConfig) that loading the config set or changed, with the values it left. */
  env: z.record(z.string(), z.string()),
  configFile: z.string(),
  configDir: z.string(),
  projects: z.array(PlaywrightProjectEntry).min(1),
  webServers: z.array(WebServer),
});
/** The config as the reader sends it first, before it is asked for variables. */
const ReadConfigFirst = ReadConfig.omit({ env: true });
export type ReadPlaywrightConfig = z.infer<typeof ReadConfig>;

export interface PlaywrightProject extends ReadPlaywrightConfig {
  /** The project generated specs belong to: the first that no other project depends on (not a setup project). */
  project: PlaywrightProjectEntry;
  /** Whether Playwright would run this file in the chosen project (its testDir, testMatch and testIgnore). */
  matches(file: string): boolean;
}

/** A read config as it crosses to a worker thread (no function): `withMatcher` makes it whole again. */
export type PlaywrightRead = Omit<PlaywrightProject, 'matches'>;

/** The read config without its matcher, for a worker thread (structured clone takes no function). */
export function playwrightRead({ env, configFile, configDir, projects, webServers, project }: PlaywrightProject): PlaywrightRead {
  return { env, configFile, configDir, projects, webServers, project };
}

export function withMatcher(read: PlaywrightRead): PlaywrightProject {
  return { ...read, matches: projectMatcher(read.project, read.configFile) };
}

export { findPlaywrightConfig } from './config-file.ts';

/**
 * The variables whose values the config may set (its dotenv), once its projects are known: the declared ones, and
 * those the project's setup projects read. The reader starts before the caller knows them.
 */
export type VariablesFor = (config: Omit<ReadPlaywrightConfig, 'env'>, project: PlaywrightProjectEntry) => Promise<readonly string[]>;

const NO_VARIABLES: VariablesFor = async () => [];

/**
 * The project's Playwright config, read by Playwright's loader in a child process (a few tenths of a
 * second): started early, other work can go on meanwhile (loadProject's `playwright`).
 */
export function readProjectPlaywright(cwd: string, env: NodeJS.ProcessEnv, choice: PlaywrightChoice = {}, variables: VariablesFor = NO_VARIABLES): Promise<PlaywrightProject | undefined> {
  const configFile = choice.configFile ? path.resolve(cwd, choice.configFile) : findPlaywrightConfig(path.resolve(cwd));
  if (choice.configFile && !existsSync(configFile!)) return Promise.reject(new ConfigError([{ file: configFile!, key: '', line: 0, message: 'no such Playwright config (-c/--config)' }]));
  return configFile ? readPlaywrightConfig(configFile, env, SAMPLE_SPEC, choice.project, variables) : Promise.resolve(undefined);
}

/** `-c/--config` and `--project`, as `npx playwright test` takes them. */
export interface PlaywrightChoice {
  /** The Playwright config file (relative to the cwd); default: playwright.config.* of the cwd. */
  configFile?: string;
  /** The project generated specs belong to and run in; default: the first that no other project depends on. */
  project?: string;
}

/** What the config's reader sent: the config and the chosen project, then the variables' values; or why it could not. */
interface ReaderAnswer {
  config?: Omit<ReadPlaywrightConfig, 'env'>;
  project?: PlaywrightProjectEntry;
  env?: Record<string, string>;
  error?: string | ConfigError;
}

/**
 * Loads the config with Playwright's own loader; a config Playwright refuses is a ConfigError naming the file.
 * The reader sends the config, is asked for the variables `variables` names, and sends their values.
 */
export async function readPlaywrightConfig(configFile: string, env: NodeJS.ProcessEnv, sample: string, projectName?: string, variables: VariablesFor = NO_VARIABLES): Promise<PlaywrightProject> {
  const answer = await new Promise<ReaderAnswer>((resolve, reject) => {
    const child = fork(READER, [configFile, sample], { cwd: path.dirname(configFile), env, execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    yieldTheProcessor(child.pid);
    // A reader that ended already (its config failed) said why: a send it can no longer take is no error of its own.
    const ask = (names: readonly string[]) => child.connected && child.send({ variables: names }, () => undefined);
    let stderr = '';
    const answered: ReaderAnswer = {};
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('message', (m: { config?: unknown; env?: Record<string, string>; error?: string }) => {
      if (m.error !== undefined) answered.error = m.error;
      if (m.env !== undefined) answered.env = m.env;
      if (m.config === undefined) return;
      const parsed = ReadConfigFirst.safeParse(m.config);
      if (!parsed.success) {
        // Asked for nothing, the reader ends; unasked, it would wait for ever.
        answered.error = `its reader sent a config Scribe cannot read (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`;
        ask([]);
        return;
      }
      const config = parsed.data;
      const project = projectName === undefined ? defaultProject(config.projects) : config.projects.find((p) => p.name === projectName);
      if (!project) {
        answered.error = new ConfigError([{ file: configFile, key: 'projects', line: 0, message: `no project named "${projectName}" (--project); it has ${config.projects.map((p) => `"${p.name}"`).join(', ')}` }]);
        ask([]);
        return;
      }
      Object.assign(answered, { config, project });
      variables(config, project).then(ask, () => ask([]));
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(answered.config || answered.error !== undefined ? answered : { error: `the config loader stopped (exit ${code}) ${stderr.trim()}` }));
  });
  if (answer.error instanceof ConfigError) throw answer.error;
  if (answer.error !== undefined) throw new ConfigError([{ file: configFile, key: '', line: 0, message: `Playwright cannot load this config: ${answer.error}` }]);
  if (!answer.config || !answer.project) throw new ConfigError([{ file: configFile, key: '', line: 0, message: 'Playwright cannot load this config: its reader sent nothing' }]);
  return withMatcher({ ...answer.config, env: answer.env ?? {}, project: answer.project });
}

function defaultProject(projects: PlaywrightProjectEntry[]): PlaywrightProjectEntry {
  return projects.find((p) => !projects.some((other) => other.dependencies.includes(p.name))) ?? projects[0]!;
}

/** Whether `npx playwright test` would run this file in any project of the config (setup projects too). */
export function isTestFileOf(config: ReadPlaywrightConfig): (file: string) => boolean {
  const matchers = config.projects.map((project) => projectMatcher(project, config.configFile));
  return (file) => matchers.some((matches) => matches(file));
}

/**
 * The reader is started early so it runs beside other work (`scribe validate` checks the specs meanwhile):
 * when both want a core, that work should have it, and the reader takes what is left.
 */
function yieldTheProcessor(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, osConstants.priority.PRIORITY_LOW);
  } catch {
    // not allowed here: the reader runs at the usual priority
  }
}

/** The same file matching Playwright applies (its createFileMatcher), from the Playwright the config loads (else Scribe's). */
export function projectMatcher(project: PlaywrightProjectEntry, configFile: string): (file: string) => boolean {
  // Loaded on first use: Playwright's utilities take a tenth of a second to load, and most commands never match a file.
  let matchers: { included: (file: string) => boolean; ignored: (file: string) => boolean } | undefined;
  const load = () => {
    const { createFileMatcher } = playwrightRequire(configFile)('playwright/lib/util') as { createFileMatcher: (p: Array<string | RegExp>) => (file: string) => boolean };
    const toPattern = (p: z.infer<typeof Pattern>) => ('glob' in p ? p.glob : new RegExp(p.regex, p.flags));
    const ignored = project.testIgnore.length > 0 ? createFileMatcher(project.testIgnore.map(toPattern)) : () => false;
    return { included: createFileMatcher(project.testMatch.map(toPattern)), ignored };
  };
  return (file) => {
    const absolute = path.resolve(file);
    const relative = path.relative(project.testDir, absolute);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return false;
    matchers ??= load();
    return matchers.included(absolute) && !matchers.ignored(absolute);
  };
}

/** A require from the @playwright/test the config would load (its `playwright` is that version's), else Scribe's. */
function playwrightRequire(configFile: string): NodeJS.Require {
  for (const base of [configFile, fileURLToPath(import.meta.url)]) {
    try {
      return createRequire(createRequire(base).resolve('@playwright/test/package.json'));
    } catch {
      // not installed there: try the next place
    }
  }
  return createRequire(import.meta.url);
}
