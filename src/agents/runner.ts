/**
 * The Runner: runs one spec with Playwright's own test runner against a live app and says what
 * happened — pass, or a failure classified as test_bug, app_bug, environment or timeout — with the
 * evidence (error and its line in the spec, screenshots, browser console errors, the page snapshot at
 * failure, Playwright's output). The spec runs from a temporary folder that is always removed, also on
 * timeout, crash or Ctrl-C; past the whole-run limit Playwright's whole process tree is killed.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from '@playwright/test';
import { RunnerReport } from '../contracts.ts';
import { runnerFolders, type RunnerConfig } from '../config/runner.ts';
import { browserCandidates, BrowserNotFoundError, launchOptions } from '../explore/browser.ts';
import { AppOriginError, appRoutes, NETWORK_DIR_INSIDE, relayedNetwork, type AppRoute } from './runner/app-network.ts';
import { redact, secretValues, type Secret } from '../llm/redact.ts';
import { statsHome } from '../stats/log.ts';
import { withLifetimes, type Setup } from '../util/lifetimes.ts';
import { printable } from '../util/terminal.ts';
import { variablesRead } from '../analysis/environment.ts';
import { neutraliseGroups, type NeutraliseOptions, type NeutralisedSpec } from '../analysis/neutralise.ts';
import { actingProjectMethods } from './page-object-steps.ts';
import { judgeReport, judgeWithoutReport, type Verdict } from './runner/classify.ts';
import { judgeProofs, retried, splitReport } from './runner/proof.ts';
import { gatherEvidence, keepRunFiles } from './runner/evidence.ts';
import { readPlaywrightReport, testsOf } from './runner/playwright-report.ts';
import { packageLayoutProblem } from './runner/package-layout.ts';
import { onInterrupt, startPlaywright, type PlaywrightInvocation, type ProcessOutcome, type RunningProcess } from './runner/process.ts';
import { newRunId, removeAbandonedRuns, removeAbandonedScratch, regularFileInside, removeWorkspace, scratchName, workspaceDir } from './runner/run-folders.ts';
import { hostCgroups, openMemoryCap, removeAbandonedCaps, type MemoryCapOutcome } from './runner/memory-cap.ts';
import { preloadOptions, runPermissions } from './runner/permissions.ts';
import { CODE_CACHE_MODULE, CONTAINED_CODE_CACHE, makeRunCodeCache, TRUSTED_CODE_CACHE } from './runner/run-code-cache.ts';
import { fileSizeLimit, sandboxPrefix, SandboxUnavailableError, type SandboxChoice } from './runner/sandbox.ts';
import { RUN_FOLDER_VARIABLE } from './runner/run-folder/scribe-run.ts';
import {
  containedTsconfig,
  createWorkspace,
  linkPlaywright,
  runConfigFile,
  runWorkDir,
  resolvePlaywright,
  runLoadsEsm,
  screenshotCalls,
  type PlaywrightPackage,
  type RunWorkspace,
  type SpecSource,
} from './runner/workspace.ts';

export interface RunSpecOptions {
  /** A spec on disk. Its relative imports (fixtures, page objects) still resolve from its folder. */
  specPath?: string;
  /** A candidate spec's text, with the name it will have… */
  specText?: string;
  fileName?: string;
  /** …and the folder it is meant for (its relative imports resolve from there; default: cwd). */
  sourceDir?: string;
  /** The app under test: Playwright's baseURL, and BASE_URL for the spec. */
  baseURL: string;
  /** The project: where the Scribe home is. Default: process.cwd(). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** agents/runner.yaml, loaded (a ProjectContext's `agents.runner`, as runTarget gives it). */
  config: RunnerConfig;
  /** The project's test id attribute (a ProjectContext's `agents.critic.testIdAttribute`, as runTarget gives it). */
  testIdAttribute: string;
  /** The user's Playwright config and the project of it the spec belongs to (a ProjectContext's). */
  playwrightConfigFile?: string;
  project?: string;
  /** The storage state file that project reads (its config's use.storageState, resolved), named when a contained run cannot write it. */
  storageState?: string;
  /**
   * Model-written code: the run is contained. Playwright gets a scrubbed environment (allowedEnv, the
   * app's BASE_URL and what Node needs to start; HOME is the run's working folder), never the model key, the API
   * token or anything else of the caller's.
   */
  untrusted?: boolean;
  /** The variables an untrusted spec may read (the gate's allowed-code `env`). */
  allowedEnv?: readonly string[];
  /**
   * The variables the setup projects the spec's project depends on read (project/setup-variables.ts): a contained
   * run passes them on too, as `npx playwright test` would, and hides their values from its evidence; a setup
   * project that fails while one is unset is told so.
   */
  setupVariables?: readonly string[];
  /**
   * `scribe run`'s pass-through: Playwright test flags (--grep, --headed, --trace…) added to its command line,
   * and the reporters shown besides the JSON report the Runner reads (default: line). Trusted runs only.
   */
  playwrightArgs?: readonly string[];
  reporters?: readonly string[];
  /**
   * Whether the project's runs need Playwright's ESM loader (runTarget: project/esm-loading.ts); default
   * true. Without it each Playwright process transforms TypeScript through require hooks alone
   * (runner/playwright-cjs-transform.cjs) and starts no loader thread.
   */
  esmLoader?: boolean;
  /** Aborting stops Playwright and its browser at once (the report then says the run was stopped). */
  signal?: AbortSignal;
  /**
   * Run the spec's proof in the same Playwright run: its copy with the actions under test made no-ops
   * (analysis/neutralise.ts), after it; a green report then says whether its assertions depend on them.
   */
  proof?: NeutraliseOptions;
  /**
   * The declared credential variables (critic.yaml settings.credentials): a spec that reads one that is
   * unset or empty in `env` is not run, an environment problem (it would sign in with nothing and test a
   * failed login).
   */
  credentials?: readonly string[];
  /**
   * A file the run writes, relative to its working folder (the storage state a setup project makes), copied
   * to `to` before the run folder is removed; only a regular file inside the working folder.
   */
  keepFile?: { from: string; to: string };
}

