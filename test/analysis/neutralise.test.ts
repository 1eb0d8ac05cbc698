import { describe, expect, it } from 'vitest';
import { neutraliseActions } from '../../src/analysis/neutralise.ts';
import { SpecModel } from '../../src/analysis/model.ts';

const SETTINGS = `import { test, expect } from '@playwright/test';
import { openMenu } from './helpers';

async function rename(page) { await page.getByLabel('Name').fill('Ann'); }

test('settings', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.goto('/settings');
  await rename(page);
  await page.getByRole('button', {
    name: 'Save' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('status'),
  ).toHaveText('ok');
});

test('through a helper it cannot see into', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  await openMenu(page);
  await expect(page.getByText('Home')).toBeVisible();
});
`;

describe('neutraliseActions', () => {
  const result = neutraliseActions(SETTINGS);
  const [settings, helper] = result.tests;

  it('makes the state-changing calls after the last navigation no-ops, helpers included, and keeps the way there', () => {
    expect(settings!.actions.map((a) => a.source)).toEqual(["page.getByLabel('Name').fill('Ann')", "page.getByRole('button', { name: 'Save' }).click()", "page.keyboard.press('Escape')"]);
    expect(settings!.lastNavigation).toBe("page.goto('/settings')");
    expect(result.text).toContain("await page.getByLabel('Username').fill(process.env.E2E_USERNAME ?? '');");
    expect(result.text).toContain("await page.getByRole('button', { name: 'Sign in' }).click();");
    expect(result.text).toContain('async function rename(page) { await Promise.resolve(); }');
    expect(result.text).not.toContain("name: 'Save'");
    expect(result.text).not.toContain("press('Escape')");
  });

  it('keeps every line where it was, so the runs report the same lines', () => {
    expect(result.text.split('\n')).toHaveLength(SETTINGS.split('\n').length);
    expect(result.text.split('\n')[13]).toBe(SETTINGS.split('\n')[13]);
    expect(SpecModel.fromText('proof.spec.ts', result.text).syntaxDiagnostics()).toEqual([]);
  });

  it('lists the lines after the first neutralised action as the checks whose failure proves it', () => {
    expect(settings!.checkLines).toEqual(expect.arrayContaining([14, 16, 17, 18]));
    expect(settings!.checkLines.every((line) => line >= 11)).toBe(true);
  });

  it('treats a call it cannot see into that is handed the page as a navigation: nothing after it to prove', () => {
    expect(helper!.lastNavigation).toBe('openMenu(page)');
    expect(helper!.actions).toEqual([]);
    expect(result.text).toContain("await page.getByRole('button', { name: 'Menu' }).click();");
  });

  it('leaves a spec with no actions after its navigation as it is', () => {
    const looking = "import { test, expect } from '@playwright/test';\ntest('a', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByRole('heading')).toHaveText('Home');\n});\n";
    expect(neutraliseActions(looking)).toEqual({ text: looking, tests: [{ title: 'a', line: 2, actions: [], checkLines: [], lastNavigation: "page.goto('/')" }] });
  });

  it('does not touch methods of the same names on objects that are not Playwright\'s', () => {
    const own = "import { test, expect } from '@playwright/test';\ntest('a', async ({ page }) => {\n  await page.goto('/');\n  const form = { fill: (v: string) => v };\n  form.fill('x');\n  await expect(page).toHaveTitle('x');\n});\n";
    expect(neutraliseActions(own).text).toBe(own);
  });
});
