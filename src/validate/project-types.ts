/**
 * Which tsconfig.json or jsconfig.json types each spec, as the user's editor has it, and specs grouped by the
 * type information they share, so that each group is one compiler program (validate/type-checker.ts).
 */
import path from 'node:path';
import { ts } from '../util/typescript.js';
import { readTextIfPresent } from '../util/fs.ts';
import { mayDeclareGlobals, type ProjectGlobals } from './project-globals.ts';

/**
 * What the type check takes from the project's tsconfig.json or jsconfig.json, as the user's editor does:
 * import aliases, whether JavaScript is checked (`checkJs`; a file's own `// @ts-check` is honoured by the
 * compiler either way), the libraries, the declaration files the config includes, and the globals its other
 * sources declare (an app's globals, either way).
 */
export interface ProjectTypes {
  configFile: string | undefined;
  paths: Record<string, string[]>;
  checkJs: boolean;
  lib: string[];
  declarationFiles: string[];
  globals: ProjectGlobals[];
}

/** What the compilers load besides the specs: the project's declaration files and its sources' global declarations. */
export type ProjectDeclarations = Pick<ProjectTypes, 'declarationFiles' | 'globals'>;

export const NO_PROJECT: ProjectTypes = { configFile: undefined, paths: {}, checkJs: false, lib: [], declarationFiles: [], globals: [] };

/** A config read: its type information, which files it includes, and its sources that may declare globals. */
type ProjectConfig = ProjectTypes & { includes: (file: string) => boolean; sources: string[] };

/** A spec as the type check takes it: its path and its text (which may not be on disk yet). */
export type Spec = { file: string; text: string };

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/**
 * The config the user's editor applies to `file`: the nearest tsconfig.json or jsconfig.json, walking up,
 * that includes it (a config whose `include` leaves the file out is passed over, as the editor does).
 * `read` memoises reading one config.
 */
export function nearestProjectConfig(file: string, read: (configFile: string) => Pick<ProjectConfig, 'includes'>): string | undefined {
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

/**
 * One config read: its aliases (absolute targets), checkJs, lib, included declaration files, which files it
 * includes, and its sources that may declare globals. Their globals are not read here (`globals` is empty):
 * only a spec with a type error needs them (confirmedInOwnProject).
 */
export function readProjectTypes(configFile: string): ProjectConfig {
  const read = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  if (read.error) return { ...NO_PROJECT, configFile, includes: () => false, sources: [] };
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
    globals: [],
    includes: (file) => fileNames.has(file),
    sources: [...fileNames].filter(mayDeclareGlobals),
  };
}

/**
 * Specs checked in one program: their type information merged, and each config's own with the specs it
 * types and its other sources that may declare globals.
 */
export interface ProjectGroup<S extends Spec> {
  project: ProjectTypes;
  specs: S[];
  members: Array<{ project: ProjectTypes; specs: S[]; sources: string[] }>;
}

/**
 * Specs grouped so that each group is one compiler program, the type information of each spec's config
 * (nearest tsconfig.json or jsconfig.json that includes it) merged into its group's. A monorepo of a
 * hundred alike configs is then one program, not a hundred (each program loads the libraries and
 * Playwright's types anew). Configs go together unless they disagree on what a spec of theirs sees
 * differently: checkJs, or an alias their specs import that points elsewhere. Declaration files are taken
 * once per content (a hundred copies of one vite-env.d.ts are one), so their globals are visible to every
 * spec of the group: a spec may miss an error about a global only a neighbour project declares. A type
 * error is confirmed in the spec's own config, its sources' globals included (confirmedInOwnProject).
 */
export function groupByProjectTypes<S extends Spec>(specs: readonly S[]): Array<ProjectGroup<S>> {
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
  // The specs are in the program themselves: their own global declarations are not taken twice.
  const specFiles = new Set(specs.map((s) => path.resolve(s.file)));
  const groups: Array<ProjectGroup<S> & { used: Record<string, string[]>; declarations: Set<string> }> = [];
  for (const [configFile, members] of byConfig) {
    const config = configFile === undefined ? undefined : read(configFile);
    const project = config ?? NO_PROJECT;
    const used = usedAliases(project, members);
    const fits = (g: (typeof groups)[number]) => g.project.checkJs === project.checkJs && Object.entries(used).every(([alias, targets]) => g.used[alias] === undefined || sameList(g.used[alias], targets));
    let into = groups.find(fits);
    if (!into) {
      into = { project: { ...project, declarationFiles: [] }, specs: [], members: [], used: {}, declarations: new Set() };
      groups.push(into);
    }
    into.members.push({ project, specs: members, sources: (config?.sources ?? []).filter((file) => !specFiles.has(file)) });
    into.specs.push(...members);
    into.used = { ...into.used, ...used };
    // The first config's target wins for an alias no spec of the group imports.
    into.project = { ...into.project, paths: { ...project.paths, ...into.project.paths, ...used }, lib: [...new Set([...into.project.lib, ...project.lib])] };
    for (const file of project.declarationFiles) {
      const content = readTextIfPresent(file) ?? file;
      if (into.declarations.has(content)) continue;
      into.declarations.add(content);
      into.project.declarationFiles = [...into.project.declarationFiles, file];
    }
  }
  return groups.map(({ project, specs: grouped, members }) => ({ project, specs: grouped, members }));
}

/** The aliases of a config its specs import. */
function usedAliases(project: ProjectTypes, specs: readonly Spec[]): Record<string, string[]> {
  const imported = specs.flatMap((s) => ts.preProcessFile(s.text, true, true).importedFiles.map((f) => f.fileName));
  return Object.fromEntries(
    Object.entries(project.paths).filter(([alias]) => {
      const prefix = alias.endsWith('*') ? alias.slice(0, -1) : undefined;
      return imported.some((name) => (prefix === undefined ? name === alias : name.startsWith(prefix)));
    }),
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