/** Playwright's CLI under the permission model (see contained-cli.cjs). */
const CONTAINED_CLI = fileURLToPath(new URL('./runner/contained-cli.cjs', import.meta.url));
/** What contained-cli.cjs requires of Scribe's: its process must be able to read it. */
const TRANSFORM_WARM_UP = fileURLToPath(new URL('./runner/transform-warm-up.cjs', import.meta.url));
/** Preloaded into Playwright's processes of a run that needs no ESM loader (see playwright-cjs-transform.cjs). */
const CJS_TRANSFORM = fileURLToPath(new URL('./runner/playwright-cjs-transform.cjs', import.meta.url));

export async function runSpec(options: RunSpecOptions): Promise<RunnerReport> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const { specPath, specText, fileName, sourceDir, proof, credentials, ...rest } = options;
  const spec = specSource({ specPath, specText, fileName, sourceDir }, cwd);
  const started = startRun({ ...rest, fileName: spec.fileName, sourceDir: spec.sourceDir, shownAs: displayName(specPath, spec, cwd) });
  return started.run({ text: spec.text, ...(proof ? { proof } : {}), ...(credentials ? { credentials } : {}) });
}

/** What a run needs before its spec's text: the spec's name and folder, and everything else the Runner is given. */
export interface RunStartOptions extends Omit<RunSpecOptions, 'specPath' | 'specText' | 'fileName' | 'sourceDir' | 'proof' | 'credentials'> {
  fileName: string;
  sourceDir: string;
  /** How messages name the spec (default: its path relative to cwd). */
  shownAs?: string;
}

/** The spec a started run is given, and what is checked of it (RunSpecOptions' `proof` and `credentials`). */
export interface SpecToRun {
  text: string;
  proof?: NeutraliseOptions;
  credentials?: readonly string[];
}

/**
 * A run started before its spec is written: a contained run's fixed start (the sandbox, Node, Playwright's
 * runner, the browser inside the boundary) goes on while the caller explores and asks the model; the spec then
 * runs in it as in any run. Nothing of the spec reaches it before `run`.
 */
export interface StartedRun {
  /** Where its spec is meant to go (sourceDir and fileName). */
  readonly file: string;
  readonly untrusted: boolean;
  /** Runs the spec (once): its report. */
  run(spec: SpecToRun): Promise<RunnerReport>;
  /** Stops it unused: its processes killed, its folders removed. Nothing once it has run. */
  discard(): Promise<void>;
}

export function startRun(options: RunStartOptions): StartedRun {
  let give: (spec: SpecToRun | undefined) => void = () => undefined;
  const given = new Promise<SpecToRun | undefined>((resolve) => (give = resolve));
  const report = runWhenGiven(options, given);
  // Read by run(); a discarded run's failure concerns nobody.
  report.catch(() => undefined);
  let taken = false;
  return {
    file: path.join(options.sourceDir, options.fileName),
    untrusted: options.untrusted === true,
    run(spec) {
      if (taken) throw new Error('a started run runs one spec');
      taken = true;
      give(spec);
      return report;
    },
    async discard() {
      if (taken) return;
      taken = true;
      give(undefined);
      await report.catch(() => undefined);
    },
  };
}

