/**
 * What a spec's type check takes from its project: the tsconfig.json or jsconfig.json nearest to it (import
 * aliases, checkJs, libraries, the declaration files it includes), the compiler options both compilers read,
 * and the project's files a spec imports (what a cached finding depends on).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { ts } from '../util/typescript.js';

const require = createRequire(import.meta.url);

/** A spec file and its text. */
export type Spec = { file: string; text: string };

/**
 * What the type check takes from the project's tsconfig.json or jsconfig.json, as the user's editor does:
 * import aliases, whether JavaScript is checked (`checkJs`; a file's own `// @ts-check` is honoured by the
 * compiler either way), the libraries, and the declaration files the config includes (an app's globals).
 */
export interface ProjectTypes {
  configFile: string | undefined;
  paths: Record<string, string[]>;
  checkJs: boolean;
  lib: string[];
  declarationFiles: string[];
}

const NO_PROJECT: ProjectTypes = { configFile: undefined, paths: {}, checkJs: false, lib: [], declarationFiles: [] };

/**
 * Compiler options in tsconfig.json form (the native compiler reads only that): specs are checked against
 * the @playwright/test and Node types Scribe ships with, and resolve imports the way the project does.
 */
export function typeCheckOptions(strict: boolean, project: ProjectTypes = NO_PROJECT): Record<string, unknown> {
  const testTypes = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'index.d.ts');
  const coreTestTypes = path.join(path.dirname(require.resolve('playwright/package.json')), 'test.d.ts');
  const nodeTypesRoot = path.dirname(path.dirname(require.resolve('@types/node/package.json')));
  return {
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: [...new Set(['es2023', 'dom', 'dom.iterable', ...project.lib])],
    types: ['node'],
    typeRoots: [nodeTypesRoot],
    paths: { ...project.paths, '@playwright/test': [testTypes], 'playwright/test': [coreTestTypes] },
    strict,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    noUnusedLocals: false,
    // Every spec is a module, so a script's top-level names never become globals another spec of the batch sees.
    moduleDetection: 'force',
    // JavaScript specs are parsed (their imports typed), and checked only where the project opts in, as tsc
    // and editors do: checkJs in its config, or `// @ts-check` in the file.
    allowJs: true,
    checkJs: project.checkJs,
  };
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/**
 * The config the user's editor applies to `file`: the nearest tsconfig.json or jsconfig.json, walking up,
 * that includes it (a config whose `include` leaves the file out is passed over, as the editor does).
 * `read` memoises reading one config.
 */
export function nearestProjectConfig(file: string, read: (configFile: string) => ProjectTypes & { includes: (file: string) => boolean }): string | undefined {
  const absolute = path.resolve(file);
  for (let dir = path.dirname(absolute); ; dir = path.dirname(dir)) {
    for (const name of CONFIG_NAMES) {
      const candidate = path.join(dir, name);
      // A spec not on disk yet (a generation's) cannot be matched against `include`: the nearest config takes it.
      if (ts.sys.fileExists(candidate) && (!ts.sys.fileExists(absolute) || read(candidate).includes(absolute))) return candidate;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** One config read: its aliases (absolute targets), checkJs, lib, included declaration files, and which files it includes. */
export function readProjectTypes(configFile: string): ProjectTypes & { includes: (file: string) => boolean } {
  const read = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  if (read.error) return { ...NO_PROJECT, configFile, includes: () => false };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configFile), undefined, configFile);
  // pathsBasePath is where `paths` are relative to when there is no baseUrl (set by the parser, not public).
  const { paths, baseUrl, pathsBasePath, checkJs, lib } = parsed.options as ts.CompilerOptions & { pathsBasePath?: string };
  const base = baseUrl ?? pathsBasePath ?? path.dirname(configFile);
  const aliases = Object.fromEntries(Object.entries(paths ?? {}).map(([alias, targets]) => [alias, targets.map((t) => path.resolve(base, t))]));
  // TypeScript 7 has no baseUrl: its meaning is the `*` alias.
  if (baseUrl && !aliases['*']) aliases['*'] = [path.join(baseUrl, '*')];
  const fileNames = new Set(parsed.fileNames.map((f) => path.resolve(f)));
  return {
    configFile,
    paths: aliases,
    checkJs: checkJs === true,
    lib: (lib ?? []).map((name) => name.replace(/^lib\./, '').replace(/\.d\.ts$/, '')),
    declarationFiles: [...fileNames].filter((f) => f.endsWith('.d.ts') && !f.includes(`${path.sep}node_modules${path.sep}`)),
    includes: (file) => fileNames.has(file),
  };
}

/** The same options for the JavaScript compiler. */
export function compilerOptionsFor(json: Record<string, unknown>): ts.CompilerOptions {
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, process.cwd());
  if (errors.length > 0) throw new Error(`type-check options: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, ' ')}`);
  return options;
}

/**
 * The project's files a spec imports, directly or through each other (never packages): what its type
 * check reads besides itself, so what a cached result depends on.
 */
export function projectImports(file: string, text: string, options: ts.CompilerOptions): string[] {
  const found = new Set<string>();
  const visit = (from: string, source: string) => {
    for (const imported of ts.preProcessFile(source, true, true).importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, from, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport || found.has(resolved.resolvedFileName)) continue;
      found.add(resolved.resolvedFileName);
      const next = ts.sys.readFile(resolved.resolvedFileName);
      if (next !== undefined) visit(resolved.resolvedFileName, next);
    }
  };
  visit(path.resolve(file), text);
  return [...found].sort();
}

/**
 * Specs grouped by the type information their configs give them (nearest tsconfig.json or jsconfig.json
 * that includes each): one compiler program per group. Configs that differ only in what no spec of theirs
 * uses (aliases nobody imports) share a group, so a monorepo of many alike configs costs one program.
 * `configFile` is a config of the group (undefined: no config includes these specs).
 */
export function groupByProjectTypes<S extends Spec>(specs: readonly S[]): Array<{ configFile: string | undefined; specs: S[] }> {
  const configs = new Map<string, ReturnType<typeof readProjectTypes>>();
  const read = (configFile: string) => {
    if (!configs.has(configFile)) configs.set(configFile, readProjectTypes(configFile));
    return configs.get(configFile)!;
  };
  const byConfig = new Map<string | undefined, S[]>();
  for (const spec of specs) {
    const configFile = nearestProjectConfig(spec.file, read);
    const members = byConfig.get(configFile);
    if (members) members.push(spec);
    else byConfig.set(configFile, [spec]);
  }
  const groups = new Map<string, { configFile: string | undefined; specs: S[] }>();
  for (const [configFile, members] of byConfig) {
    const key = configFile === undefined ? '' : typesKey(read(configFile), members);
    const group = groups.get(key);
    if (group) group.specs.push(...members);
    else groups.set(key, { configFile, specs: [...members] });
  }
  return [...groups.values()];
}

/** What of a config decides its specs' types: checkJs, lib, declaration files, and the aliases they import. */
function typesKey(project: ProjectTypes, specs: readonly Spec[]): string {
  const imported = specs.flatMap((s) => ts.preProcessFile(s.text, true, true).importedFiles.map((f) => f.fileName));
  const used = Object.entries(project.paths).filter(([alias]) => {
    const prefix = alias.endsWith('*') ? alias.slice(0, -1) : undefined;
    return imported.some((name) => (prefix === undefined ? name === alias : name.startsWith(prefix)));
  });
  return JSON.stringify({ checkJs: project.checkJs, lib: [...project.lib].sort(), declarations: project.declarationFiles, paths: used });
}
