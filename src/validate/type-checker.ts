/**
 * The `type-check` rule's compiler. TypeScript 7's native compiler (the optional `typescript-native`
 * dependency, a platform binary) checks a batch in a fraction of the JavaScript compiler's time; where it
 * is not installed the JavaScript compiler (ts-morph's) does the same work. Both read one set of compiler
 * options and report diagnostics in one shape, so a finding does not depend on which one ran.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ts } from '../util/typescript.js';
import { globalsFileName } from './project-globals.ts';
import { NO_PROJECT, type ProjectDeclarations, type ProjectTypes } from './project-types.ts';

const require = createRequire(import.meta.url);

/**
 * Compiler options in tsconfig.json form (the native compiler reads only that): specs are checked against
 * the @playwright/test and Node types Scribe ships with, and resolve imports the way the project does.
 */
export function typeCheckOptions(strict: boolean, project: ProjectTypes = NO_PROJECT): Record<string, unknown> {
  const testPackage = path.dirname(require.resolve('@playwright/test/package.json'));
  const testTypes = path.join(testPackage, 'index.d.ts');
  // `playwright` is @playwright/test's dependency, not Scribe's: found from there, as a strict layout (pnpm's hoist=false) requires.
  const coreTestTypes = path.join(path.dirname(require.resolve('playwright/package.json', { paths: [testPackage] })), 'test.d.ts');
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

/**
 * What a compiler checks to ready itself before the first spec (the library's, Node's and Playwright's types
 * loaded): a spec that only imports Playwright, named in `folder` as no spec of the project is.
 */
export function warmSpec(folder: string): { file: string; text: string } {
  return { file: path.join(folder, `.scribe-warm-${process.pid}.spec.ts`), text: "import '@playwright/test';\n" };
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
 * TypeScript's library (lib.*.d.ts), which ts-morph carries in memory rather than on disk. Its 3 MB module is
 * loaded only here, for a type check by the JavaScript compiler.
 */
function typeScriptLibrary(): { folder: string; files: Map<string, string> } {
  const { getLibFiles, libFolderInMemoryPath: folder } = require('@ts-morph/common') as typeof import('@ts-morph/common');
  return { folder, files: new Map(getLibFiles().map((f) => [path.posix.join(folder, f.fileName), f.text])) };
}

/**
 * The JavaScript compiler's programs over parsed specs: the specs' own syntax trees go in (so a rule's
 * node is the checker's node), and declaration files (the library, Playwright's and Node's types, the
 * project's, its sources' global declarations) are parsed once for the validator's life.
 */
export class JavaScriptPrograms {
  private readonly declarationFiles = new Map<string, ts.SourceFile | undefined>();
  private readonly host: ts.CompilerHost;
  private readonly library = typeScriptLibrary();
  /** The project's global declarations by the name the program knows them by (no file on disk has it). */
  private readonly globals: ReadonlyMap<string, string>;
  private readonly projectDeclarations: readonly string[];

  constructor(
    readonly options: ts.CompilerOptions,
    project: ProjectDeclarations = NO_PROJECT,
  ) {
    this.host = ts.createCompilerHost(options, true);
    this.globals = new Map(project.globals.map((g) => [globalsFileName(g.source), g.declarations]));
    this.projectDeclarations = [...project.declarationFiles, ...this.globals.keys()];
  }

  program(specs: readonly ts.SourceFile[]): ts.Program {
    const batch = new Map(specs.map((sf) => [path.resolve(sf.fileName), asModule(sf)]));
    const text = (fileName: string) => batch.get(path.resolve(fileName))?.text ?? this.library.files.get(fileName) ?? this.globals.get(fileName);
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
    const held = this.library.files.get(fileName) ?? this.globals.get(fileName);
    return held === undefined ? this.host.getSourceFile(fileName, languageVersion, onError) : ts.createSourceFile(fileName, held, languageVersion);
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