/** A contained run's Playwright starts before the spec is given, and waits for it (contained-cli.cjs); a trusted run's starts once it is written. */
async function runWhenGiven(options: RunStartOptions, given: Promise<SpecToRun | undefined>): Promise<RunnerReport> {
  // A run's time is counted from its spec, not from its early start.
  let since = performance.now();
  const elapsed = () => Math.round(performance.now() - since);
  const specGiven = given.then((spec) => {
    since = performance.now();
    return spec;
  });
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  // What a contained run passes on: what the spec may read, and what the setup projects it runs after read.
  const passedOn = [...new Set([...(options.allowedEnv ?? []), ...(options.setupVariables ?? [])])];
  const { config, fileName, sourceDir } = options;
  const shownAs = options.shownAs ?? path.relative(cwd, path.join(sourceDir, fileName));

  let launch: LaunchOptions;
  try {
    launch = launchOptions(env);
  } catch (error) {
    if (error instanceof BrowserNotFoundError) return notRun({ status: 'error', classification: 'environment', message: error.message, line: null }, elapsed());
    throw error;
  }
  const layout = packageLayoutProblem(sourceDir);
  if (layout !== undefined) return notRun({ status: 'error', classification: 'environment', message: layout, line: null }, elapsed());
  const { testIdAttribute } = options;
  const playwright = resolvePlaywright(sourceDir);
  const home = statsHome(env, cwd);
  const folders = runnerFolders(config, home);
  removeAbandonedRuns(folders.temp);
  if (options.untrusted) {
    removeAbandonedScratch(tmpdir());
    removeAbandonedCaps(hostCgroups());
  }

  const id = newRunId();
  // What the run holds, torn down in reverse however it ends: its folder, the interrupt handler, the contained
  // run's TMPDIR, the network relay, the memory cap and Playwright's process tree.
  return withLifetimes(options.signal, async (lifetimes) => {
    const dir = await lifetimes.acquire('the run folder', async () => {
      const folder = workspaceDir(folders.temp, id);
      // What a contained CLI started before its spec needs: its working folder and the link to its Playwright.
      mkdirSync(runWorkDir(folder), { recursive: true });
      linkPlaywright(folder, playwright);
      return { value: folder, teardown: () => removeWorkspace(folder) };
    });
    let running: RunningProcess | undefined;
    let contained: ContainedSetup | undefined;
    // A signal ends this process before any teardown could run: what must not outlive it goes at once.
    const unregister = onInterrupt(() => {
      running?.killNow();
      removeWorkspace(dir);
      if (contained) for (const folder of [contained.tempDir, contained.networkDir]) removeWorkspace(folder);
    });
    lifetimes.hold('the interrupt handler', unregister);
    const userConfig = options.playwrightConfigFile ? { file: path.resolve(cwd, options.playwrightConfigFile), ...(options.project ? { project: options.project } : {}) } : undefined;
    if (options.untrusted) {
      try {
        contained = await containedSetup(options.baseURL, config, launch, id);
      } catch (error) {
        if (error instanceof AppOriginError) return notRun({ status: 'error', classification: 'environment', message: error.message, line: null }, elapsed());
        throw error;
      }
      const { tempDir } = contained;
      lifetimes.hold("the contained run's TMPDIR", () => removeWorkspace(tempDir));
    }
    if (options.untrusted && (options.playwrightArgs?.length || options.reporters?.length)) throw new Error('Playwright flags and reporters pass through to trusted runs only');
    // The HTML report goes where `npx playwright test` puts it, not into the run's folder (removed after the run).
    const reporters = options.reporters?.length ? options.reporters.map((name) => (name === 'html' ? [name, { outputFolder: path.join(cwd, 'playwright-report'), open: 'never' }] : [name])) : undefined;
    const configFile = runConfigFile(dir, userConfig !== undefined);
    const workDir = runWorkDir(dir);
    const tsconfig = contained ? containedTsconfig(dir, sourceDir, cwd) : undefined;
    const cjsTransform = options.esmLoader === false && !runLoadsEsm({ fileName, sourceDir }, userConfig?.file) ? CJS_TRANSFORM : undefined;
    let invocation: ContainedInvocation;
    try {
      invocation = contained
        ? containedInvocation({ dir, workDir, configFile }, playwright, env, containedEnv(env, options.baseURL, passedOn, { dir, workDir }, contained.tempDir), { readable: [cwd, sourceDir, ...(userConfig ? [path.dirname(userConfig.file)] : [])], hidden: [home] }, config, contained, cjsTransform)
        : { cli: playwright.cli, args: ['test', '--config', configFile, ...(options.playwrightArgs ?? [])], env: withPreloads(playwrightEnv(env, options.baseURL, { dir }), [TRUSTED_CODE_CACHE, ...(cjsTransform ? [cjsTransform] : [])]), sandbox: { unavailable: 'a trusted run' } };
    } catch (error) {
      if (error instanceof SandboxUnavailableError) return notRun({ status: 'error', classification: 'environment', message: error.message, line: null }, elapsed());
      throw error;
    }
    // In the OS sandbox the run has no network but the app's origins, relayed from here.
    if (contained && 'prefix' in invocation.sandbox) await lifetimes.acquire('the network relay', relayedNetwork(contained.networkDir, contained.routes));
    const capped = contained && (await lifetimes.acquire('the memory cap', memoryCapOf(id, config)));
    const memoryCap = capped && 'cap' in capped ? capped.cap : undefined;
    const start = () =>
      lifetimes.acquire('Playwright', playwrightProcess({
        ...invocation,
        prefix: [...(memoryCap?.prefix ?? []), ...(invocation.prefix ?? [])],
        cwd: workDir,
        limitMs: config.timeouts.run_ms,
        killGraceMs: config.timeouts.kill_grace_ms,
        maxOutputChars: config.report.max_output_chars,
        startsOnGo: contained !== undefined,
      }));
    // The contained CLI sets up, launches its browser and loads Playwright, then waits for its run folder.
    if (contained) running = await start();
    const given = await specGiven;
    options.signal?.throwIfAborted();
    if (!given) return notRun({ status: 'error', classification: 'environment', message: 'the started run was given no spec', line: null }, elapsed());
    const spec: SpecSource = { text: given.text, fileName, sourceDir };
    const missing = unsetCredentials(spec.text, given.credentials ?? [], env);
    if (missing.length > 0) return notRun({ status: 'error', classification: 'environment', message: missingCredentialsMessage(missing), line: null }, elapsed());
    // The project's page objects and helpers the spec imports: a call of one that acts is an action of the spec's.
    const neutralised = given.proof ? neutraliseGroups(spec.text, spec.fileName, { ...given.proof, projectActions: actingProjectMethods(path.join(sourceDir, fileName), spec.text) }, config.proof.max_groups) : undefined;
    // Nothing to run when no test acts, or when the verdict needs no run (an action retried inside an assertion).
    const proofRun = neutralised?.[0]?.tests.some((test) => test.actions.length > 0) && !neutralised.some((copy) => retried(copy)) ? { texts: neutralised.map((copy) => copy.text), timings: { expectTimeoutMs: config.proof.expect_ms, quietMs: config.proof.quiet_ms, afterQuietMs: config.proof.after_quiet_ms } } : undefined;
    const workspace = createWorkspace(dir, id, spec, playwright, {
      baseURL: options.baseURL,
      testIdAttribute,
      launch,
      runner: config,
      userConfig,
      contained: contained && tsconfig ? { wsEndpoint: contained.wsEndpoint, tsconfig } : undefined,
      reporters,
      ...(proofRun ? { proof: proofRun } : {}),
    });
    if (running) running.go();
    else running = await start();
    const stop = () => running?.killNow();
    options.signal?.addEventListener('abort', stop, { once: true });
    const outcome = await running.done.finally(() => options.signal?.removeEventListener('abort', stop));
    if (contained) makeRunCodeCache(playwright.packageDir, config.containment.limits.worker_heap_mb, env);
    options.signal?.throwIfAborted();
    const judged = report(outcome, workspace, spec, config, folders.artifacts, elapsed, shownAs, cwd, neutralised);
    const stateKept = contained && options.storageState ? withStateOutsideRun(judged, options.storageState, userConfig ? path.dirname(userConfig.file) : cwd) : judged;
    const result = contained ? withUnsetSetupVariables(stateKept, options.setupVariables ?? [], env) : stateKept;
    if (options.keepFile) copyOut(workspace.workDir, options.keepFile);
    const contain = capped && containmentOf(invocation.sandbox, capped, config);
    return options.untrusted ? redactReport(contain ? withContainment(result, contain) : result, secretValues(env, passedOn)) : result;
  });
}

