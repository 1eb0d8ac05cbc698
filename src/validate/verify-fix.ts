/**
 * Whether an autofix may be applied: a fix makes a spec follow a rule, it never changes what the spec
 * checks. The fixed file must parse, and its assertions (count, matchers, expected values, guards) must
 * be those of the file before the fix, compared as syntax trees by the Medic's weakening check.
 */
import { findWeakening } from '../analysis/assertions.ts';
import { SpecModel } from '../analysis/model.ts';

/** Why the fix from `before` to `after` must not be applied, or undefined when it is safe. */
export function fixBreaks(file: string, before: string, after: string): string | undefined {
  const diagnostics = SpecModel.fromText(file, after).syntaxDiagnostics();
  if (diagnostics.length > 0) return 'the fixed file would not parse';
  const weakening = findWeakening(before, after);
  return weakening.length > 0 ? `it would change the assertions: ${weakening[0]}` : undefined;
}
