/**
 * The project, read once: the merged agents/*.yaml, the user's Playwright config, where accepted specs go,
 * the app URL, the environment and the model provider. Commands and the HTTP API build one and hand it
 * to the stages; no stage finds or reads a file on its own.
 *
 * Precedence, highest first: command-line flags, environment (BASE_URL), agents/*.yaml, the Playwright
 * config, the bundled defaults.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadAgents, safetyWarning, withPlaywrightTestIdAttribute, type Agents } from '../config/agents.ts';
import { formatProblem } from '../config/errors.ts';
import { chooseProviderName, type ProviderName } from '../llm/provider.ts';
import { weakSecretWarnings } from '../llm/redact.ts';
import { GENERATED_FOLDER, SAMPLE_SPEC_IN_FOLDER } from './config-file.ts';
import { projectEsmLoading, type EsmLoading } from './esm-loading.ts';
import { readProjectPlaywright, type PlaywrightChoice, type PlaywrightProject, type VariablesFor } from './playwright.ts';
import { setupProjectVariables } from './setup-variables.ts';
import { withLifetimes, type Setup } from '../util/lifetimes.ts';
import { once } from '../util/once.ts';
import { startWebServers } from './web-server.ts';

export interface ProjectContext {
  /** The project's root: where agents/, the Playwright config and .scribe/ are. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  agents: Agents;
  /** The user's Playwright config; undefined when the project has none. */
  playwright: PlaywrightProject | undefined;
  /**
   * The variables its setup projects read (setup-variables.ts): a run passes them on, as `npx playwright test` does.
   * Read from the setup projects' files when first asked where loading the config did not need them (`validate`).
   */
  setupVariables: () => readonly string[];
  /** Absolute folder accepted specs go into (<feature>/<request>.spec.ts below it). */
  outputDir: string;
  /** The app under test: BASE_URL, else the Playwright config's use.baseURL (a flag overrides both). */
  baseURL: string | undefined;
  provider: ProviderName;
  /** Said on every run (stderr; a `warnings` field under --json): safety rules switched off, deprecated keys, and the like. */
  warnings: string[];
  /** The project's tsconfig.json, if it has one: the type check resolves imports (path aliases) as the project does. */
  tsconfig: string | undefined;
  /**
   * Whether its runs need Playwright's ESM loader (esm-loading.ts), read from its files when first asked (a
   * command that runs nothing, validate or stats, never reads them); absent, they are taken to need it.
   */
  esmLoading?: () => EsmLoading;
}

export interface ProjectOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `scribe validate --config`: a critic.yaml read instead of the project's, still as an override. */
  criticFile?: string;
  /** `--provider`. */
  provider?: ProviderName;
  /** agents/*.yaml already read from this cwd (with this criticFile), without the Playwright config's settings. */
  agents?: Agents;
  /** The Playwright config's read, already started (readProjectPlaywright). */
  playwright?: Promise<PlaywrightProject | undefined>;
  /** `-c/--config` and `--project`: which Playwright config and project (default: the cwd's, its first non-setup project). */
  playwrightChoice?: PlaywrightChoice;
}

export async function loadProject(options: ProjectOptions): Promise<ProjectContext> {
  const cwd = path.resolve(options.cwd);
  // The config's reader starts first, beside reading agents/, which says the variables it is asked for.
  let agentsRead: (agents: Agents | undefined) => void = () => undefined;
  const readAgents = new Promise<Agents | undefined>((resolve) => (agentsRead = resolve));
  // The setup projects' variables are found once the config says which they are; unknown agents (their error is thrown) ask for none.
  let askedSetupVariables: string[] | undefined;
  const variables: VariablesFor = async (config, chosen) => {
    const known = await readAgents;
    askedSetupVariables = setupProjectVariables(config, chosen);
    return known ? [...generatedSpecEnv(known.critic), ...askedSetupVariables] : [];
  };
  const reading = options.playwright ?? readProjectPlaywright(cwd, options.env, options.playwrightChoice, variables);
  // Awaited below; an error in agents/ is thrown first and leaves it unread.
  reading.catch(() => undefined);
  let read: Agents;
  try {
    read = options.agents ?? loadAgents(cwd, { criticFile: options.criticFile });
  } catch (error) {
    agentsRead(undefined);
    throw error;
  }
  agentsRead(read);
  const playwright = await reading;
  const setupVariables = once(() => askedSetupVariables ?? (playwright ? setupProjectVariables(playwright, playwright.project) : []));
  const agents = withPlaywrightTestIdAttribute(read, playwright?.project.use.testIdAttribute);
  // What `npx playwright test` gives the tests: the caller's environment, with what the config sets (its dotenv) over it.
  const fromConfig = playwright?.env ?? {};
  const env = { ...options.env, ...fromConfig };
  // agents/scribe.yaml's output_dir when the user names one, else <testDir>/generated, else the bundled default.
  const namedOutput = agents.named('scribe.yaml', ['generation', 'output_dir']);
  const outputDir = namedOutput || !playwright ? path.resolve(cwd, agents.scribe.generation.output_dir) : path.join(playwright.project.testDir, GENERATED_FOLDER);
  const warnings = [
    safetyWarning(agents),
    ...agents.deprecations.map(formatProblem),
    playwright && placementWarning(outputDir, playwright, namedOutput),
    playwright && configEnvNote(Object.keys(fromConfig), playwright.configFile),
    ...weakSecretWarnings(agents.critic.credentials, env),
  ].filter((w): w is string => w !== undefined);
  return {
    cwd,
    env,
    agents,
    playwright,
    setupVariables,
    outputDir,
    baseURL: env.BASE_URL?.trim() || playwright?.project.use.baseURL,
    provider: chooseProviderName(options.env, options.provider),
    warnings,
    tsconfig: projectTsconfig(cwd),
    esmLoading: once(() => projectEsmLoading([cwd, ...(playwright ? [playwright.configDir, playwright.project.testDir] : [])])),
  };
}