/** The setup of the run's memory cgroup, or why there is none here: the cgroup removed at teardown. */
function memoryCapOf(id: string, config: RunnerConfig): Setup<MemoryCapOutcome> {
  return async () => {
    const capped = openMemoryCap(id.slice(-8), config.containment.limits.memory_mb * MB, hostCgroups());
    return { value: capped, teardown: () => ('cap' in capped ? capped.cap.close() : undefined) };
  };
}

/** The setup of Playwright's process: its whole tree killed at teardown unless it has ended. */
function playwrightProcess(invocation: PlaywrightInvocation): Setup<RunningProcess> {
  return async () => {
    const running = startPlaywright(invocation);
    let ended = false;
    const end = () => (ended = true);
    running.done.then(end, end);
    return { value: running, teardown: () => (ended ? undefined : running.killNow()) };
  };
}

/** Copies a regular file of the run's working folder out of it (a link could point anywhere on this machine). */
function copyOut(workDir: string, { from, to }: { from: string; to: string }): void {
  const file = path.resolve(workDir, from);
  if (regularFileInside(workDir, file)) copyFileSync(file, to);
}

/** What a contained run is given: its browser's endpoint and launch, and the network it may reach. */
interface ContainedSetup {
  /** Where the test connects: a port of the run's loopback and a path only Scribe and the run know. */
  wsEndpoint: string;
  browser: { port: number; path: string; launch: LaunchOptions };
  routes: AppRoute[];
  /** The network folder on this machine (sockets, hosts file, browser policy). */
  networkDir: string;
  /**
   * The run's TMPDIR (downloads, the browser profile): short, because Chromium puts a socket there. In the
   * OS sandbox a capped tmpfs only the run sees; without it a folder here, removed with the run.
   */
  tempDir: string;
}

