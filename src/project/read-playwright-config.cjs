// Reads a Playwright config exactly as `npx playwright test` does: Playwright's own config loader, with its
// TypeScript transform, from the project's own Playwright (else Scribe's). It runs in a child process, so the
// transform's module hooks and whatever the config's code does stay out of Scribe's process.
'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');

// Compiling Playwright's two bundles (7 MB) is a third of this process's work: from V8's code cache.
require('../util/code-cache.cjs').enableCodeCache();

function playwrightModules(configFile) {
  for (const from of [configFile, __filename]) {
    let fromPackage;
    try {
      fromPackage = createRequire(createRequire(from).resolve('@playwright/test/package.json'));
    } catch {
      continue; // not installed there: try the next place
    }
    return { loadConfig: configLoader(fromPackage), util: fromPackage('playwright/lib/util') };
  }
  throw new Error('cannot find @playwright/test (npm install --save-dev @playwright/test)');
}

/**
 * Playwright's config loader, wherever this version keeps it, as its own `test` command calls it: the
 * configLoader of `playwright/lib/common` (recent versions), `playwright/lib/common/configLoader`'s
 * loadConfigFromFile (from about 1.54), or its loadConfigFromFileRestartIfNeeded, which registers the ESM
 * loader first (1.50 to 1.53).
 */
function configLoader(fromPackage) {
  const exported = (name) => {
    try {
      return fromPackage(name);
    } catch (error) {
      if (error.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || error.code === 'MODULE_NOT_FOUND') return undefined;
      throw error;
    }
  };
  const loader = exported('playwright/lib/common')?.configLoader ?? exported('playwright/lib/common/configLoader');
  if (!loader) throw new Error('this version of Playwright has no config loader Scribe knows (@playwright/test 1.50 or newer is needed)');
  if (typeof loader.loadConfigFromFile === 'function') return (file) => loader.loadConfigFromFile(file);
  return async (file) => {
    const config = await loader.loadConfigFromFileRestartIfNeeded(file);
    if (!config) throw new Error(`this Node cannot load ${file} in-process (it needs a restart with Playwright's ESM loader); use Node 20.19 or newer`);
    return config;
  };
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
// The config goes to Scribe first; Scribe answers with the variables it needs (the declared ones, and those the
// setup projects read, which it finds from the config's projects), and gets their values as loading the config left
// them (its dotenv, say), where that changed them: what `npx playwright test` would give the tests.
async function read(configFile, sample) {
  const { loadConfig, util } = playwrightModules(configFile);
  const before = { ...process.env };
  const config = await loadConfig(configFile);
  const configDir = config.configDir;
  const changed = (names) => Object.fromEntries(names.filter((name) => typeof process.env[name] === 'string' && process.env[name] !== before[name]).map((name) => [name, process.env[name]]));
  const read = {
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
  return { config: read, changed };
}

const send = (message) => new Promise((resolve) => process.send(message, resolve));
const variables = new Promise((resolve) => process.once('message', (message) => resolve(Array.isArray(message.variables) ? message.variables : [])));
read(process.argv[2], process.argv[3]).then(
  async ({ config, changed }) => {
    await send({ config });
    await send({ env: changed(await variables) });
    process.exit(0);
  },
  (error) => send({ error: error instanceof Error ? error.message : String(error) }).then(() => process.exit(0)),
);
