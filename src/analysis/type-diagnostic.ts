/** One compiler diagnostic, as both compilers report it (validate/type-checker.ts makes them; the model and rules read them). */
export interface TypeDiagnostic {
  /** Offset of its first character in the file. */
  start: number;
  code: number;
  error: boolean;
  /** The message with its chain of reasons, on one line. */
  text: string;
}