async function containedSetup(baseURL: string, config: RunnerConfig, launch: LaunchOptions, id: string): Promise<ContainedSetup> {
  const routes = appRoutes([baseURL, ...config.containment.allowed_origins]);
  const port = await freePort(routes.map((route) => route.port));
  const wsPath = `/${randomBytes(16).toString('hex')}`;
  const pageHeap = `--js-flags=--max-old-space-size=${config.containment.limits.page_heap_mb}`;
  return {
    wsEndpoint: `ws://127.0.0.1:${port}${wsPath}`,
    browser: { port, path: wsPath, launch: { ...launch, args: [...(launch.args ?? []), pageHeap] } },
    routes,
    // Outside the run folder, which the run may write, and short: a socket's path may not be long.
    // Named with Scribe's pid, so the next Scribe removes them if this one is killed before it can.
    networkDir: path.join(tmpdir(), scratchName('net', id)),
    tempDir: path.join(tmpdir(), scratchName('tmp', id)),
  };
}

/** A port free on this machine's loopback, and none of the app's (the run's loopback has those). */
async function freePort(taken: readonly number[]): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!taken.includes(port)) return port;
  }
}

/**
 * Playwright's CLI for an untrusted run, in its contained environment, under Node's permission model
 * (permissions.ts) and, where the machine has one, in an OS sandbox (sandbox.ts): reading only the
 * project, the run and the Playwright installation (`readable`), and in the sandbox seeing the folders of
 * them in `hidden` (Scribe's home) empty.
 */
