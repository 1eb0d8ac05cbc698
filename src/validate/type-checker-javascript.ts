/**
 * The JavaScript compiler (validate/type-checker.ts) on a thread of its own, for a validator that can say
 * when it is about to wait (a generation asking the model): `warm` has the thread parse the library's, Node's
 * and Playwright's types (a second and more of CPU) meanwhile, and `check` then answers from it. Without the
 * optional native compiler, that is what readies the type check while the model is asked. The findings are
 * the same as the validator's own program gives: the same options, the same parse, the same program.
 */
import path from 'node:path';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { CheckerThread } from './checker-thread.ts';
import type { ProjectDeclarations } from './project-types.ts';
import { warmSpec } from './type-checker.ts';

/**
 * How long the thread waits for its next batch. What it holds costs more than a second to parse again, and
 * the next batch of a generation (a heal's) comes after a run and a model call: a minute, where the native
 * compiler, which readies itself in a fraction of that, waits 5 s.
 */
export const JAVASCRIPT_IDLE_MS = 60_000;

// From the sources the thread needs tsx to load TypeScript (javascript-check-thread.mjs); the build runs the .js as is.
const THREAD_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './javascript-check-thread.mjs' : './javascript-check-thread.js', import.meta.url);

type Spec = { file: string; text: string };

export class JavaScriptTypeChecker {
  private readonly thread: CheckerThread<Array<[string, TypeDiagnostic[]]>>;
  private warmedOnce = false;

  /** `options`: the compiler options in tsconfig.json form (typeCheckOptions); `idleMs`: how long the thread waits for the next batch. */
  constructor(
    options: Record<string, unknown>,
    project: ProjectDeclarations,
    idleMs = JAVASCRIPT_IDLE_MS,
    private readonly cwd = process.cwd(),
  ) {
    this.thread = new CheckerThread(THREAD_SCRIPT, { options, project: { declarationFiles: project.declarationFiles, globals: project.globals } }, idleMs, 'JavaScript type checker');
  }

  /** Whether `warm` was ever called: a validator that never waits for anything checks in its own thread. */
  get warmed(): boolean {
    return this.warmedOnce;
  }

  /** Whether the thread is up (it ends `idleMs` after its last batch; the next batch starts another). */
  get running(): boolean {
    return this.thread.running;
  }

  /** Each spec's diagnostics, by its resolved path. */
  check(specs: readonly Spec[]): Map<string, TypeDiagnostic[]> {
    const answer = new Map(this.thread.request({ type: 'check', specs }));
    return new Map(specs.map((s) => [path.resolve(s.file), answer.get(path.resolve(s.file)) ?? []]));
  }

  /** Starts the thread on a spec that only imports Playwright, so that the first real batch is checked at once. Returns at once. */
  warm(): void {
    this.warmedOnce = true;
    this.thread.prepare({ type: 'check', specs: [warmSpec(this.cwd)] });
  }

  /** Ends the thread and waits until it has exited. */
  async stop(): Promise<void> {
    await this.thread.stop();
  }
}
