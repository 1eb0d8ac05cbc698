/**
 * The `type-check` rule's compiler. TypeScript 7's native compiler (the optional `typescript-native`
 * dependency, a platform binary) checks a batch in a fraction of the JavaScript compiler's time; where it
 * is not installed the JavaScript compiler (ts-morph's) does the same work. Both read one set of compiler
 * options and report diagnostics in one shape, so a finding does not depend on which one ran.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ts } from '../util/typescript.js';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { readTextIfPresent } from '../util/fs.ts';

const require = createRequire(import.meta.url);

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

/** What the native API reports, as far as Scribe reads it. */
interface NativeDiagnostic {
  fileName?: string;
  pos: number;
  code: number;
  category: number;
  text: string;
  messageChain?: readonly NativeDiagnostic[];
}

/** The chain flattened the way `ts.flattenDiagnosticMessageText(…, ' ')` does: each level indented two more spaces. */
function flattenChain(d: NativeDiagnostic, indent = 0): string {
  let text = d.text;
  for (const next of d.messageChain ?? []) text += ` ${'  '.repeat(indent + 1)}${flattenChain(next, indent + 1)}`;
  return text;
}

const NATIVE_ERROR_CATEGORY = 1;
/** How long the compiler process of `check` waits for the next batch before it exits. */
const IDLE_MS = 5_000;

type Spec = { file: string; text: string };
type FileSystemCallbacks = Record<string, (p: string) => unknown>;
interface NativeProgram<R> {
  getSemanticDiagnostics(file?: string): R;
}
interface NativeApi<R, V> {
  updateSnapshot(params: Record<string, unknown>): V extends 'sync' ? NativeSnapshot<R> : Promise<NativeSnapshot<R>>;
  close(): unknown;
}
interface NativeSnapshot<R> {
  getProject(configFileName: string): { program: NativeProgram<R> } | undefined;
  dispose(): void;
}
type NativeApiConstructor<R, V> = new (options: { cwd: string; fs?: FileSystemCallbacks }) => NativeApi<R, V>;
type SyncApi = NativeApiConstructor<readonly NativeDiagnostic[], 'sync'>;
type AsyncApi = NativeApiConstructor<Promise<readonly NativeDiagnostic[]>, 'async'>;