function containedInvocation(
  workspace: Pick<RunWorkspace, 'dir' | 'workDir' | 'configFile'>,
  playwright: PlaywrightPackage,
  callerEnv: NodeJS.ProcessEnv,
  env: NodeJS.ProcessEnv,
  { readable, hidden }: { readable: string[]; hidden: string[] },
  config: RunnerConfig,
  setup: ContainedSetup,
  preload: string | undefined,
): ContainedInvocation {
  const installation = path.resolve(playwright.packageDir, '..', '..');
  // The code cache first: the TypeScript transform's preload loads Playwright.
  const preloads = [CONTAINED_CODE_CACHE, ...(preload ? [preload] : [])];
  const reads = [workspace.dir, ...readable, installation, CONTAINED_CLI, TRANSFORM_WARM_UP, CODE_CACHE_MODULE, ...preloads, ...browserCandidates(env)];
  const { limits } = config.containment;
  const sandbox = sandboxPrefix(
    config.containment.os_sandbox,
    { runDir: workspace.dir, workDir: workspace.workDir, readOnly: reads, userFolders: readable, hidden, networkDir: setup.networkDir, tempDir: setup.tempDir, limits: { tempBytes: limits.temp_mb * MB, fileBytes: limits.file_mb * MB } },
    callerEnv,
  );
  const sandboxed = 'prefix' in sandbox;
  // Inside the sandbox the runner process connects to the relays' sockets.
  const permissions = runPermissions({ writable: [workspace.workDir, setup.tempDir], readable: sandboxed ? [...reads, NETWORK_DIR_INSIDE] : reads, heapMb: limits.worker_heap_mb, preloads });
  if (!sandboxed) mkdirSync(setup.tempDir, { recursive: true });
  const routes = sandboxed ? setup.routes.map((route) => ({ address: route.address, port: route.port, socket: path.posix.join(NETWORK_DIR_INSIDE, route.socket) })) : [];
  return {
    sandbox,
    prefix: sandboxed ? sandbox.prefix : fileSizeLimit(limits.file_mb * MB, callerEnv),
    cli: CONTAINED_CLI,
    args: [playwright.cli, 'test', '--config', workspace.configFile],
    env: {
      ...env,
      NODE_OPTIONS: permissions.runner,
      SCRIBE_WORKER_NODE_OPTIONS: permissions.workers,
      SCRIBE_CONTAINED_RUN: JSON.stringify({ routes, browser: setup.browser }),
    },
  };
}

const MB = 1024 * 1024;

type Containment = NonNullable<RunnerReport['containment']>;

/** What the report says of the run's boundary: whether the OS sandbox and the memory cap held it, and the cap reached. */
function containmentOf(sandbox: SandboxChoice, capped: MemoryCapOutcome, config: RunnerConfig): Containment {
  const mb = config.containment.limits.memory_mb;
  const notes = [
    ...('unavailable' in sandbox ? [`no OS sandbox (${sandbox.unavailable}): the run had the machine's network and file system, under the permission model only`] : []),
    ...('unavailable' in capped ? [`no cap on the run's whole memory here (${capped.unavailable}): only the JavaScript heaps were capped`] : []),
    ...('cap' in capped && capped.cap.oomKills() > 0 ? [`the run went past its memory cap (containment.limits.memory_mb, ${mb} MB, ${config.file}): the system stopped a process of it`] : []),
  ];
  return { os_sandbox: 'prefix' in sandbox, ...('unavailable' in sandbox ? { os_sandbox_unavailable: sandbox.unavailable } : {}), memory_cap_mb: 'cap' in capped ? mb : null, notes };
}

/** The report with its containment, and a run stopped at its memory cap saying so first. */
function withContainment(report: RunnerReport, containment: Containment): RunnerReport {
  const capReached = containment.notes.find((note) => note.startsWith('the run went past its memory cap'));
  const message = capReached && report.status !== 'pass' ? `${capReached}\n${report.error_message ?? ''}`.trim() : report.error_message;
  return { ...report, error_message: message, containment };
}

/** How Playwright's CLI is started, and whether in the OS sandbox (or why not). */
type ContainedInvocation = Pick<PlaywrightInvocation, 'prefix' | 'cli' | 'args' | 'env'> & { sandbox: SandboxChoice };

function specSource(options: Pick<RunSpecOptions, 'specPath' | 'specText' | 'fileName' | 'sourceDir'>, cwd: string): SpecSource {
  if (options.specPath !== undefined) {
    const file = path.resolve(cwd, options.specPath);
    return { text: readFileSync(file, 'utf8'), fileName: path.basename(file), sourceDir: path.dirname(file) };
  }
  if (options.specText === undefined) throw new TypeError('runSpec needs specPath or specText');
  return { text: options.specText, fileName: options.fileName ?? 'candidate.spec.ts', sourceDir: path.resolve(cwd, options.sourceDir ?? '.') };
}

/** The caller's environment, with BASE_URL and the run folder set and nothing that would redirect Playwright's reporters. */
function playwrightEnv(env: NodeJS.ProcessEnv, baseURL: string, workspace: Pick<RunWorkspace, 'dir'>): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(env).filter(([key]) => !/^(PW_TEST_|PLAYWRIGHT_JSON_|PLAYWRIGHT_FORCE_TTY)/.test(key)));
  return { ...kept, BASE_URL: baseURL, [RUN_FOLDER_VARIABLE]: workspace.dir, FORCE_COLOR: '0' };
}

/**
 * A trusted run's environment with `preloads` required by its Playwright processes, unless the caller has
 * NODE_OPTIONS of its own (a loader or hook of the user's: in doubt, Playwright's loader stays) or a
 * preload's path cannot be written in NODE_OPTIONS (a Windows path: its backslashes).
 */
