import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-chance-decisions';
const issues = (code: string) => lint(RULE, code);
const lines = (code: string) => issues(code).map((i) => i.line);
const header = "import { test, expect } from '@playwright/test';";

describe('no-chance-decisions: values of chance only as text the test types and looks for', () => {
  it('accepts a unique name typed, looked for, sent to the app and expected back, through constants, helpers and String()', () => {
    const code = [
      header,
      "import { createItem } from './helpers';",
      'function uniqueName(prefix: string) {',
      '  return `${prefix} ${Date.now()}`;',
      '}',
      "const PREFIX = 'Item ';",
      "test('x', async ({ page, request }) => {",
      "  const name = uniqueName('Task');",
      "  await page.getByLabel('Title').fill(name);",
      "  await page.getByRole('button', { name: 'Add' }).click();",
      '  await expect(page.getByText(name)).toBeVisible();',
      "  await expect(page.getByRole('row', { name })).toHaveCount(1);",
      "  await expect(page.getByTestId('title')).toHaveText(name);",
      '  const id = crypto.randomUUID();',
      "  await page.getByLabel('Code').fill(id);",
      "  await expect(page.getByLabel('Code')).toHaveValue(id);",
      "  await request.post('/api/items', { data: { title: `Item ${Date.now()}` } });",
      '  const label = PREFIX + Math.random();',
      "  await page.getByLabel('Note').fill(label);",
      "  await page.getByLabel('Stamp').fill(String(Date.now()));",
      "  await page.getByLabel('When').fill(new Date().toISOString());",
      '  await page.goto(`/search?q=${encodeURIComponent(name)}`);',
      '  await createItem(page, Math.random());',
      '  await test.step(`add ${name}`, async () => {});',
      "  expect(new Date(0).getUTCFullYear()).toBe(1970);",
      "  expect(Math.max(1, 2)).toBe(2);",
      '  expect(new Date(0)).toBeInstanceOf(Date);',
      '  expect(new Date(0) instanceof Date).toBe(true);',
      '});',
    ].join('\n');
    expect(issues(code)).toEqual([]);
  });

  it('refuses a value of chance compared, computed with, branched on or asserted directly (Math.random, Date.now parity, randomUUID)', () => {
    const code = inTest(
      [
        '  expect(Math.random()).toBeLessThan(0.5);',
        '  expect(Date.now() % 2).toBe(0);',
        "  expect(crypto.randomUUID().startsWith('a')).toBe(true);",
        "  await expect(page.getByText(Math.random() < 0.5 ? 'Items' : 'Nope')).toBeVisible();",
        '  const start = Date.now();',
        "  await page.getByRole('button').click();",
        '  expect(Date.now() - start).toBeGreaterThan(100);',
        "  const pick = ['Items', 'Nope'][Math.round(Math.random())];",
        '  expect(new Date().getSeconds()).toBeLessThan(30);',
        "  await expect(page.getByText(String(Math.random()).slice(2, 3))).toBeVisible();",
        '  expect(`${Date.now()}`).toMatch(/0$/);',
        '  await expect(page.getByTestId(\'n\')).toHaveCount(Date.now());',
        "  await expect(page.getByText(new RegExp(`[${Date.now()}]`))).toBeVisible();",
      ].join('\n'),
    );
    // Line 10 twice: the clock read now and the one kept in `start`.
    expect(lines(code)).toEqual([4, 5, 6, 7, 10, 10, 11, 12, 13, 14, 15, 16]);
    expect(issues(code)[0]!.message).toContain('Math.random() changes from run to run');
  });

  it("refuses every evasion: aliases, destructuring, .call and .bind, a helper of the spec's own that compares it, returns into a comparison, the page's code", () => {
    const code = [
      header,
      'function isEven(n: number) {',
      '  return n % 2 === 0;',
      '}',
      'const roll = () => Math.random();',
      "test('x', async ({ page }) => {",
      '  const r = Math.random;',
      '  const { now } = Date;',
      '  const D = Date;',
      '  Math.random.call(Math);',
      '  expect(isEven(Date.now())).toBe(true);',
      '  expect(roll() < 0.5).toBe(true);',
      '  expect(await page.evaluate(() => Math.random() < 0.5)).toBe(true);',
      '  expect(await page.evaluate(() => window.crypto.getRandomValues(new Uint8Array(1))[0]! % 2)).toBe(0);',
      '  expect(await page.evaluate((n) => n < 0.5, Math.random())).toBe(true);',
      "  await page.setContent(`<p>${Math.random() < 0.5 ? 'a' : 'b'}</p>`);",
      '  let late = `x`;',
      '  late = `${Math.random()}`;',
      '});',
    ].join('\n');
    // The helper's comparison (3) and roll()'s (12) are where the value decides; line 10 takes Math.random and hands on Math.
    expect(lines(code)).toEqual([3, 7, 8, 9, 10, 10, 12, 13, 14, 15, 16, 18]);
  });

  it("refuses a poll that counts its own tries (the clock decides how many, until a limit that is shorter in the proof's copy); polling the page is fine", () => {
    const code = inTest(
      [
        '  let tries = 0;',
        '  await expect.poll(() => ++tries, { intervals: [100] }).toBe(25);',
        '  const state = { n: 0 };',
        '  await expect.poll(async () => { state.n += 1; return state.n; }).toBeGreaterThan(20);',
        "  await expect.poll(async () => { let local = 0; local++; return (await page.getByTestId('rows').count()) + local; }).toBe(4);",
        "  await expect.poll(() => page.getByTestId('rows').count()).toBe(3);",
        '  await expect.poll(() => (tries as number)++).toBe(25);',
        '  await expect.poll(() => { (state.n satisfies number) += 1; return state.n; }).toBe(25);',
      ].join('\n'),
    );
    expect(lines(code)).toEqual([5, 7, 10, 11]);
  });
});
