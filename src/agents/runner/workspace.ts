/**
 * A run's temporary folder: the spec copy, a generated Playwright config and a fixtures module that
 * gathers evidence. The spec must import the very @playwright/test the runner CLI belongs to
 * (Playwright refuses two copies), wherever the folder is: the folder gets its own
 * node_modules/@playwright/test link to that one package.
 *
 *   run-<id>/
 *     package.json            "type" of the spec's own folder, so it loads as ESM or CJS as it would there
 *     node_modules/@playwright/test  → the package whose cli.js runs
 *     playwright.config.mjs   generated, plain data
 *     scribe-fixtures.ts      `test` with an auto fixture: console errors and screenshots taken
 *     spec/<name>             the spec; relative imports rewritten to still reach its own folder
 *     spec/<name>.proof.ts    with a proof run: the spec with its actions under test made no-ops
 *     scribe-proof-fixtures.ts  the proof file's fixtures: assertions wait proof.expect_ms
 *     results/, report.json   Playwright's output folder and JSON report
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LaunchOptions } from '@playwright/test';
import { ts } from '../../util/typescript.js';
import type { RunnerConfig } from '../../config/runner.ts';
import { writeFileAtomic } from '../../util/fs.ts';
import { SpecModel } from '../../analysis/model.ts';
import { OVERLAY_SOURCE, type RunOverlay } from './user-config.ts';

/**
 * The evidence attachment's name: one per run, chosen by Scribe, so a spec's own attachment named like
 * it is not read as evidence.
 */
export function evidenceAttachmentName(): string {
  return `scribe-evidence-${randomBytes(12).toString('hex')}`;
}
const FIXTURES_FILE = 'scribe-fixtures.ts';
/** The proof run's fixtures: the same, with assertions that wait the proof's shorter limit. */
const PROOF_FIXTURES_FILE = 'scribe-proof-fixtures.ts';
const CONFIG_FILE = 'playwright.config.mjs';
/** A TypeScript config, so Playwright loads it with its own transform and it can import the user's TS config. */
const USER_CONFIG_WRAPPER = 'playwright.config.ts';
const REPORT_FILE = 'report.json';

/**
 * Run-time grounding, read in the page: its test ids and named elements (role "name"), deduplicated and
 * capped. Source text, because it runs inside the generated fixtures module (and in bench/site-grounding.ts).
 */
export const READ_PAGE_ELEMENTS = String.raw`(attribute) => {
    const TAG_ROLES = { A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', H1: 'heading', H2: 'heading', H3: 'heading' };
    const INPUT_ROLES = { checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button' };
    const name = (el) => (el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') || el.innerText || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    const roleOf = (el) => el.getAttribute('role') || TAG_ROLES[el.tagName] || (el.tagName === 'INPUT' ? INPUT_ROLES[el.type] || 'textbox' : '');
    const testIds = [...new Set([...document.querySelectorAll('[' + CSS.escape(attribute) + ']')].map((el) => el.getAttribute(attribute) || ''))].slice(0, 300);
    const roles = [...new Set([...document.querySelectorAll('a[href], button, input, select, textarea, h1, h2, h3, [role]')].map((el) => roleOf(el) + ' ' + JSON.stringify(name(el))))].slice(0, 200);
    return { url: location.href, testIds, roles };
  }`;

/**
 * An untrusted run's context reaches only http(s): requests elsewhere are aborted, `page.goto` to another
 * scheme (file:, chrome:, view-source:, data:) throws, and a page that gets there anyway is closed before
 * the test can read it (not Chromium's error page for a failed navigation: it shows only the error).
 * Playwright's routing never sees file: navigations, hence the navigation checks.
 */
const CONTAIN_NAVIGATION_SOURCE = `
      const reachable = (url: string) => /^(https?:|about:blank$)/.test(url);
      // Chromium's own page for a navigation that failed (an unreachable app, a blocked iframe): closing it raced
      // the navigation's net::ERR_ error and, under load, turned it into "page closed", a test bug.
      const failedNavigation = (url: string) => url === 'chrome-error://chromewebdata/';
      const blocked = (url: string) => \`Scribe blocked a navigation outside http(s): \${url}\`;
      await context.route((url) => !/^https?:$/.test(url.protocol), (route) => route.abort('blockedbyclient'));
      const contain = (page: Page) => {
        const go = page.goto.bind(page);
        page.goto = async (url, options) => {
          const target = new URL(url, testInfo.project.use.baseURL ?? 'about:blank').href;
          if (!reachable(target)) throw new Error(blocked(target));
          return go(url, options);
        };
        page.on('framenavigated', (frame) => {
          if (reachable(frame.url()) || failedNavigation(frame.url())) return;
          consoleErrors.push(blocked(frame.url()));
          void page.close().catch(() => undefined);
        });
      };
      context.pages().forEach(contain);
      context.on('page', contain);`;

