/**
 * A run's temporary folder: the spec copy, a generated Playwright config and a fixtures module that
 * gathers evidence. The spec must import the very @playwright/test the runner CLI belongs to
 * (Playwright refuses two copies), wherever the folder is: the folder gets its own
 * node_modules/@playwright/test link to that one package.
 *
 *   run-<id>/
 *     package.json            "type" of the spec's own folder, so it loads as ESM or CJS as it would there
 *     node_modules/@playwright/test  → the package whose cli.js runs
 *     node_modules/scribe-run/  this run's own modules, compiled from run-folder/ to JavaScript of the
 *                             spec's module type (the evidence fixtures, the proof's fixtures, the overlay
 *                             of the user's config), and the generated config (plain data, CommonJS).
 *                             Playwright babel-transforms every file outside a node_modules folder, on
 *                             every run (a contained run's transform cache starts empty): here only the
 *                             spec and its proof copy are
 *     playwright.config.cjs   → node_modules/scribe-run/playwright.config.cjs, so the config's folder (the
 *                             report's root) is the run folder (playwright.config.ts under the user's config)
 *     scribe-run.json         what this run's own modules read (run-folder/scribe-run.ts)
 *     spec/<name>             the spec; relative imports rewritten to still reach its own folder
 *     spec/<name>.proof.ts    with a proof run: the spec with its actions under test made no-ops
 *     work/                   the run's working folder and HOME, the only place of the run folder a
 *                             contained run may write (permissions.ts, sandbox.ts): Playwright's output
 *       results/, report.json   folder and JSON report, a setup project's storage state, a spec's
 *                             screenshots by relative path. Everything above it is read only, so a spec
 *                             cannot rewrite the settings, the modules, the config or the proof copy
 *                             that the run's other processes load after it started.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from '@playwright/test';
import { ts } from '../../util/typescript.js';
import type { RunnerConfig } from '../../config/runner.ts';
import { readTextIfPresent, writeFileAtomic } from '../../util/fs.ts';
import { nearestManifest } from '../../util/module-type.ts';
import { SpecModel } from '../../analysis/model.ts';
import type { RunOverlay, RunTrace } from './run-folder/scribe-overlay.ts';
import { RUN_SETTINGS_FILE, type ProofTimings, type RunSettings } from './run-folder/scribe-run.ts';

/**
 * The evidence attachment's name: one per run, chosen by Scribe, so a spec's own attachment named like
 * it is not read as evidence.
 */
export function evidenceAttachmentName(): string {
  return `scribe-evidence-${randomBytes(12).toString('hex')}`;
}
/** The run folder's own modules (run-folder/), each compiled into RUN_MODULES_DIR under its source's name, as `.js`. */
const FIXTURES_MODULE = 'scribe-fixtures';
const PROOF_FIXTURES_MODULE = 'scribe-proof-fixtures';
const OVERLAY_MODULE = 'scribe-overlay';
/** What every run's fixtures load: the evidence fixture, the page reading it does, the run's settings. */
const RUN_MODULES = ['scribe-run', 'scribe-page-elements', FIXTURES_MODULE];
/** Where the run's modules and config are, relative to the run folder (a node_modules folder: see above). */
const RUN_MODULES_DIR = 'node_modules/scribe-run';
const FIXTURES_FILE = `${RUN_MODULES_DIR}/${FIXTURES_MODULE}.js`;
const PROOF_FIXTURES_FILE = `${RUN_MODULES_DIR}/${PROOF_FIXTURES_MODULE}.js`;
const RUN_FOLDER_SOURCES = new URL('./run-folder/', import.meta.url);
const CONFIG_FILE = 'playwright.config.cjs';
/** A TypeScript config, so Playwright loads it with its own transform and it can import the user's TS config. */
const USER_CONFIG_WRAPPER = 'playwright.config.ts';
const REPORT_FILE = 'report.json';
const WORK_FOLDER = 'work';

export interface SpecSource {
  text: string;
  /** The name Playwright shows and the run folder uses. */
  fileName: string;
  /** The folder the spec belongs in: its relative imports resolve from here. */
  sourceDir: string;
}

export interface PlaywrightPackage {
  /** The real path of @playwright/test. */
  packageDir: string;
  cli: string;
}

export interface RunWorkspace {
  id: string;
  dir: string;
  specFile: string;
  /** The proof run's copies of the spec, each run beside the spec in the same Playwright run (a worker each); none without a proof. */
  proofFiles: string[];
  configFile: string;
  /** The run's working folder: all it may write of the run folder (see above). */
  workDir: string;
  reportFile: string;
  outputDir: string;
  /** The name of the attachment the run's fixtures write the evidence under. */
  evidenceAttachment: string;
}

