import { describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { fixBreaks } from '../../src/validate/verify-fix.ts';
import { Validator } from '../../src/validate/validator.ts';

const config = loadCriticConfig();
const validator = new Validator(config, { typeCheck: false });

const BROKEN_LINE = `import { test, expect } from '@playwright/test';

test('logout hides the menu', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('logout').click();
  await page.waitForLoadState('networkidle'');
  await expect(page.getByTestId('menu')).toBeHidden();
});
`;

const FIXABLE = `import { test, expect } from '@playwright/test';

test('logout hides the menu', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('logout').click();
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('menu')).toBeHidden();
});
`;

describe('--fix: every fix verified', () => {
  it('never edits a file with syntax errors; the assertion after the broken line stays', () => {
    const result = validator.fix('broken.spec.ts', BROKEN_LINE);
    expect(result.text).toBe(BROKEN_LINE);
    expect(result.applied).toEqual([]);
    expect(result.refused.map((f) => f.rule)).toContain('no-networkidle');
    expect(result.refused[0]!.reason).toContain('syntax errors');
    expect(result.validation.passed).toBe(false);
    expect(result.validation.issues.map((i) => i.rule)).toContain('syntax');
  });

  it('applies a fix that keeps every assertion, and records exactly what it changed', () => {
    const result = validator.fix('fixable.spec.ts', FIXABLE);
    expect(result.text).not.toContain('networkidle');
    expect(result.text).toContain("await expect(page.getByTestId('menu')).toBeHidden();");
    expect(result.applied).toHaveLength(1);
    expect(result.applied[0]).toMatchObject({ rule: 'no-networkidle', line: 6 });
    const [change] = result.applied[0]!.changes;
    expect(change!.removed).toContain("waitForLoadState('networkidle')");
    expect(change!.removed).not.toContain('toBeHidden');
    expect(result.refused).toEqual([]);
  });

  it('fixBreaks refuses a change that drops an assertion, changes a matcher or an expected value, or breaks the syntax', () => {
    const dropped = FIXABLE.replace("  await expect(page.getByTestId('menu')).toBeHidden();\n", '');
    expect(fixBreaks('a.spec.ts', FIXABLE, dropped)).toMatch(/would change the assertions/);
    const matcher = FIXABLE.replace('toBeHidden()', 'toBeAttached()');
    expect(fixBreaks('a.spec.ts', FIXABLE, matcher)).toMatch(/would change the assertions/);
    const withValue = FIXABLE.replace('toBeHidden()', "toHaveText('Bye')");
    expect(fixBreaks('a.spec.ts', withValue, withValue.replace("'Bye'", "'Hi'"))).toMatch(/would change the assertions/);
    expect(fixBreaks('a.spec.ts', FIXABLE, FIXABLE.replace("goto('/')", "goto('/'"))).toBe('the fixed file would not parse');
    expect(fixBreaks('a.spec.ts', FIXABLE, FIXABLE.replace("  await page.waitForLoadState('networkidle');\n", ''))).toBeUndefined();
  });
});
