import { describe, expect, it } from 'vitest';
import { lint } from './harness.ts';

const RULE = 'no-skipped-test';
const header = "import { test, expect } from '@playwright/test';";

describe('no-skipped-test', () => {
  it('accepts running tests, test.slow and unrelated skip and fail methods', () => {
    const code = [
      header,
      "test('a', async ({ page }) => {",
      '  test.slow();',
      "  const list = { skip: (n: number) => n, fail: () => 0 };",
      '  list.skip(1);',
      '  list.fail();',
      "  await expect(page.getByTestId('x')).toBeVisible();",
      '});',
    ].join('\n');
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags test.fail and testInfo.fail() in generated code (a failing check would pass the test), not in a people’s suite that opts out', () => {
    const code = [header, "test.fail('known bug', async ({ page }) => {", "  await expect(page.getByTestId('x')).toHaveText('1 item left!');", '});', "test('b', async ({ page }, testInfo) => {", '  testInfo.fail();', '  test.fail();', '});'].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([2, 6, 7]);
    expect(issues[0]!.message).toContain('test.fail() marks this test as expected to fail');
    expect(lint(RULE, code, { options: { allow_conditional: true, expected_to_fail: false } })).toEqual([]);
  });

  it('flags skipped and fixme blocks', () => {
    const code = [
      header,
      "test.skip('a', async () => {});",
      "test.fixme('b', async () => {});",
      "test.describe.skip('group', () => {});",
      "test.describe.fixme('group 2', () => {});",
      "test.skip('with details', { tag: '@slow' }, async () => {});",
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => [i.line, i.fixable])).toEqual([[2, false], [3, false], [4, false], [5, false], [6, false]]);
    expect(issues[0]!.message).toContain('test.skip() turns off this test');
    expect(issues[1]!.message).toContain('as broken and never runs it');
    expect(issues[2]!.message).toContain('every test in this group');
  });

  it('flags annotation calls: test.skip(condition, reason) inside a test or a group, and test.fixme()', () => {
    const code = [
      header,
      "test.describe('group', () => {",
      "  test.skip(({ browserName }) => browserName === 'webkit', 'not yet');",
      "  test('a', async ({ page, browserName }) => {",
      "    test.skip(browserName === 'firefox', 'flaky');",
      '    test.fixme();',
      "    await expect(page.getByTestId('x')).toBeVisible();",
      '  });',
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([3, 5, 6]);
    expect(issues[1]!.message).toContain('as an annotation');
  });

  it('follows values: aliases, test.extend, fixtures re-exports, destructuring, computed members, TestInfo', () => {
    const code = [
      "import { test as base } from '@playwright/test';",
      "import { test } from './fixtures';",
      'const t = base.extend({});',
      'const { describe } = base;',
      "const mode = 'fix' + 'me';",
      "t.skip('a', async () => {});",
      "describe.skip('b', () => {});",
      "test[mode]('c', async () => {});",
      "base.describe['skip']('d', () => {});",
      "test('e', async ({ page }, testInfo) => {",
      "  testInfo.skip(true, 'later');",
      '  const info = test.info();',
      '  info.fixme();',
      '  test.info().skip();',
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([6, 7, 8, 9, 11, 13, 14]);
  });

  it('allow_conditional accepts a skip with a condition, never a skipped block or a bare skip', () => {
    const code = `${header}
const storageConfigured = Boolean(process.env.STORAGE_URL);
test('uploads', async ({ page }, testInfo) => {
  test.skip(!storageConfigured, 'needs storage');
  test.skip(process.platform === 'darwin', 'no file chooser on macOS CI');
  testInfo.fixme(process.env.CI === 'true', 'flaky on CI, tracked in #123');
  await expect(page.getByTestId('upload')).toBeVisible();
});
test.skip(({ browserName }) => browserName === 'webkit', 'webkit has no clipboard');
test.skip('a whole test turned off', async ({ page }) => { await page.goto('/'); });
test('always skipped', async () => {
  test.skip();
});
`;
    expect(lint(RULE, code).map((i) => i.line)).toEqual([4, 5, 6, 9, 10, 12]);
    expect(lint(RULE, code, { options: { allow_conditional: true } }).map((i) => i.line)).toEqual([10, 12]);
  });

  it('allow_conditional takes a skip an `if` guards as conditional, as the real suites write it', () => {
    const code = `${header}
test('tab focus', async ({ page, browserName }) => {
  // webkit has no tab focus by default
  if (browserName === 'webkit') {
    test.skip();
  }
  if (browserName === 'firefox') test.fixme();
  await expect(page.getByRole('button')).toBeFocused();
});
test('always skipped', async () => {
  test.skip();
});
`;
    expect(lint(RULE, code).map((i) => i.line)).toEqual([5, 7, 11]);
    expect(lint(RULE, code, { options: { allow_conditional: true } }).map((i) => i.line)).toEqual([11]);
  });

  it('sees a test a helper module makes (const test = testFactory(...)), typed or not', () => {
    const code = `import { expect } from '@playwright/test';
import { testFactory } from './test-utils';
const test = testFactory('./fixtures/basics/');
test('renders', async ({ page }) => {
  test.skip();
  await expect(page.getByRole('main')).toBeVisible();
});
`;
    expect(lint(RULE, code).map((i) => i.line)).toEqual([5]);
    const helper = code.replace("const test = testFactory('./fixtures/basics/');", "const tests = testFactory('./fixtures/basics/');\nconst notATest = makeThing();");
    expect(lint(RULE, helper.replaceAll('test.skip', 'tests.skip'))).toEqual([]);
  });
});