/**
 * Every page of the test's context reports its console errors and uncaught exceptions, and every
 * `page.screenshot({ path })` the path it wrote, in one attachment the Runner reads from the JSON report.
 */
const fixturesSource = (contained: boolean, evidenceName: string) => `// Generated by Scribe's Runner for one run; removed with the run's folder.
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

export const test = base.extend<{ scribeEvidence: void }>({
  scribeEvidence: [
    async ({ context }, use, testInfo) => {
      const consoleErrors: string[] = [];
      const screenshots: string[] = [];${contained ? CONTAIN_NAVIGATION_SOURCE : ''}
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        page.on('pageerror', (error) => consoleErrors.push(error.message));
        const takeScreenshot = page.screenshot.bind(page);
        page.screenshot = async (options) => {
          const image = await takeScreenshot(options);
          if (options?.path) screenshots.push(path.resolve(options.path));
          return image;
        };
      };
      // Run-time grounding: the test ids and named elements of each page the test reaches (on every
      // load, and the page it ends on, where a failing step failed), read in one evaluate each.
      const testIdAttribute = testInfo.project.use.testIdAttribute ?? 'data-testid';
      const pages: Array<{ url: string; testIds: string[]; roles: string[] }> = [];
      const reading: Array<Promise<void>> = [];
      const readPage = (page: Page) => {
        const read = page
          .evaluate(${READ_PAGE_ELEMENTS}, testIdAttribute)
          .then((found) => void pages.push(found), () => undefined);
        reading.push(Promise.race([read, new Promise<void>((resolve) => setTimeout(resolve, 2000))]));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      context.on('page', (page) => page.on('load', () => readPage(page)));
      context.pages().forEach((page) => page.on('load', () => readPage(page)));
      await use();
      context.pages().forEach(readPage);
      await Promise.all(reading);
      await testInfo.attach(${JSON.stringify(evidenceName)}, {
        body: JSON.stringify({ consoleErrors, screenshots, pages }),
        contentType: 'application/json',
      });
    },
    { auto: true },
  ],
});

export default test;
`;

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
  /** The proof run's spec, run beside the spec in the same Playwright run (a second worker). */
  proofFile?: string;
  configFile: string;
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
  /** A proof run: the neutralised spec's text (analysis/neutralise.ts) and how long its assertions wait. */
  proof?: { text: string; expectTimeoutMs: number };
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
  const workspace: RunWorkspace = {
    id,
    dir,
    specFile: path.join(specDir, runFileName(spec.fileName)),
    ...(settings.proof ? { proofFile: path.join(specDir, proofFileName(runFileName(spec.fileName))) } : {}),
    configFile: path.join(dir, settings.userConfig ? USER_CONFIG_WRAPPER : CONFIG_FILE),
    reportFile: path.join(dir, REPORT_FILE),
    outputDir: path.join(dir, 'results'),
    evidenceAttachment: evidenceAttachmentName(),
  };
  mkdirSync(specDir, { recursive: true });
  const linkDir = path.join(dir, 'node_modules', '@playwright');
  mkdirSync(linkDir, { recursive: true });
  // A junction needs no privilege on Windows; elsewhere the type is ignored.
  symlinkSync(playwright.packageDir, path.join(linkDir, 'test'), 'junction');
  writeFileAtomic(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type: moduleType(spec.sourceDir) })}\n`);
  writeFileAtomic(path.join(dir, FIXTURES_FILE), fixturesSource(settings.contained !== undefined, workspace.evidenceAttachment));
  writeFileAtomic(workspace.configFile, settings.userConfig ? userConfigWrapperSource(workspace, spec, settings, settings.userConfig) : playwrightConfigSource(workspace, spec, settings));
  writeFileAtomic(workspace.specFile, relocateImports(spec.text, spec.sourceDir, specDir));
  if (settings.proof && workspace.proofFile) {
    writeFileAtomic(path.join(dir, PROOF_FIXTURES_FILE), proofFixturesSource(settings.proof.expectTimeoutMs));
    writeFileAtomic(workspace.proofFile, relocateImports(settings.proof.text, spec.sourceDir, specDir, PROOF_FIXTURES_FILE));
  }
  return workspace;
}

/** The proof spec's name: the spec's, marked, so the report's suites tell the two apart. */
export function proofFileName(specName: string): string {
  return `${specName}.proof${path.extname(specName)}`;
}

const proofFixturesSource = (expectTimeoutMs: number) => `// Generated by Scribe's Runner for one proof run; removed with the run's folder.
import { expect as runExpect } from './${FIXTURES_FILE}';

