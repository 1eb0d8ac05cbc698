import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

describe('syntax', () => {
  it('accepts a spec that parses', () => {
    expect(lint('syntax', inTest("  await page.goto('/');"))).toEqual([]);
  });

  it('reports a parse error at its line', () => {
    const issues = lint('syntax', inTest('  await page.click(;\n  const = 1;'));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ rule: 'syntax', severity: 'error', line: 4, fixable: false });
    expect(issues[0]!.message).toMatch(/expected/);
  });
});
