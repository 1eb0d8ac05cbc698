/** The compilers a Validator keeps for the type-check rule: the JavaScript one always, the native one where chosen and installed. */
import type { ProjectDeclarations } from './project-types.ts';
import type { TypeCheckerChoice } from './type-checker-choice.ts';
import { NativeTypeChecker } from './type-checker-native.ts';
import type { JavaScriptPrograms } from './type-checker.ts';

export interface Compiler {
  javascript: JavaScriptPrograms;
  native: NativeTypeChecker | undefined;
}

/** The native type checker for `auto` and `native` where it is installed; asked for by name and missing, an error that says so. */
export function nativeChecker(choice: TypeCheckerChoice, options: Record<string, unknown>, project: ProjectDeclarations, idleMs?: number): NativeTypeChecker | undefined {
  if (choice === 'javascript') return undefined;
  const native = NativeTypeChecker.create(options, process.cwd(), project, idleMs);
  if (!(native instanceof Error)) return native;
  if (choice === 'native') throw new Error(`the native type checker (TypeScript 7, the optional dependency typescript-native) cannot be loaded: ${native.message}`);
  return undefined;
}