function withPreloads(env: NodeJS.ProcessEnv, preloads: readonly string[]): NodeJS.ProcessEnv {
  if (env.NODE_OPTIONS?.trim()) return env;
  try {
    return { ...env, NODE_OPTIONS: preloadOptions(preloads).join(' ') };
  } catch {
    return env;
  }
}

/** What Node and Playwright need to start, whatever the spec: nothing that names or unlocks anything. */
const CONTAINED_BASE_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ'];

/**
 * An untrusted run's environment: only what it must have, with its HOME the run's working folder and its own TMPDIR
 * (the browser is Scribe's, so no Chromium socket needs a short temporary path).
 */
export function containedEnv(env: NodeJS.ProcessEnv, baseURL: string, allowed: readonly string[], workspace: Pick<RunWorkspace, 'dir' | 'workDir'>, tempDir: string): NodeJS.ProcessEnv {
  const kept = Object.fromEntries([...CONTAINED_BASE_ENV, ...allowed].filter((key) => env[key] !== undefined).map((key) => [key, env[key]]));
  return { ...kept, BASE_URL: baseURL, HOME: workspace.workDir, TMPDIR: tempDir, [RUN_FOLDER_VARIABLE]: workspace.dir, FORCE_COLOR: '0' };
}

/** The report with each secret value replaced, so error messages, console lines, snapshots and output sent to the Medic hold none. */
export function redactReport(report: RunnerReport, secrets: readonly Secret[]): RunnerReport {
  // Every text of the report, not a list of fields: a secret may reach any of them (the final page's URL, a test's title).
  return redactTexts(report, (text) => redact(text, secrets));
}

function redactTexts<T>(value: T, hide: (text: string) => string): T {
  if (typeof value === 'string') return hide(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactTexts(item, hide)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactTexts(item, hide)])) as T;
  return value;
}

/** How the spec is named in messages: its path as given, or where a candidate is meant to go. */
function displayName(specPath: string | undefined, spec: SpecSource, cwd: string): string {
  return specPath ?? path.relative(cwd, path.join(spec.sourceDir, spec.fileName));
}

function report(outcome: ProcessOutcome, workspace: RunWorkspace, spec: SpecSource, config: RunnerConfig, artifactsRoot: string, elapsed: () => number, name: string, cwd: string, neutralised?: NeutralisedSpec[]): RunnerReport {
  // Messages name the spec, not its temporary copy, and the project's files relative to it.
  const rename = (text: string) => text.replaceAll(workspace.specFile, name).replaceAll(`${cwd}${path.sep}`, '');
  const output = rename(printable(outcome.output));
  if (outcome.spawnError) {
    return notRun({ status: 'error', classification: 'environment', message: `could not start Playwright: ${outcome.spawnError.message}`, line: null }, elapsed());
  }
  const parsed = readPlaywrightReport(workspace.dir, workspace.reportFile);
  const fullReport = 'report' in parsed ? parsed.report : undefined;
  // The spec is judged on its own tests; the proof file's are read only for the proof.
  const parts = fullReport && workspace.proofFiles.length > 0 ? splitReport(fullReport, workspace.proofFiles.map((file) => path.basename(file))) : undefined;
  const playwrightReport = parts?.spec ?? fullReport;
  // A proof run that fails, as it should, makes Playwright exit with 1.
  const exitCode = parts && outcome.exitCode === 1 ? 0 : outcome.exitCode;
  const evidence = gatherEvidence(playwrightReport, workspace.dir, workspace.evidenceAttachment, { errorContextChars: config.report.max_error_context_chars, consoleErrors: config.report.max_console_errors }, parts && { errors: [], suites: parts.proofs.flatMap((proof) => proof.suites) });

  let verdict: Verdict;
  if (outcome.timedOut) {
    verdict = {
      status: 'timeout',
      classification: 'timeout',
      message: `the run took longer than timeouts.run_ms (${config.timeouts.run_ms} ms, ${config.file}); Playwright and its browser were stopped`,
      line: null,
    };
  } else if (playwrightReport) {
    verdict = judgeReport(playwrightReport, workspace.specFile, exitCode, {
      missing: evidence.missing,
      screenshotCalls: screenshotCalls(spec.text),
      screenshotsTaken: evidence.screenshots.length,
    });
  } else {
    verdict = judgeWithoutReport('problem' in parsed ? parsed.problem : 'no report', output, outcome.exitCode);
  }

  const kept = keepRunFiles([...evidence.screenshots, ...evidence.traces], workspace.dir, artifactsRoot, workspace.id, config.artifacts.keep_runs);
  return RunnerReport.parse({
    status: verdict.status,
    classification: verdict.classification,
    duration_ms: elapsed(),
    error_message: verdict.message === null ? null : rename(verdict.message),
    error_line: verdict.line,
    screenshots: kept.slice(0, evidence.screenshots.length),
    ...(evidence.traces.length > 0 ? { traces: kept.slice(evidence.screenshots.length) } : {}),
    console_errors: evidence.consoleErrors,
    error_context: evidence.errorContext,
    final_page: evidence.pages.at(-1) ?? null,
    segment: { type: 'TEST_RESULT', content: output, outcome: verdict.status === 'pass' ? 'PASS' : 'FAIL' },
    ...(neutralised && verdict.classification === 'pass'
      ? { proof: judgeProofs(neutralised.map((copy, index) => ({ report: parts?.proofs[index] ?? { suites: [], errors: [] }, file: workspace.proofFiles[index] ?? '', neutralised: copy }))) }
      : {}),
    ...(playwrightReport ? { tests: testsOf(playwrightReport).map((test) => ({ title: test.title, line: test.line, status: test.result?.status ?? 'not run', duration_ms: test.result?.duration ?? 0 })) } : {}),
  });
}

