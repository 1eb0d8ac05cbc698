import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-page-pause';

describe('no-page-pause', () => {
  it('accepts pause on things that are not pages', () => {
    const code = inTest(
      [
        "  const video = { pause() {} };",
        '  video.pause();',
        "  await page.getByTestId('player').evaluate((el: HTMLVideoElement) => el.pause());",
        "  await page.clock.pauseAt(new Date('2024-01-01'));",
      ].join('\n'),
    );
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags page.pause()', () => {
    const issues = lint(RULE, inTest("  await page.goto('/');\n  await page.pause();"));
    expect(issues).toMatchObject([{ rule: RULE, line: 5, fixable: false }]);
    expect(issues[0]!.message).toMatch(/page\.pause\(\) stops the run.*remove it/);
  });

  it('follows values: aliases, popups, new pages, page objects and computed members', () => {
    const code = [
      "import { test, type Page } from '@playwright/test';",
      'class Debug {',
      '  constructor(private readonly page: Page) {}',
      '  async stop() { await this.page.pause(); }',
      '}',
      'class Untyped {',
      '  page;',
      '  constructor(page) { this.page = page; }',
      '  async stop() { await this.page.pause(); }',
      '}',
      "test('evasions', async ({ page, context }) => {",
      '  const p = page;',
      '  await p.pause();',
      "  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('open').click()]);",
      '  await popup.pause();',
      '  const second = await context.newPage();',
      "  await second['pause']();",
      "  const name = 'pa' + 'use';",
      '  await page[name]();',
      '  const frame = page.mainFrame();',
      '  await frame.page().pause();',
      '});',
    ].join('\n');
    expect(lint(RULE, code).map((i) => i.line)).toEqual([4, 9, 13, 15, 17, 19, 21]);
  });
});
