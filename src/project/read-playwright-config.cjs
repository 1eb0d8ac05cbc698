// Reads a Playwright config exactly as `npx playwright test` does: Playwright's own config loader, with its
// TypeScript transform, from the project's own Playwright (else Scribe's). It runs in a child process, so the
// transform's module hooks and whatever the config's code does stay out of Scribe's process.
'use strict';
const nodeModule = require('node:module');
const { createRequire } = nodeModule;
const path = require('node:path');

// Compiling Playwright's two bundles (7 MB) is a third of this process's work: from V8's code cache,
// Node's own where it has one (22+), else Scribe's.
if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
else require('../util/code-cache.cjs').cacheCompiledFiles((file) => /[\\/]playwright(-core)?[\\/]lib[\\/]\w+Bundle\.js$/.test(file));

function playwrightModules(configFile) {
  for (const from of [configFile, __filename]) {
    try {
      const fromPackage = createRequire(createRequire(from).resolve('@playwright/test/package.json'));
      return { common: fromPackage('playwright/lib/common'), util: fromPackage('playwright/lib/util') };
    } catch {
      // not installed there: try the next place
    }
  }
  throw new Error('cannot find @playwright/test (npm install --save-dev @playwright/test)');
}

/** Whether Playwright would run this file in the project (its testDir, testMatch and testIgnore). */
function runsFile(util, project, file) {
  const relative = path.relative(project.testDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return false;
  const ignored = util.createFileMatcher(project.testIgnore);
  return util.createFileMatcher(project.testMatch)(file) && !(project.testIgnore.length > 0 && ignored(file));
}

function pattern(value) {
  return value instanceof RegExp ? { regex: value.source, flags: value.flags } : { glob: String(value) };
}

function patterns(value) {
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== null).map(pattern);
}

function storageState(value, configDir) {
  if (typeof value === 'string') return path.resolve(configDir, value);
  return value === undefined ? undefined : null;
}

// sample: a path under each project's testDir (where generated specs go by default); each project says
// whether it would run a spec there, answered here where Playwright's matcher is loaded already.
async function read(configFile, sample) {
  const { common, util } = playwrightModules(configFile);
  const config = await common.configLoader.loadConfigFromFile(configFile);
  const configDir = config.configDir;
  return {
    configFile: config.config.configFile,
    configDir,
    projects: config.projects.map((p) => ({
      name: p.project.name,
      testDir: p.project.testDir,
      testMatch: patterns(p.project.testMatch),
      testIgnore: patterns(p.project.testIgnore),
      dependencies: p.deps.map((d) => d.project.name),
      runsSample: runsFile(util, p.project, path.join(p.project.testDir, sample)),
      use: {
        baseURL: typeof p.project.use.baseURL === 'string' ? p.project.use.baseURL : undefined,
        testIdAttribute: typeof p.project.use.testIdAttribute === 'string' ? p.project.use.testIdAttribute : undefined,
        storageState: storageState(p.project.use.storageState, configDir),
      },
    })),
    webServers: config.webServers.map((w) => ({
      command: w.command,
      url: w.url,
      port: w.port,
      reuseExistingServer: w.reuseExistingServer === true,
      cwd: path.resolve(configDir, w.cwd ?? '.'),
      env: w.env,
      timeout: w.timeout,
    })),
  };
}

read(process.argv[2], process.argv[3]).then(
  (config) => process.send({ config }, () => process.exit(0)),
  (error) => process.send({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(0)),
);
