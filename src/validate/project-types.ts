/**
 * Which tsconfig.json or jsconfig.json types each spec, as the user's editor has it, and specs grouped by the
 * type information they share, so that each group is one compiler program (validate/type-checker.ts).
 */
import path from 'node:path';
import { ts } from '../util/typescript.js';
import { readTextIfPresent } from '../util/fs.ts';

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


export const NO_PROJECT: ProjectTypes = { configFile: undefined, paths: {}, checkJs: false, lib: [], declarationFiles: [] };

type Spec = { file: string; text: string };

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

/**
 * Specs grouped so that each group is one compiler program, the type information of each spec's config
 * (nearest tsconfig.json or jsconfig.json that includes it) merged into its group's. A monorepo of a
 * hundred alike configs is then one program, not a hundred (each program loads the libraries and
 * Playwright's types anew). Configs go together unless they disagree on what a spec of theirs sees
 * differently: checkJs, or an alias their specs import that points elsewhere. Declaration files are taken
 * once per content (a hundred copies of one vite-env.d.ts are one), so their globals are visible to every
 * spec of the group: a spec may miss an error about a global only a neighbour project declares.
 */
export function groupByProjectTypes<S extends Spec>(specs: readonly S[]): Array<{ project: ProjectTypes; specs: S[] }> {
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
  const groups: Array<{ project: ProjectTypes; specs: S[]; used: Record<string, string[]>; declarations: Set<string> }> = [];
  for (const [configFile, members] of byConfig) {
    const project = configFile === undefined ? NO_PROJECT : read(configFile);
    const used = usedAliases(project, members);
    const fits = (g: (typeof groups)[number]) => g.project.checkJs === project.checkJs && Object.entries(used).every(([alias, targets]) => g.used[alias] === undefined || sameList(g.used[alias], targets));
    let into = groups.find(fits);
    if (!into) {
      into = { project: { ...project, declarationFiles: [] }, specs: [], used: {}, declarations: new Set() };
      groups.push(into);
    }
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
  return groups.map(({ project, specs: members }) => ({ project, specs: members }));
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