/** The declared credential variables the spec reads that are unset or empty: `process.env.X ?? ''` signs in with nothing. */
export function unsetCredentials(specText: string, credentials: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return variablesRead(specText).filter((name) => credentials.includes(name) && !env[name]);
}

function missingCredentialsMessage(missing: readonly string[]): string {
  const names = missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  return `${names} ${missing.length === 1 ? 'is' : 'are'} not set; the spec signs in with ${missing.length === 1 ? 'it' : 'them'} (set ${missing.length === 1 ? 'it' : 'them'} in the environment and run again)`;
}

/**
 * A setup project failed while variables it reads are unset in the run: most likely why (it signs in with
 * nothing), said with the failure. A variable with a fallback in its code may be unset on purpose, so this is
 * said, not refused before the run.
 */
export function withUnsetSetupVariables(report: RunnerReport, setupVariables: readonly string[], env: NodeJS.ProcessEnv): RunnerReport {
  const message = report.error_message;
  const unset = setupVariables.filter((name) => !env[name]);
  if (report.classification !== 'environment' || !message?.startsWith('setup project ') || unset.length === 0) return report;
  const names = unset.join(', ');
  const one = unset.length === 1;
  return { ...report, error_message: `${message}\nThe setup projects read ${names}, which ${one ? 'is' : 'are'} not set: neither in the environment nor by the Playwright config (its .env); set ${one ? 'it' : 'them'} and run again.` };
}

/** What Node's permission model says of a write outside the paths it allows (the path itself is not in the message). */
const WRITE_REFUSED = /Access to this API has been restricted|EROFS|EACCES/;

/**
 * A contained run may write only in its own folder. A setup project that saves the storage state (the file
 * the config's use.storageState names, `storageState`, resolved) at an absolute path, as
 * `path.join(__dirname, …)` gives, fails there; its message then says where and what to change.
 */
export function withStateOutsideRun(report: RunnerReport, storageState: string, configDir: string): RunnerReport {
  const message = report.error_message;
  if (report.classification !== 'environment' || !message?.startsWith('setup project ') || !WRITE_REFUSED.test(message)) return report;
  const relative = path.relative(configDir, storageState);
  const suggested = relative.startsWith('..') || path.isAbsolute(relative) ? 'playwright/.auth/user.json' : relative;
  return {
    ...report,
    error_message: `${message}\nIt writes its storage state to ${storageState}, outside the contained run's folder, where a run of model-written code may not write. Write it to a path relative to the config's folder instead, in the setup (storageState({ path: '${suggested}' })) and in use.storageState ('${suggested}'): the run then keeps it in its own folder, and your own runs write it where they do now.`,
  };
}

/** A run that stopped before Playwright could start. */
function notRun(verdict: Verdict, durationMs: number): RunnerReport {
  return RunnerReport.parse({
    status: verdict.status,
    classification: verdict.classification,
    duration_ms: durationMs,
    error_message: verdict.message,
    error_line: verdict.line,
    screenshots: [],
    console_errors: [],
    error_context: null,
    segment: { type: 'TEST_RESULT', content: verdict.message ?? '', outcome: 'FAIL' },
  });
}
