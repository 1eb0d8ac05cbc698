import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/util/diff.ts';

const lines = (...items: string[]) => `${items.join('\n')}\n`;

describe('unifiedDiff', () => {
  it('is empty for the same text, line endings aside', () => {
    expect(unifiedDiff('a\r\nb\r\n', 'a\nb\n', 'x.ts')).toBe('');
  });

  it('prints removals before additions, with three lines of context, in separate hunks when far apart', () => {
    const before = lines('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k');
    const after = lines('a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'K', 'l');
    expect(unifiedDiff(before, after, 'e2e/x.spec.ts')).toBe(
      lines('--- a/e2e/x.spec.ts', '+++ b/e2e/x.spec.ts', '@@ -1,5 +1,5 @@', ' a', '-b', '+B', ' c', ' d', ' e', '@@ -8,4 +8,5 @@', ' h', ' i', ' j', '-k', '+K', '+l'),
    );
  });

  it('joins changes closer than twice the context into one hunk', () => {
    const diff = unifiedDiff(lines('1', '2', '3', '4', '5'), lines('1', 'two', '3', '4', 'five'), 'f');
    expect(diff.match(/^@@/gm)).toHaveLength(1);
    expect(diff).toContain('@@ -1,5 +1,5 @@');
  });

  it('handles a file that was empty, or emptied', () => {
    expect(unifiedDiff('', lines('x'), 'f')).toBe(lines('--- a/f', '+++ b/f', '@@ -1,0 +1,1 @@', '+x'));
    expect(unifiedDiff(lines('x'), '', 'f')).toBe(lines('--- a/f', '+++ b/f', '@@ -1,1 +1,0 @@', '-x'));
  });
});