/** The native compiler's synchronous API, or why it cannot be used here. */
function nativeSyncApi(): SyncApi | Error {
  try {
    return (require('typescript-native/unstable/sync') as { API: SyncApi }).API;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The native compiler's asynchronous API (loaded before the caller gets busy: loading takes many turns of the event loop). */
async function nativeAsyncApi(): Promise<AsyncApi> {
  return ((await import('typescript-native/unstable/async')) as unknown as { API: AsyncApi }).API;
}

/**
 * TypeScript 7 in its own process. `check` keeps one process for the validator's life and hands each batch
 * over in memory (a generation's specs are not on disk yet); `checkConcurrently` lets the compiler work
 * while the caller runs the other rules.
 */
export class NativeTypeChecker {
  private api: NativeApi<readonly NativeDiagnostic[], 'sync'> | undefined;
  private readonly configFile: string;
  private configText = '{}';
  private texts = new Map<string, string>();
  private idle: NodeJS.Timeout | undefined;

  private constructor(
    private readonly Api: SyncApi,
    private readonly options: Record<string, unknown>,
    cwd: string,
    private readonly declarationFiles: readonly string[],
  ) {
    this.configFile = path.join(cwd, `.scribe-type-check-${process.pid}.tsconfig.json`);
  }

  /** The native checker, or the error that says why it is not installed. */
  static create(options: Record<string, unknown>, cwd = process.cwd(), declarationFiles: readonly string[] = []): NativeTypeChecker | Error {
    const Api = nativeSyncApi();
    return Api instanceof Error ? Api : new NativeTypeChecker(Api, options, cwd, declarationFiles);
  }

  check(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    clearTimeout(this.idle);
    try {
      return this.checkNow(specs);
    } finally {
      // An idle compiler holds a hundred megabytes: it goes after a while, and the next batch starts another.
      this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
    }
  }

  private checkNow(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    const previous = [...this.texts.keys()];
    this.texts = new Map(specs.map((s) => [path.resolve(s.file), s.text]));
    const files = [...this.texts.keys()];
    this.configText = JSON.stringify({ compilerOptions: this.options, files: [...files, ...this.declarationFiles] });
    const first = this.api === undefined;
    this.api ??= new this.Api({ cwd: path.dirname(this.configFile), fs: inMemory(this.configFile, () => this.configText, () => this.texts) });
    const changed = [...new Set([this.configFile, ...previous, ...files])];
    const snapshot = first ? this.api.updateSnapshot({ openProjects: [this.configFile] }) : this.api.updateSnapshot({ fileChanges: { changed } });
    try {
      return byFile(files, loaded(snapshot.getProject(this.configFile)?.program).getSemanticDiagnostics());
    } finally {
      snapshot.dispose();
    }
  }

  /**
   * Starts the compiler process of `check` and has it load the libraries and Playwright's types, so the
   * first real batch is checked at once (the pipeline does this while the browser starts).
   */
  warm(): void {
    if (!this.api) this.check([{ file: path.join(path.dirname(this.configFile), `.scribe-warm-${process.pid}.spec.ts`), text: "import '@playwright/test';\n" }]);
  }

  /** Stops the compiler process of `check` (a later batch starts another). */
  close(): void {
    clearTimeout(this.idle);
    this.api?.close();
    this.api = undefined;
    this.texts = new Map();
  }

  /**
   * The batch checked by a compiler process of its own, which works while this thread runs the other rules:
   * its tsconfig.json is written to a temporary folder, and only texts that differ from their file on disk
   * are served from memory (each would make the compiler wait for this thread).
   */
  async checkConcurrently(specs: readonly Spec[]): Promise<() => Promise<Map<string, TypeDiagnostic[]>>> {
    const API = await nativeAsyncApi();
    const answer = this.checkWith(API, specs);
    // A rejection is read when the answer is awaited; until then it must not count as unhandled.
    answer.catch(() => undefined);
    return () => answer;
  }

  private async checkWith(API: AsyncApi, specs: readonly Spec[]): Promise<Map<string, TypeDiagnostic[]>> {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'scribe-type-check-'));
    const configFile = path.join(folder, 'tsconfig.json');
    const texts = new Map(specs.map((s) => [path.resolve(s.file), s.text]));
    const configText = JSON.stringify({ compilerOptions: this.options, files: [...texts.keys(), ...this.declarationFiles] });
    writeFileSync(configFile, configText);
    const differing = new Map([...texts].filter(([file, text]) => readTextIfPresent(file) !== text));
    const api = new API({ cwd: folder, ...(differing.size > 0 ? { fs: inMemory(configFile, () => configText, () => differing) } : {}) });
    try {
      const snapshot = await api.updateSnapshot({ openProjects: [configFile] });
      const program = loaded(snapshot.getProject(configFile)?.program);
      // Asked file by file: the whole program's diagnostics would check every project file the specs import
      // (in a monorepo whose aliases lead into its sources, the whole code base), not only the specs.
      const files = [...texts.keys()];
      return byFile(files, (await Promise.all(files.map((file) => program.getSemanticDiagnostics(file)))).flat());
    } finally {
      await api.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

/**
 * The batch's diagnostics by file, from the whole program's: one request answers far sooner than one per
 * file; diagnostics of files the specs import are not the batch's.
 */
function byFile(files: readonly string[], diagnostics: readonly NativeDiagnostic[]): Map<string, TypeDiagnostic[]> {
  const found = new Map(files.map((file): [string, TypeDiagnostic[]] => [file, []]));
  for (const d of diagnostics) found.get(path.resolve(d.fileName ?? ''))?.push(fromNativeDiagnostic(d));
  return found;
}

function loaded<P>(program: P | undefined): P {
  if (!program) throw new Error('the native type checker did not load the batch');
  return program;
}

/** A tsconfig.json and spec texts served from memory; everything else read from disk. */
function inMemory(configFile: string, configText: () => string, texts: () => ReadonlyMap<string, string>): FileSystemCallbacks {
  const held = (p: string) => p === configFile || texts().has(p);
  return {
    readFile: (p) => (p === configFile ? configText() : texts().get(p)),
    fileExists: (p) => (held(p) ? true : undefined),
    directoryExists: (p) => ([configFile, ...texts().keys()].some((f) => f.startsWith(`${p}${path.sep}`)) ? true : undefined),
  };
}

function fromNativeDiagnostic(d: NativeDiagnostic): TypeDiagnostic {
  return { start: d.pos, code: d.code, error: d.category === NATIVE_ERROR_CATEGORY, text: flattenChain(d) };
}

/**
 * TypeScript's library (lib.*.d.ts), which ts-morph carries in memory rather than on disk. Its 3 MB module is
 * loaded only here, for a type check by the JavaScript compiler.
 */
function typeScriptLibrary(): { folder: string; files: Map<string, string> } {
  const { getLibFiles, libFolderInMemoryPath: folder } = require('@ts-morph/common') as typeof import('@ts-morph/common');
  return { folder, files: new Map(getLibFiles().map((f) => [path.posix.join(folder, f.fileName), f.text])) };
}

/**
 * The JavaScript compiler's programs over parsed specs: the specs' own syntax trees go in (so a rule's
 * node is the checker's node), and declaration files (the library, Playwright's and Node's types) are
 * parsed once for the validator's life.
 */
export class JavaScriptPrograms {
  private readonly declarationFiles = new Map<string, ts.SourceFile | undefined>();
  private readonly host: ts.CompilerHost;
  private readonly library = typeScriptLibrary();

  constructor(
    readonly options: ts.CompilerOptions,
    private readonly projectDeclarations: readonly string[] = [],
  ) {
    this.host = ts.createCompilerHost(options, true);
  }

  program(specs: readonly ts.SourceFile[]): ts.Program {
    const batch = new Map(specs.map((sf) => [path.resolve(sf.fileName), asModule(sf)]));
    const text = (fileName: string) => batch.get(path.resolve(fileName))?.text ?? this.library.files.get(fileName);
    const host: ts.CompilerHost = {
      ...this.host,
      getDefaultLibLocation: () => this.library.folder,
      getDefaultLibFileName: (options) => path.posix.join(this.library.folder, ts.getDefaultLibFileName(options)),
      getSourceFile: (fileName, languageVersion, onError) => {
        const spec = batch.get(path.resolve(fileName));
        if (spec) return spec;
        if (!fileName.endsWith('.d.ts')) return this.host.getSourceFile(fileName, languageVersion, onError);
        if (!this.declarationFiles.has(fileName)) this.declarationFiles.set(fileName, this.declarationFile(fileName, languageVersion, onError));
        return this.declarationFiles.get(fileName);
      },
      fileExists: (fileName) => text(fileName) !== undefined || this.host.fileExists(fileName),
      readFile: (fileName) => text(fileName) ?? this.host.readFile(fileName),
    };
    return ts.createProgram({ rootNames: [...batch.keys(), ...this.projectDeclarations], options: this.options, host });
  }

  private declarationFile(fileName: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions, onError?: (message: string) => void): ts.SourceFile | undefined {
    const library = this.library.files.get(fileName);
    return library === undefined ? this.host.getSourceFile(fileName, languageVersion, onError) : ts.createSourceFile(fileName, library, languageVersion);
  }
}

/**
 * Every spec is a module, so a script's top-level names never become globals another spec of the batch
 * sees: what `moduleDetection: force` does for files the program parses itself, done for the specs the
 * validator parsed.
 */
function asModule(sourceFile: ts.SourceFile): ts.SourceFile {
  const node = sourceFile as ts.SourceFile & { externalModuleIndicator?: unknown };
  node.externalModuleIndicator ??= true;
  return sourceFile;
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
