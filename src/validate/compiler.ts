/**
 * The compilers a Validator keeps for the type-check rule: the JavaScript one always, the native one where
 * chosen and installed, else the JavaScript one's own thread, used once a caller has warmed it.
 */
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import { once } from '../util/once.ts';
import type { ProjectDeclarations } from './project-types.ts';
import type { TypeCheckerChoice } from './type-checker-choice.ts';
import { JAVASCRIPT_IDLE_MS, JavaScriptTypeChecker } from './type-checker-javascript.ts';
import { NativeTypeChecker } from './type-checker-native.ts';
import { compilerOptionsFor, JavaScriptPrograms } from './type-checker.ts';

export interface Compiler {
  javascript: JavaScriptPrograms;
  native: NativeTypeChecker | undefined;
  /** Where there is no native checker: the JavaScript compiler on a thread of its own (its thread starts when warmed). */
  javascriptThread: JavaScriptTypeChecker | undefined;
}

/** The native type checker for `auto` and `native` where it is installed; asked for by name and missing, an error that says so. */
export function nativeChecker(choice: TypeCheckerChoice, options: Record<string, unknown>, project: ProjectDeclarations, idleMs?: number): NativeTypeChecker | undefined {
  if (choice === 'javascript') return undefined;
  const native = NativeTypeChecker.create(options, process.cwd(), project, idleMs);
  if (!(native instanceof Error)) return native;
  if (choice === 'native') throw new Error(`the native type checker (TypeScript 7, the optional dependency typescript-native) cannot be loaded: ${native.message}`);
  return undefined;
}

/**
 * The compilers for one set of options (tsconfig.json form) and project: `choice` says whether the native one
 * may be used, `idleMs` how long a process or thread of theirs waits for its next check.
 */
export function compilerFor(options: Record<string, unknown>, project: ProjectDeclarations, choice: TypeCheckerChoice, idleMs: number | undefined): Compiler {
  const native = nativeChecker(choice, options, project, idleMs);
  return {
    javascript: new JavaScriptPrograms(compilerOptionsFor(options), project),
    native,
    javascriptThread: native ? undefined : new JavaScriptTypeChecker(options, project, idleMs ?? JAVASCRIPT_IDLE_MS),
  };
}

/**
 * A batch's diagnostics from a checker on a thread of its own, asked when the type-check rule first needs
 * them: the native checker's, else the JavaScript compiler's thread once warmed; undefined where the
 * validator's own program gives them.
 */
export function threadedDiagnostics(compiler: Compiler, specs: ReadonlyArray<{ file: string; text: string }>): (() => Map<string, TypeDiagnostic[]>) | undefined {
  const threaded = compiler.native ?? (compiler.javascriptThread?.warmed ? compiler.javascriptThread : undefined);
  return threaded ? once(() => threaded.check(specs)) : undefined;
}
