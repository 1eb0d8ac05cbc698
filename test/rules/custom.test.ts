import { describe, expect, it } from 'vitest';
import { Validator } from '../../src/validate/validator.ts';
import { criticConfigFrom } from '../../src/config/critic.ts';
import { parseYaml } from '../../src/config/load.ts';
import { inTest } from './harness.ts';

function configWith(custom: string) {
  return criticConfigFrom(parseYaml('custom.yaml', `version: 1\nsettings:\n  test_id_attribute: data-testid\n  validate_preset: generated\nrules: {}\ncustom_rules:\n${custom}`));
}

function lintCustom(custom: string, code: string) {
  return new Validator(configWith(custom), { typeCheck: false }).validateText('/virtual/a.spec.ts', code).issues;
}

describe('custom rules from YAML alone', () => {
  const noXpath = "  - id: no-xpath\n    severity: error\n    reason: XPath is brittle.\n    match: selector\n    pattern: '^(xpath=|//)'\n";

  it('matches selector strings, also held in a variable or a template', () => {
    const code = inTest("  const root = '//div';\n  await page.locator(root).click();\n  await page.locator(`xpath=${root}/a`).click();\n  await page.getByTestId('ok').click();");
    const issues = lintCustom(noXpath, code);
    expect(issues.map((i) => [i.rule, i.line])).toEqual([['no-xpath', 5], ['no-xpath', 6]]);
    expect(issues[0]!.message).toContain('XPath is brittle.');
  });

  it('never matches comments', () => {
    expect(lintCustom(noXpath, inTest("  // page.locator('//div')\n  await page.getByTestId('ok').click();"))).toEqual([]);
  });

  it('matches called method names, also computed ones', () => {
    const rule = "  - id: no-dblclick\n    severity: warning\n    reason: Use click.\n    match: method\n    pattern: '^dblclick$'\n";
    const issues = lintCustom(rule, inTest("  const m = 'dblclick';\n  await page.getByTestId('a')[m]();\n  await page.getByTestId('a').click();"));
    expect(issues).toMatchObject([{ rule: 'no-dblclick', severity: 'warning', line: 5 }]);
  });

  it('matches string literals', () => {
    const rule = "  - id: no-staging\n    severity: error\n    reason: No staging hosts.\n    match: string\n    pattern: 'staging\\.'\n    flags: i\n";
    const issues = lintCustom(rule, inTest("  await expect(page.getByTestId('host')).toHaveText('STAGING.example.com');"));
    expect(issues).toMatchObject([{ rule: 'no-staging', line: 4 }]);
  });

  it('is off with severity off', () => {
    expect(lintCustom(noXpath.replace('severity: error', 'severity: off'), inTest("  await page.locator('//div').click();"))).toEqual([]);
  });
});