export interface WorkspaceSettings {
  baseURL: string;
  testIdAttribute: string;
  launch: LaunchOptions;
  runner: RunnerConfig;
  /** The user's Playwright config and the project the spec belongs to: the run happens under them. */
  userConfig?: { file: string; project?: string };
  /** The reporters shown besides the JSON report the Runner reads (default: line). */
  reporters?: unknown[][];
  /**
   * An untrusted run: its browser context reaches only http(s); its test connects to the browser Scribe
   * launched at `wsEndpoint` instead of launching one; and one TypeScript config serves every file, so
   * Playwright looks for none in folders the run may not read.
   */
  contained?: { wsEndpoint: string; tsconfig: string };
  /** A proof run: the texts of the neutralised copies (analysis/neutralise.ts, one per group of actions) and how long their assertions wait. */
  proof?: { texts: string[]; timings: ProofTimings };
}

/**
 * The @playwright/test a spec in `fromDir` would import (the project's own, so its fixtures and page
 * objects load the same copy), else the one Scribe depends on.
 */
export function resolvePlaywright(fromDir: string): PlaywrightPackage {
  const bases = [path.join(fromDir, 'package.json'), import.meta.url];
  for (const base of bases) {
    try {
      const packageDir = realpathSync(path.dirname(createRequire(base).resolve('@playwright/test/package.json')));
      return { packageDir, cli: path.join(packageDir, 'cli.js') };
    } catch {
      // not reachable from here: try Scribe's own
    }
  }
  throw new Error('@playwright/test is not installed (npm install @playwright/test)');
}

