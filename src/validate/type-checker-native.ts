/**
 * The `type-check` rule's native compiler: TypeScript 7 (the optional `typescript-native` dependency, a
 * platform binary) in a process of its own, which checks a batch in a fraction of the JavaScript compiler's
 * time (validate/type-checker.ts). It reads the same compiler options and reports diagnostics in the same shape.
 */
import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { readTextIfPresent } from '../util/fs.ts';
import { globalsFileName } from './project-globals.ts';
import { NO_PROJECT, type ProjectDeclarations } from './project-types.ts';

const require = createRequire(import.meta.url);

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
  /** The project's global declarations by the name `check` serves them under (no file on disk has it). */
  private readonly globals: ReadonlyMap<string, string>;

  private constructor(
    private readonly Api: SyncApi,
    private readonly options: Record<string, unknown>,
    cwd: string,
    private readonly project: ProjectDeclarations,
    private readonly idleMs: number,
  ) {
    this.configFile = path.join(cwd, `.scribe-type-check-${process.pid}.tsconfig.json`);
    this.globals = new Map(project.globals.map((g) => [globalsFileName(g.source), g.declarations]));
  }

  /** The native checker, or the error that says why it is not installed; `idleMs`: how long its process waits for the next batch. */
  static create(options: Record<string, unknown>, cwd = process.cwd(), project: ProjectDeclarations = NO_PROJECT, idleMs = IDLE_MS): NativeTypeChecker | Error {
    const Api = nativeSyncApi();
    return Api instanceof Error ? Api : new NativeTypeChecker(Api, options, cwd, project, idleMs);
  }

  /** Whether the compiler process of `check` is up (it exits after `idleMs` without a batch). */
  get running(): boolean {
    return this.api !== undefined;
  }

  check(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    clearTimeout(this.idle);
    try {
      return this.checkNow(specs);
    } finally {
      // An idle compiler holds a hundred megabytes: it goes after a while, and the next batch starts another.
      this.idle = setTimeout(() => this.close(), this.idleMs).unref();
    }
  }

  private checkNow(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    const previous = [...this.texts.keys()];
    const files = specs.map((s) => path.resolve(s.file));
    this.texts = new Map([...this.globals, ...specs.map((s): [string, string] => [path.resolve(s.file), s.text])]);
    this.configText = JSON.stringify({ compilerOptions: this.options, files: [...files, ...this.project.declarationFiles, ...this.globals.keys()] });
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
   * Stops the compiler process of `check` and waits until it has exited. Its process is the thread's child: a
   * worker thread terminated while it runs leaves it unreaped (a zombie, or a live orphan) once the thread's event
   * loop, which alone would reap it, is gone. The native API does not expose its process; it is reached through the
   * channel the API holds, and when that is not there (another release) only `close` is done.
   */
  async stop(): Promise<void> {
    const child = childOf(this.api);
    this.close();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      child.ref();
      child.once('exit', resolve);
    });
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

/** The compiler's process behind the synchronous API's client (its unstable internals: `client.channel.child`). */
function childOf(api: unknown): ChildProcess | undefined {
  const child = (api as { client?: { channel?: { child?: unknown } } } | undefined)?.client?.channel?.child;
  return child instanceof ChildProcess ? child : undefined;
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
