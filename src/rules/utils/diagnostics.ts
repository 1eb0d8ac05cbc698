/** Compiler diagnostics as rule findings (the syntax and type-check rules). */
import type { TypeDiagnostic } from '../../analysis/type-diagnostic.ts';
import type { Finding } from '../types.ts';

/** Compiler diagnostics as findings, with the compiler's own message. */
export function diagnosticFindings(diagnostics: readonly TypeDiagnostic[], hintFor: (code: number, text: string) => string): Finding[] {
  return diagnostics
    .filter((d) => d.error)
    .map((d) => {
      const { code, text } = withoutNameSuggestion(d.code, d.text);
      return { node: d.start, message: `${text} (TS${code})${hintFor(code, text)}` };
    });
}

/** "Cannot find name 'x'. Did you mean 'y'?" (TS2552), and the same without a suggestion (TS2304). */
const NAME_SUGGESTED = 2552;
const NAME_NOT_FOUND = 2304;

/**
 * A type checker suggests a spelling for only its first ten unknown names, whichever files they are in:
 * with the suggestion a file's findings would depend on the files checked before it. So none is kept.
 */
function withoutNameSuggestion(code: number, text: string): { code: number; text: string } {
  if (code !== NAME_SUGGESTED) return { code, text };
  return { code: NAME_NOT_FOUND, text: text.replace(/ Did you mean '[^']*'\?$/, '') };
}
