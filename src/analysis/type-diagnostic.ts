/**
 * Compiler diagnostics in one shape, whichever compiler reported them: validate/type-checker.ts makes
 * them, the spec model carries them, the syntax and type-check rules report them.
 */
import { ts } from '../util/typescript.js';

/** One compiler diagnostic, as both compilers report it. */
export interface TypeDiagnostic {
  /** Offset of its first character in the file. */
  start: number;
  code: number;
  error: boolean;
  /** The message with its chain of reasons, on one line. */
  text: string;
}

/** A diagnostic of the JavaScript compiler in the shared shape. */
export function fromCompilerDiagnostic(d: ts.Diagnostic): TypeDiagnostic {
  return { start: d.start ?? 0, code: d.code, error: d.category === ts.DiagnosticCategory.Error, text: ts.flattenDiagnosticMessageText(d.messageText, ' ') };
}
