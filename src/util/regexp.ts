/** Regular expressions as written in a spec: a literal's parts, and a pattern compiled to test texts with. */

/** The pattern and flags of a regular expression literal's text (`/\d+ items/i`). */
export function literalParts(literal: string): { source: string; flags: string } {
  const end = literal.lastIndexOf('/');
  return { source: literal.slice(1, end), flags: literal.slice(end + 1) };
}

/** A pattern compiled without global or sticky state, so `test` gives the same answer each time; undefined when it does not compile. */
export function compilePattern(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags.replace(/[gy]/g, ''));
  } catch {
    return undefined;
  }
}

/** A regular expression literal's text compiled (`/^zebra$/` to a RegExp), or undefined. */
export function regExpOfLiteral(literal: string): RegExp | undefined {
  const { source, flags } = literalParts(literal);
  return compilePattern(source, flags);
}