export function createWorkspace(dir: string, id: string, spec: SpecSource, playwright: PlaywrightPackage, settings: WorkspaceSettings): RunWorkspace {
  const specDir = path.join(dir, 'spec');
  const workDir = runWorkDir(dir);
  const workspace: RunWorkspace = {
    id,
    dir,
    specFile: path.join(specDir, runFileName(spec.fileName)),
    proofFiles: (settings.proof?.texts ?? []).map((_, copy) => path.join(specDir, proofFileName(runFileName(spec.fileName), copy))),
    configFile: runConfigFile(dir, settings.userConfig !== undefined),
    workDir,
    reportFile: path.join(workDir, REPORT_FILE),
    outputDir: path.join(workDir, 'results'),
    evidenceAttachment: evidenceAttachmentName(),
  };
  mkdirSync(specDir, { recursive: true });
  // Made already when Playwright was started before the spec (runner.ts startRun).
  mkdirSync(workDir, { recursive: true });
  linkPlaywright(dir, playwright);
  const type = moduleType(spec.sourceDir);
  writeFileAtomic(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type })}\n`);
  const modulesDir = path.join(dir, RUN_MODULES_DIR);
  mkdirSync(modulesDir, { recursive: true });
  writeFileAtomic(path.join(modulesDir, 'package.json'), `${JSON.stringify({ private: true, type })}\n`);
  const modules = [...RUN_MODULES, ...(settings.proof ? [PROOF_FIXTURES_MODULE] : []), ...(settings.userConfig ? [OVERLAY_MODULE] : [])];
  for (const name of modules) writeFileAtomic(path.join(modulesDir, `${name}.js`), compiledRunModule(name, type));
  writeFileAtomic(path.join(dir, RUN_SETTINGS_FILE), `${JSON.stringify(runSettings(workspace, spec, settings), null, 2)}\n`);
  if (settings.userConfig) writeFileAtomic(workspace.configFile, userConfigWrapperSource(settings.userConfig.file));
  else writeLinkedConfig(workspace.configFile, path.join(modulesDir, CONFIG_FILE), playwrightConfigSource(workspace, spec, settings));
  writeFileAtomic(workspace.specFile, relocateImports(spec.text, spec.sourceDir, specDir));
  workspace.proofFiles.forEach((file, copy) => writeFileAtomic(file, relocateImports(settings.proof!.texts[copy]!, spec.sourceDir, specDir, PROOF_FIXTURES_FILE)));
  return workspace;
}

/**
 * The run folder's node_modules/@playwright/test, linked to the package whose CLI runs: a contained run's CLI
 * loads it (and launches its browser) before the rest of the folder is written.
 */
export function linkPlaywright(dir: string, playwright: PlaywrightPackage): void {
  const link = path.join(dir, 'node_modules', '@playwright', 'test');
  if (existsSync(link)) return;
  mkdirSync(path.dirname(link), { recursive: true });
  // A junction needs no privilege on Windows; elsewhere the type is ignored.
  symlinkSync(playwright.packageDir, link, 'junction');
}

/** The run's working folder (the one place a contained run writes, and where Playwright starts), inside its run folder. */
export function runWorkDir(dir: string): string {
  return path.join(dir, WORK_FOLDER);
}

/** The run's Playwright config in its folder, known before the folder is written (Playwright may be started first). */
export function runConfigFile(dir: string, underUserConfig: boolean): string {
  return path.join(dir, underUserConfig ? USER_CONFIG_WRAPPER : CONFIG_FILE);
}

/** A proof copy's name: the spec's, marked (and numbered after the first), so the report's suites tell them apart. */
export function proofFileName(specName: string, copy = 0): string {
  return `${specName}.proof${copy === 0 ? '' : copy + 1}${path.extname(specName)}`;
}

/**
 * A run-folder module's text: its TypeScript source beside this module, or in the package its compiled
 * JavaScript (valid TypeScript too).
 */
function runFolderModule(name: string): string {
  const base = fileURLToPath(new URL(name, RUN_FOLDER_SOURCES));
  return readFileSync(existsSync(`${base}.ts`) ? `${base}.ts` : `${base}.js`, 'utf8');
}

type CompiledRunModules = Record<ModuleType, Record<string, string>>;

/**
 * The run-folder modules compiled by scripts/bundle-cli.mjs (compiledRunModules): each one's JavaScript of
 * either module type, by name. The bundled command has them as this constant; the built library (the
 * package's worker threads) in COMPILED_RUN_MODULES_FILE beside them; the sources have neither.
 */
declare const SCRIBE_COMPILED_RUN_MODULES: CompiledRunModules | undefined;
const COMPILED_RUN_MODULES_FILE = 'compiled.json';

/**
 * A run-folder module as JavaScript of the spec's module type: the spec imports it (ESM wants its default
 * export, CommonJS `exports.default`), and Playwright loads it from node_modules without a transform.
 * The command and the package have it compiled already; from the sources TypeScript compiles it here (a
 * tenth of a CPU second or more a run, which the build spares a generation).
 */
function compiledRunModule(name: string, type: ModuleType): string {
  const built = typeof SCRIBE_COMPILED_RUN_MODULES === 'undefined' ? readCompiledRunModules() : SCRIBE_COMPILED_RUN_MODULES;
  const compiled = built?.[type][name];
  if (compiled !== undefined) return compiled;
  const compilerOptions = { module: type === 'module' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  return ts.transpileModule(runFolderModule(name), { fileName: `${name}.ts`, compilerOptions }).outputText;
}

/**
 * The generated config, in node_modules (not transformed), and at `configFile` a link to it: the
 * config's folder, which the report's paths are relative to, stays the run folder. Where a file link
 * cannot be made (Windows without the privilege), the config itself is written there.
 */
function writeLinkedConfig(configFile: string, target: string, source: string): void {
  writeFileAtomic(target, source);
  try {
    symlinkSync(path.relative(path.dirname(configFile), target), configFile, 'file');
  } catch {
    writeFileAtomic(configFile, source);
  }
}

function readCompiledRunModules(): CompiledRunModules | undefined {
  const text = readTextIfPresent(fileURLToPath(new URL(COMPILED_RUN_MODULES_FILE, RUN_FOLDER_SOURCES)));
  return text === undefined ? undefined : (JSON.parse(text) as CompiledRunModules);
}

/** What the run's own modules read from scribe-run.json. */
function runSettings(workspace: RunWorkspace, spec: SpecSource, settings: WorkspaceSettings): RunSettings {
  return {
    evidenceAttachment: workspace.evidenceAttachment,
    contained: settings.contained !== undefined,
    ...(settings.proof ? { proof: settings.proof.timings } : {}),
    ...(settings.userConfig ? { overlay: runOverlay(workspace, spec, settings, settings.userConfig) } : {}),
  };
}

/**
 * The run's workers: one, and one more for each proof copy, so the copies' assertions wait out their limit
 * while the spec runs rather than after it. Each worker has the file it runs to itself: a copy never runs in
 * a worker the spec (or another copy) ran in, whose module state it would see.
 */
function workersOf(workspace: Pick<RunWorkspace, 'proofFiles'>): number {
  return 1 + workspace.proofFiles.length;
}

/** The files a run's Playwright config matches: the spec, and the proof copies when there are any. */
function testFiles(workspace: Pick<RunWorkspace, 'specFile' | 'proofFiles'>): string | string[] {
  return workspace.proofFiles.length > 0 ? [path.basename(workspace.specFile), ...workspace.proofFiles.map((file) => path.basename(file))] : path.basename(workspace.specFile);
}

/**
 * The TypeScript config a contained run names for every file: the nearest above the spec within the
 * project (its paths and aliases still apply), else an empty one written in the run folder.
 */
export function containedTsconfig(dir: string, sourceDir: string, projectRoot: string): string {
  const root = path.resolve(projectRoot);
  for (let current = path.resolve(sourceDir); ; current = path.dirname(current)) {
    const relative = path.relative(root, current);
    if (relative.startsWith('..') || path.isAbsolute(relative)) break;
    const candidate = path.join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (current === root) break;
  }
  const empty = path.join(dir, 'tsconfig.json');
  writeFileAtomic(empty, '{}\n');
  return empty;
}

/** A file name Playwright can match exactly: no folders, no glob characters, a script extension. */
export function runFileName(name: string): string {
  const base = path.basename(name).replace(/[^A-Za-z0-9._-]/g, '-') || 'candidate.spec.ts';
  return /\.[cm]?[jt]s$/.test(base) ? base : `${base}.ts`;
}

/**
 * The spec as it will run from `runDir`: `@playwright/test` becomes the evidence fixtures (which
 * re-export all of it), and relative imports point back into the spec's own folder. Only module
 * specifiers change, in place, so every line keeps its number.
 */
export function relocateImports(text: string, sourceDir: string, runDir: string, fixturesFile = FIXTURES_FILE): string {
  let result = text;
  for (const literal of moduleSpecifiers(SpecModel.fromText('spec.ts', text)).sort((a, b) => b.pos - a.pos)) {
    const replacement = relocatedSpecifier(literal.text, sourceDir, runDir, fixturesFile);
    // The literal's quotes stay; only what is between them changes.
    if (replacement !== undefined) result = result.slice(0, literal.getStart() + 1) + replacement + result.slice(literal.end - 1);
  }
  return result;
}

/** The string literals naming a module: import/export … from, import(), require(), import x = require(). */
function moduleSpecifiers(model: SpecModel): ts.StringLiteral[] {
  const declared = [...model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration), ...model.nodes<ts.ExportDeclaration>(ts.SyntaxKind.ExportDeclaration)]
    .map((d) => d.moduleSpecifier)
    .filter((m): m is ts.StringLiteral => m !== undefined && ts.isStringLiteral(m));
  const referenced = model.nodes<ts.ExternalModuleReference>(ts.SyntaxKind.ExternalModuleReference).map((r) => r.expression).filter(ts.isStringLiteral);
  const loaded = model.calls
    .filter((call) => call.arguments.length === 1 && ts.isStringLiteral(call.arguments[0]!))
    .filter((call) => call.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(call.expression) && call.expression.text === 'require'))
    .map((call) => call.arguments[0] as ts.StringLiteral);
  return [...declared, ...referenced, ...loaded];
}


function relocatedSpecifier(specifier: string, sourceDir: string, runDir: string, fixturesFile: string): string | undefined {
  if (specifier === '@playwright/test') return `../${fixturesFile}`;
  if (specifier !== '.' && specifier !== '..' && !specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const relative = path.relative(runDir, path.resolve(sourceDir, specifier)).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Whether a run loads a file as an ES module whatever its project holds: the spec, by its extension or its
 * folder's module type (the run folder takes it), or the user's config, by its own.
 */
export function runLoadsEsm(spec: Pick<SpecSource, 'fileName' | 'sourceDir'>, userConfigFile?: string): boolean {
  const esm = (file: string) => /\.m[jt]s$/.test(file) || moduleType(path.dirname(file)) === 'module';
  return esm(path.join(spec.sourceDir, runFileName(spec.fileName))) || (userConfigFile !== undefined && esm(userConfigFile));
}

type ModuleType = 'module' | 'commonjs';

/** The module type of the nearest package.json above `dir` (Node's own rule); commonjs without one. */
function moduleType(dir: string): ModuleType {
  return nearestManifest(dir)?.type === 'module' ? 'module' : 'commonjs';
}

/**
 * The trace every run records (artifacts.trace): each action's DOM snapshots and the spec's source, and
 * the screencast only with artifacts.trace_screenshots (Chromium encoding a JPEG at every change, and
 * Playwright writing it, all along the run). Undefined: Scribe records none.
 */
export function runTrace(artifacts: RunnerConfig['artifacts']): RunTrace | undefined {
  return artifacts.trace ? { mode: 'on', snapshots: true, screenshots: artifacts.trace_screenshots, sources: true } : undefined;
}

/** The Playwright config of one run: a worker per file, no retries, Runner timeouts, JSON report to a file. */
export function playwrightConfig(workspace: Pick<RunWorkspace, 'specFile' | 'proofFiles' | 'outputDir' | 'reportFile'>, spec: Pick<SpecSource, 'sourceDir'>, settings: WorkspaceSettings, reporters: unknown[][] = [['line']]): Record<string, unknown> {
  const { timeouts, artifacts } = settings.runner;
  return {
    testDir: path.dirname(workspace.specFile),
    testMatch: testFiles(workspace),
    outputDir: workspace.outputDir,
    // Visual baselines are looked up beside the original spec, and never written from a candidate run.
    snapshotDir: spec.sourceDir,
    updateSnapshots: 'none',
    timeout: timeouts.test_ms,
    expect: { timeout: timeouts.expect_ms },
    workers: workersOf(workspace),
    retries: 0,
    fullyParallel: false,
    forbidOnly: false,
    reporter: [['json', { outputFile: workspace.reportFile }], ...reporters],
    use: {
      browserName: 'chromium',
      baseURL: settings.baseURL,
      testIdAttribute: settings.testIdAttribute,
      actionTimeout: timeouts.action_ms,
      navigationTimeout: timeouts.navigation_ms,
      launchOptions: settings.launch,
      ...(settings.contained ? { connectOptions: { wsEndpoint: settings.contained.wsEndpoint } } : {}),
      screenshot: artifacts.failure_screenshot ? 'only-on-failure' : 'off',
      trace: runTrace(artifacts) ?? 'off',
      video: 'off',
    },
    ...(settings.contained ? { tsconfig: settings.contained.tsconfig } : {}),
  };
}

function playwrightConfigSource(workspace: RunWorkspace, spec: SpecSource, settings: WorkspaceSettings): string {
  return `// Generated by Scribe's Runner for one run; removed with the run's folder.\nmodule.exports = ${JSON.stringify(playwrightConfig(workspace, spec, settings, settings.reporters), null, 2)};\n`;
}