/** The project's tsconfig.json, if it has one. */
export function projectTsconfig(cwd: string): string | undefined {
  const file = path.join(path.resolve(cwd), 'tsconfig.json');
  return existsSync(file) ? file : undefined;
}

/** Variables a run passes on (a spec or a setup project reads them) that the Playwright config set, said once: their values are not the caller's shell's. */
function configEnvNote(names: readonly string[], configFile: string): string | undefined {
  if (names.length === 0) return undefined;
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} taken as ${path.basename(configFile)} sets ${names.length === 1 ? 'it' : 'them'} (its .env, say), as \`npx playwright test\` has ${names.length === 1 ? 'it' : 'them'}`;
}

/** A spec written to the output folder that the user's own `npx playwright test` would not run is worth a word. */
function placementWarning(outputDir: string, playwright: PlaywrightProject, namedOutput: boolean): string | undefined {
  // The default folder was asked of Playwright with the config; a folder named in scribe.yaml is matched here.
  const runs = namedOutput ? playwright.matches(path.join(outputDir, SAMPLE_SPEC_IN_FOLDER)) : playwright.project.runsSample;
  if (runs) return undefined;
  const name = playwright.project.name ? `project "${playwright.project.name}"` : 'its tests';
  return `specs written to ${outputDir} do not match the testDir/testMatch of ${name} in ${playwright.configFile}, so \`npx playwright test\` will not run them`;
}

/** The arguments that run a spec under the user's config and project (the Runner's part). */
export function runTarget(project: ProjectContext): { playwrightConfigFile?: string; project?: string; storageState?: string; testIdAttribute: string; config: Agents['runner']; allowedEnv: string[]; setupVariables: readonly string[]; esmLoader: boolean } {
  const storageState = project.playwright?.project.use.storageState;
  return {
    testIdAttribute: project.agents.critic.testIdAttribute,
    esmLoader: project.esmLoading?.().needed ?? true,
    config: project.agents.runner,
    allowedEnv: generatedSpecEnv(project.agents.critic),
    setupVariables: project.setupVariables(),
    ...(project.playwright ? { playwrightConfigFile: project.playwright.configFile } : {}),
    // A config without projects has one unnamed project: no --project to pass.
    ...(project.playwright?.project.name ? { project: project.playwright.project.name } : {}),
    ...(storageState ? { storageState } : {}),
  };
}

/** The variables a model-written spec may read (the declared credentials and the gate's `allowed-code.env`): all a contained run passes on. */
function generatedSpecEnv(critic: Agents['critic']): string[] {
  const gate = critic.criteria.find((criterion) => criterion.id === 'allowed-code')?.options as { env?: string[] } | undefined;
  return [...new Set([...(gate?.env ?? ['BASE_URL']), ...Object.values(critic.credentials)])];
}

/**
 * Runs `work` with the app the Playwright config's webServer starts (started or reused as Playwright
 * would, stopped after); without a webServer, just runs it.
 */
export async function withWebServer<T>(project: ProjectContext, onNote: (note: string) => void, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return withLifetimes(signal, async (lifetimes) => {
    await lifetimes.acquire('the web server', webServers(project, onNote));
    return work();
  });
}

/** The setup of the Playwright config's web servers (none without a webServer): started or reused, stopped at teardown. */
export function webServers(project: ProjectContext, onNote: (note: string) => void): Setup<void> {
  return async (signal) => {
    const servers = project.playwright?.webServers ?? [];
    if (servers.length === 0) return { value: undefined, teardown: () => undefined };
    const started = await startWebServers(servers, project.env, signal);
    started.notes.forEach(onNote);
    return { value: undefined, teardown: () => started.stop() };
  };
}
