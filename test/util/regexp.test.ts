import { describe, expect, it } from 'vitest';
import { compilePattern, literalParts, regExpOfLiteral } from '../../src/util/regexp.ts';

describe('regular expressions as written in a spec', () => {
  it("splits a literal into its pattern and flags, the last slash ending the pattern", () => {
    expect(literalParts('/\\/cart$/i')).toEqual({ source: '\\/cart$', flags: 'i' });
    expect(literalParts('/a\\/b/')).toEqual({ source: 'a\\/b', flags: '' });
  });

  it('compiles without global or sticky state, so testing twice gives the same answer', () => {
    const pattern = regExpOfLiteral('/zebra/gy')!;
    expect([pattern.test('zebra'), pattern.test('zebra')]).toEqual([true, true]);
    expect(compilePattern('Total: \\$8', 'i')!.test('total: $8')).toBe(true);
  });

  it('gives undefined for a pattern that does not compile', () => {
    expect(compilePattern('(', '')).toBeUndefined();
    expect(regExpOfLiteral('/a/q')).toBeUndefined();
  });
});
