/**
 * The `type-check` rule's native compiler: TypeScript 7 (the optional `typescript-native` dependency, a
 * platform binary) in a process of its own, which checks a batch in a fraction of the JavaScript compiler's
 * time (validate/type-checker.ts). It reads the same compiler options and reports diagnostics in the same shape.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { readTextIfPresent } from '../util/fs.ts';
import { CheckerThread } from './checker-thread.ts';
import { globalsFileName } from './project-globals.ts';
import { NO_PROJECT, type ProjectDeclarations } from './project-types.ts';
import { warmSpec } from './type-checker.ts';

const require = createRequire(import.meta.url);
const { inMemory, loaded } = require('./native-in-memory.cjs') as {
  inMemory: (configFile: string, configText: () => string, texts: () => ReadonlyMap<string, string>) => FileSystemCallbacks;
  loaded: <P>(program: P | undefined) => P;
};

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
/** How long the compiler process of `check` waits for the next batch before it exits, unless its creator says otherwise. */
export const IDLE_MS = 5_000;

type Spec = { file: string; text: string };
type FileSystemCallbacks = Record<string, (p: string) => unknown>;
interface NativeProgram {
  getSemanticDiagnostics(file?: string): Promise<readonly NativeDiagnostic[]>;
}
interface NativeApi {
  updateSnapshot(params: Record<string, unknown>): Promise<NativeSnapshot>;
  close(): unknown;
}
interface NativeSnapshot {
  getProject(configFileName: string): { program: NativeProgram } | undefined;
  dispose(): void;
}
type AsyncApi = new (options: { cwd: string; fs?: FileSystemCallbacks }) => NativeApi;

/** Whether the native compiler's synchronous API is installed, or why it cannot be used here (its thread loads it). */
function nativeSyncApiInstalled(): true | Error {
  try {
    require.resolve('typescript-native/unstable/sync');
    return true;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The native compiler's asynchronous API (loaded before the caller gets busy: loading takes many turns of the event loop). */
async function nativeAsyncApi(): Promise<AsyncApi> {
  return ((await import('typescript-native/unstable/async')) as unknown as { API: AsyncApi }).API;
}

// A plain script beside this module, in the sources and in dist alike (the build copies .cjs files).
const THREAD_SCRIPT = new URL('./native-check-thread.cjs', import.meta.url);

/**
 * TypeScript 7 in its own process, driven from a thread of its own (native-check-thread.cjs, through
 * checker-thread.ts), whose synchronous requests block that thread rather than the caller's. `check` keeps one
 * process for the validator's life and hands each batch over in memory (a generation's specs are not on disk
 * yet), then waits for the answer; `warm` has the compiler load its libraries without waiting;
 * `checkConcurrently` lets the compiler work while the caller runs the other rules.
 */
export class NativeTypeChecker {
  private readonly thread: CheckerThread<readonly NativeDiagnostic[]>;
  private readonly configFile: string;
  /** The project's global declarations by the name `check` serves them under (no file on disk has it). */
  private readonly globals: ReadonlyMap<string, string>;

  private constructor(
    private readonly options: Record<string, unknown>,
    cwd: string,
    private readonly project: ProjectDeclarations,
    idleMs: number,
  ) {
    this.configFile = path.join(cwd, `.scribe-type-check-${process.pid}.tsconfig.json`);
    this.globals = new Map(project.globals.map((g) => [globalsFileName(g.source), g.declarations]));
    this.thread = new CheckerThread(THREAD_SCRIPT, { configFile: this.configFile }, idleMs, 'native type checker');
  }

  /** The native checker, or the error that says why it is not installed; `idleMs`: how long its process waits for the next batch. */
  static create(options: Record<string, unknown>, cwd = process.cwd(), project: ProjectDeclarations = NO_PROJECT, idleMs = IDLE_MS): NativeTypeChecker | Error {
    const installed = nativeSyncApiInstalled();
    return installed instanceof Error ? installed : new NativeTypeChecker(options, cwd, project, idleMs);
  }

  /** Whether the compiler process of `check` is up (it exits after `idleMs` without a batch). */
  get running(): boolean {
    return this.thread.running;
  }

  check(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    return byFile(
      specs.map((s) => path.resolve(s.file)),
      this.thread.request(this.batch(specs)),
    );
  }

  /**
   * Starts the compiler process of `check` and has it load the libraries and Playwright's types, so that the
   * first real batch is checked at once. Returns at once: the loading overlaps the caller's work.
   */
  warm(): void {
    this.thread.prepare(this.batch([warmSpec(path.dirname(this.configFile))]));
  }

  /** Stops the compiler process of `check` (a later batch starts another). */
  close(): void {
    this.thread.close();
  }

  /**
   * Stops the compiler process of `check` and waits until it has exited. The process is a child of the
   * checker's thread, which ends only once the process has exited and been reaped: a thread that ends after
   * this leaves no child behind.
   */
  async stop(): Promise<void> {
    await this.thread.stop();
  }

  /** What the checker's thread is handed for a batch: its config, the texts it serves from memory, the batch's files. */
  private batch(specs: readonly Spec[]): Record<string, unknown> {
    const files = specs.map((s) => path.resolve(s.file));
    const texts = [...this.globals, ...specs.map((s): [string, string] => [path.resolve(s.file), s.text])];
    const configText = JSON.stringify({ compilerOptions: this.options, files: [...files, ...this.project.declarationFiles, ...this.globals.keys()] });
    return { type: 'check', configText, texts, files };
  }

  /**
   * The batch checked by a compiler process of its own, which works while this thread runs the other rules:
   * its tsconfig.json and the project's global declarations are written to a temporary folder, and only
   * texts that differ from their file on disk are served from memory (each would make the compiler wait
   * for this thread).
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
    const globals = [...this.globals.values()].map((declarations, i) => {
      const file = path.join(folder, `globals-${i}.d.ts`);
      writeFileSync(file, declarations);
      return file;
    });
    const configText = JSON.stringify({ compilerOptions: this.options, files: [...texts.keys(), ...this.project.declarationFiles, ...globals] });
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

function fromNativeDiagnostic(d: NativeDiagnostic): TypeDiagnostic {
  return { start: d.pos, code: d.code, error: d.category === NATIVE_ERROR_CATEGORY, text: flattenChain(d) };
}