export * from './${FIXTURES_FILE}';
export { default } from './${FIXTURES_FILE}';
export const expect = runExpect.configure({ timeout: ${expectTimeoutMs} });
`;

/**
 * The run's workers: one, and a second for the proof spec, so the proof's assertions wait out their
 * limit while the spec runs rather than after it. Each worker has the file it runs to itself.
 */
function workersOf(workspace: Pick<RunWorkspace, 'proofFile'>): number {
  return workspace.proofFile ? 2 : 1;
}

/** The files a run's Playwright config matches: the spec, and the proof spec when there is one. */
function testFiles(workspace: Pick<RunWorkspace, 'specFile' | 'proofFile'>): string | string[] {
  return workspace.proofFile ? [path.basename(workspace.specFile), path.basename(workspace.proofFile)] : path.basename(workspace.specFile);
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

/** The module type of the nearest package.json above `dir` (Node's own rule); commonjs without one. */
function moduleType(dir: string): 'module' | 'commonjs' {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
      } catch {
        return 'commonjs';
      }
    }
    if (path.dirname(current) === current) return 'commonjs';
  }
}

/** The Playwright config of one run: a worker per file, no retries, Runner timeouts, JSON report to a file. */
export function playwrightConfig(workspace: Pick<RunWorkspace, 'specFile' | 'proofFile' | 'outputDir' | 'reportFile'>, spec: Pick<SpecSource, 'sourceDir'>, settings: WorkspaceSettings, reporters: unknown[][] = [['line']]): Record<string, unknown> {
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
      trace: artifacts.trace ? 'on' : 'off',
      video: 'off',
    },
    ...(settings.contained ? { tsconfig: settings.contained.tsconfig } : {}),
  };
}

function playwrightConfigSource(workspace: RunWorkspace, spec: SpecSource, settings: WorkspaceSettings): string {
  return `// Generated by Scribe's Runner for one run; removed with the run's folder.\nexport default ${JSON.stringify(playwrightConfig(workspace, spec, settings, settings.reporters), null, 2)};\n`;
}

/** The user's config, imported as it is, with this run's overlay applied (see user-config.ts). */
function userConfigWrapperSource(workspace: RunWorkspace, spec: SpecSource, settings: WorkspaceSettings, userConfig: { file: string; project?: string }): string {
  const { timeouts, artifacts } = settings.runner;
  const overlay: RunOverlay = {
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
    trace: artifacts.trace,
    reporters: settings.reporters ?? [['line']],
  };
  return [
    "// Generated by Scribe's Runner for one run; removed with the run's folder.",
    "import { cpSync, existsSync } from 'node:fs';",
    "import path from 'node:path';",
    `import user from ${JSON.stringify(userConfig.file)};`,
    '',
    OVERLAY_SOURCE,
    '',
    '// Only into the run folder, and only a file that exists.',
    'const mirror = (from: string, relative: string) => {',
    '  const to = path.resolve(relative);',
    "  if (existsSync(from) && !path.relative(process.cwd(), to).startsWith('..') && !existsSync(to)) cpSync(from, to);",
    '};',
    '',
    `export default overlayUserConfig(user, ${JSON.stringify(overlay, null, 2)}, { resolve: path.resolve, mirror });`,
    '',
  ].join('\n');
}

/** Calls of `.screenshot(` in the spec: a green run must have written at least one file then. */
export function screenshotCalls(text: string): number {
  const model = SpecModel.fromText('spec.ts', text);
  return model.calls.filter((call) => model.callee(call).name === 'screenshot').length;
}
