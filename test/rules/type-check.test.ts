import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

describe('type-check', () => {
  it('accepts the real API, process.env and page objects', () => {
    const code = `import { test, expect, type Page } from '@playwright/test';

class Login {
  constructor(readonly page: Page) {}
  async open() { await this.page.goto(process.env.BASE_URL ?? '/'); }
}

test('real api', async ({ page, context }) => {
  await new Login(page).open();
  const popup = await context.newPage();
  await expect(popup.getByTestId('x')).toHaveCount(0);
});
`;
    expect(lint('type-check', code)).toEqual([]);
  });

  it('catches an invented method with the suggestion the compiler makes', () => {
    const [issue, ...rest] = lint('type-check', inTest("  await page.getByTestID('x').click();"));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ rule: 'type-check', line: 4, column: 14 });
    expect(issue!.message).toContain("Did you mean 'getByTestId'");
  });

  it('catches an invented matcher, also through an alias', () => {
    const issues = lint('type-check', inTest("  const e = expect;\n  await e(page.getByTestId('x')).toBeShown();"));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain("'toBeShown' does not exist");
  });

  it('catches a wrong argument type and a missing import', () => {
    const issues = lint('type-check', "import { test } from '@playwright/test';\ntest('x', async ({ page }) => {\n  await page.goto(42);\n  await expect(page).toHaveTitle('x');\n});\n");
    expect(issues.map((i) => i.line).sort()).toEqual([3, 4]);
  });
});
