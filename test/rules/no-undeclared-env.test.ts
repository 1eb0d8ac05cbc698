import { describe, expect, it } from 'vitest';
import { configWithOnly } from './harness.ts';
import { Validator } from '../../src/validate/validator.ts';

const RULE = 'no-undeclared-env';

const check = (body: string, env: Record<string, string | undefined> = {}) =>
  new Validator(configWithOnly(RULE), { typeCheck: false, env })
    .validateText('/virtual/example.spec.ts', `import { test } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n${body}\n});\n`)
    .issues;

describe('no-undeclared-env', () => {
  it('accepts the declared credential variables and the allowed ones, set or not', () => {
    expect(check("await page.getByTestId('u').fill(process.env.E2E_USERNAME ?? '');\nawait page.getByTestId('p').fill(process.env['E2E_PASSWORD']!);\nawait page.goto(process.env.BASE_URL ?? '/');")).toEqual([]);
  });

  it('sends back an undeclared, unset variable, naming it and the declared ones', () => {
    const issues = check("await page.getByTestId('p').fill(process.env.SAUCE_PASSWORD!);");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: RULE, severity: 'error', line: 4 });
    expect(issues[0]!.message).toContain('process.env.SAUCE_PASSWORD is neither declared nor set');
    expect(issues[0]!.message).toContain('process.env.E2E_USERNAME (username), process.env.E2E_PASSWORD (password)');
  });

  it('accepts an undeclared variable that is set in the run environment', () => {
    expect(check("await page.getByTestId('p').fill(process.env.SAUCE_PASSWORD!);", { SAUCE_PASSWORD: 'x' })).toEqual([]);
  });

  it('sees element access, destructuring and a renamed binding', () => {
    const issues = check("const { SHOP_USER: user } = process.env;\nconst key = process.env['SHOP_KEY'];\nawait page.getByTestId('u').fill(user ?? key ?? '');");
    expect(issues.map((i) => i.message.split(' ')[0])).toEqual(['process.env.SHOP_USER', 'process.env.SHOP_KEY']);
  });

  it('names the variables a project declares instead of the defaults', () => {
    const base = configWithOnly(RULE);
    const config = { ...base, credentials: { username: 'SHOP_USER', password: 'SHOP_PASS' } };
    const issues = new Validator(config, { typeCheck: false, env: {} }).validateText(
      '/virtual/x.spec.ts',
      "import { test } from '@playwright/test';\ntest('t', async ({ page }) => {\n  await page.getByTestId('p').fill(process.env.E2E_PASSWORD!);\n  await page.getByTestId('u').fill(process.env.SHOP_USER!);\n});\n",
    ).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain('process.env.SHOP_USER (username), process.env.SHOP_PASS (password)');
  });
});

describe('no-undeclared-env outside a generation', () => {
  it('reports nothing when the run environment is unknown (scribe validate on a human suite)', () => {
    const issues = new Validator(configWithOnly(RULE), { typeCheck: false }).validateText(
      '/virtual/x.spec.ts',
      "import { test } from '@playwright/test';\ntest('t', async ({ page }) => {\n  await page.getByTestId('p').fill(process.env.CI_ONLY_SECRET!);\n});\n",
    ).issues;
    expect(issues).toEqual([]);
  });
});
