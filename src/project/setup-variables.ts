/**
 * The environment variables the user's setup projects read. A spec's run runs the projects its project
 * depends on (a setup project signing in), and `npx playwright test` gives them the caller's environment
 * and whatever the config's .env sets; a contained run passes on only what it is told to. So the files of
 * those projects, and the project files they import, are read for `process.env.X`: those variables are
 * passed to the run (their values hidden from its evidence), though a model-written spec still may not read them.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { variablesRead } from '../analysis/environment.ts';
import { filesBreadthFirst, isInside } from '../util/fs.ts';
import { relativeModuleFile, SCRIPT_FILE } from '../util/module-files.ts';
import { ts } from '../util/typescript.js';
import { projectMatcher, type PlaywrightProjectEntry, type ReadPlaywrightConfig } from './playwright.ts';

/** How far the setup projects' files are looked for: their folders are a project's own test folders, small. */
const SETUP_SEARCH = { depth: 6, files: 200, fileBytes: 500_000 };
const SKIPPED_FOLDERS = new Set(['node_modules', 'test-results', 'playwright-report', 'dist', 'build']);

/** The projects `project` depends on, directly or through another, in the order Playwright would run them. */
export function setupProjects(projects: readonly PlaywrightProjectEntry[], project: PlaywrightProjectEntry): PlaywrightProjectEntry[] {
  const found: PlaywrightProjectEntry[] = [];
  const visit = (names: readonly string[]) => {
    for (const name of names) {
      const dependency = projects.find((p) => p.name === name);
      if (!dependency || found.includes(dependency) || dependency === project) continue;
      visit(dependency.dependencies);
      found.push(dependency);
    }
  };
  visit(project.dependencies);
  return found;
}

/**
 * What steers Node, the loader, Playwright or Scribe itself, or what a contained run sets: never a setup project's
 * to pass on (the run's own settings stay its own).
 */
const RUN_SETTING = /^(?:NODE_|LD_|DYLD_|PLAYWRIGHT_|PW_|SCRIBE_)|^(?:HOME|TMPDIR|PATH|BASE_URL|FORCE_COLOR)$/;

/** The variables the setup projects of `project` read, each once, sorted; none without setup projects. */
export function setupProjectVariables(config: Pick<ReadPlaywrightConfig, 'projects' | 'configFile' | 'configDir'>, project: PlaywrightProjectEntry): string[] {
  const setups = setupProjects(config.projects, project);
  if (setups.length === 0) return [];
  const files = setups.flatMap((setup) => testFiles(setup, config.configFile));
  const texts = withImports(files, config.configDir);
  return [...new Set([...texts].flatMap(([file, text]) => variablesRead(text, file)))].filter((name) => !RUN_SETTING.test(name)).sort();
}

/** The files Playwright would run in a project: its testDir's code files its testMatch and testIgnore let through. */
function testFiles(project: PlaywrightProjectEntry, configFile: string): string[] {
  const matches = projectMatcher(project, configFile);
  return filesBreadthFirst(project.testDir, {
    depth: SETUP_SEARCH.depth,
    files: SETUP_SEARCH.files,
    enters: (entry) => !SKIPPED_FOLDERS.has(entry.name),
    keeps: (entry, full) => SCRIPT_FILE.test(entry.name) && matches(full),
  });
}

/**
 * The texts of the files and of the project files they import (relative imports inside `root`), transitively, up
 * to the search's limit; each file read once.
 */
function withImports(files: readonly string[], root: string): Map<string, string> {
  const seen = new Set<string>();
  const texts = new Map<string, string>();
  const queue = [...files];
  while (queue.length > 0 && seen.size < SETUP_SEARCH.files) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readCode(file);
    if (text === undefined) continue;
    texts.set(file, text);
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const target = relativeModuleFile(path.dirname(file), imported.fileName);
      if (target && isInside(root, target) && !seen.has(target)) queue.push(target);
    }
  }
  return texts;
}

function readCode(file: string): string | undefined {
  try {
    return statSync(file).size > SETUP_SEARCH.fileBytes ? undefined : readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