/** What the overlay changes in the user's config for this run (run-folder/scribe-overlay.ts). */
function runOverlay(workspace: RunWorkspace, spec: SpecSource, settings: WorkspaceSettings, userConfig: { file: string; project?: string }): RunOverlay {
  const { timeouts, artifacts } = settings.runner;
  const trace = runTrace(artifacts);
  return {
    configDir: path.dirname(userConfig.file),
    ...(userConfig.project ? { project: userConfig.project } : {}),
    specDir: path.dirname(workspace.specFile),
    specName: testFiles(workspace),
    workers: workersOf(workspace),
    outputDir: workspace.outputDir,
    reportFile: workspace.reportFile,
    snapshotDir: spec.sourceDir,
    baseURL: settings.baseURL,
    timeouts: { test_ms: timeouts.test_ms, expect_ms: timeouts.expect_ms, action_ms: timeouts.action_ms, navigation_ms: timeouts.navigation_ms },
    launchOptions: { ...settings.launch },
    ...(settings.contained ? { connectOptions: { wsEndpoint: settings.contained.wsEndpoint }, tsconfig: settings.contained.tsconfig } : {}),
    failureScreenshot: artifacts.failure_screenshot,
    ...(trace ? { trace } : {}),
    traceOverUser: settings.contained !== undefined,
    reporters: settings.reporters ?? [['line']],
  };
}

/** The run's config: the user's, imported as it is (the one thing not data: which file), with the overlay applied. */
function userConfigWrapperSource(userConfigFile: string): string {
  return [
    "// Generated by Scribe's Runner for one run; removed with the run's folder.",
    `import user from ${JSON.stringify(userConfigFile)};`,
    `import { overlayUserConfig } from './${RUN_MODULES_DIR}/${OVERLAY_MODULE}.js';`,
    '',
    'export default overlayUserConfig(user);',
    '',
  ].join('\n');
}

/** Calls of `.screenshot(` in the spec: a green run must have written at least one file then. */
export function screenshotCalls(text: string): number {
  const model = SpecModel.fromText('spec.ts', text);
  return model.calls.filter((call) => model.callee(call).name === 'screenshot').length;
}
