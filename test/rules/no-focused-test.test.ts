import { describe, expect, it } from 'vitest';
import { fix, lint } from './harness.ts';

const RULE = 'no-focused-test';
const header = "import { test, expect } from '@playwright/test';\n";

describe('no-focused-test', () => {
  it('accepts ordinary tests and an unrelated `only`', () => {
    const code = `${header}test.describe('group', () => {\n  test('a', async ({ page }) => {\n    const only = [1].filter(Boolean);\n    expect(only).toHaveLength(1);\n  });\n});\n`;
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags test.only and test.describe.only (also serial and parallel groups)', () => {
    const code = [
      header.trim(),
      "test.only('a', async () => {});",
      "test.describe.only('group', () => {});",
      "test.describe.serial.only('serial', () => {});",
      "test.describe.parallel.only('parallel', () => {});",
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[2, true], [3, true], [4, true], [5, true]]);
    expect(issues[1]!.message).toContain('test.describe.only()');
    expect(issues[1]!.message).toContain('skip every other test');
  });

  it('follows values: aliases, test.extend, fixtures re-exports, destructuring, computed members', () => {
    const code = [
      "import { test as base } from '@playwright/test';",
      "import { test as fixtures } from './fixtures';",
      'const it = base;',
      'const my = base.extend<{ user: string }>({ user: async ({}, use) => use("ann") });',
      'const { describe } = base;',
      "const focus = 'only';",
      "it.only('a', async () => {});",
      "my.only('b', async () => {});",
      "fixtures.only('c', async () => {});",
      "describe.only('d', () => {});",
      "base[focus]('e', async () => {});",
      "base['only']('f', async () => {});",
      'const solo = base.only;',
      "solo('g', async () => {});",
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[7, true], [8, true], [9, true], [10, true], [11, true], [12, true], [14, false]]);
  });

  it('removes `.only` where it is written', () => {
    const code = [
      header.trim(),
      "test.only('a', async () => {});",
      "test.describe.only('group', () => {",
      "  test['only']('b', async () => {});",
      '});',
      "test.extend({}).only('c', async () => {});",
    ].join('\n');
    expect(fix(RULE, code)).toBe(
      [
        header.trim(),
        "test('a', async () => {});",
        "test.describe('group', () => {",
        "  test('b', async () => {});",
        '});',
        "test.extend({})('c', async () => {});",
      ].join('\n'),
    );
  });

  it('sees a test required in CommonJS and one built by a fixtures factory in another module', () => {
    const cjs = "const { test } = require('@playwright/test');\ntest.only('a', async () => {});\n";
    const factory = "import { test } from './support/fixtures';\ntest.describe.only('group', () => {});\n";
    expect(lint(RULE, cjs).map((i) => i.line)).toEqual([2]);
    expect(lint(RULE, factory).map((i) => i.line)).toEqual([2]);
    const extended = "import { baseTest } from './support/base';\nconst test = baseTest().extend<{ todo: string }>({ todo: async ({}, use) => use('x') });\ntest.only('a', async ({ todo }) => {});\n";
    expect(lint(RULE, extended).map((i) => i.line)).toEqual([3]);
  });
});
