/**
 * `scribe validate` on suites as people write them: nothing hangs, nothing one file does loses another
 * file's report, JavaScript specs are checked, and no file is judged by another in the same batch.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCriticConfig } from '../../src/config/critic.ts';
import type { SpecModel } from '../../src/analysis/model.ts';
import { INTERNAL_ERROR_RULE, Validator } from '../../src/validate/validator.ts';

const critic = loadCriticConfig();
const rulesOf = (issues: Array<{ rule: string }>) => [...new Set(issues.map((i) => i.rule))].sort();

/** A helper with an optional parameter typed into a field, called at many places without it. */
function helperCalledWithout(calls: number): string {
  const sites = Array.from({ length: calls }, (_, i) => `  await cancel(page, 'Order ${i}');`).join('\n');
  return `import { test, expect, type Page } from '@playwright/test';

async function cancel(page: Page, title: string, reason?: string) {
  await page.getByTestId(title).click();
  await page.getByTestId('reason').fill(reason);
}

async function cancelAll(page: Page, titles: string[], reason?: string) {
  for (const title of titles) await cancel(page, title, reason);
}

test('cancels orders', async ({ page }) => {
  await page.goto('/orders');
${sites}
  await cancelAll(page, ['a', 'b']);
  await cancelAll(page, ['c'], 'changed my mind');
  await expect(page.getByTestId('cancelled')).toHaveCount(${calls});
});
`;
}

describe('never hang', () => {
  it('follows a helper with an optional parameter through 40 call sites without the argument, and still judges the ones with it', () => {
    const validator = new Validator(critic, { typeCheck: false });
    const result = validator.validateText('/virtual/cancel.spec.ts', helperCalledWithout(40));
    expect(result.issues.filter((i) => i.rule === 'no-hardcoded-credentials')).toEqual([]);
    const secret = helperCalledWithout(40).replace("'changed my mind'", "'changed my mind'").replace("getByTestId('reason')", "getByTestId('password')");
    const judged = validator.validateText('/virtual/secret.spec.ts', secret);
    const literalLine = secret.split('\n').findIndex((line) => line.includes('changed my mind')) + 1;
    expect(judged.issues.filter((i) => i.rule === 'no-hardcoded-credentials').map((i) => i.line)).toEqual([literalLine]);
  });
});

describe('never lose a report', () => {
  const deep = `const x = ${'('.repeat(5000)}1${')'.repeat(5000)};\n`;
  const plain = "import { test, expect } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForTimeout(500);\n  await expect(page.getByTestId('x')).toBeVisible();\n});\n";

  it.each([false, true])('reports a file too deep to analyse as a finding on it and every other file as usual (type check %s)', (typeCheck) => {
    const validator = new Validator(critic, { typeCheck });
    const [tooDeep, other] = validator.validateMany([
      { file: '/virtual/deep.spec.ts', text: deep },
      { file: '/virtual/other.spec.ts', text: plain },
    ]);
    expect(tooDeep!.issues.map((i) => i.rule)).toEqual(['syntax']);
    expect(tooDeep!.issues[0]!.message).toMatch(/nests expressions too deeply to analyse/);
    expect(tooDeep!.passed).toBe(false);
    expect(rulesOf(other!.issues)).toContain('no-wait-for-timeout');
  });

  it('a rule that fails on one file is an internal-error finding on that file; the others keep their reports', () => {
    const failing = { rule: { id: 'fails-on-b', description: 'fails on b', fixable: false, options: z.object({}), check: (model: SpecModel) => { if (model.sourceFile.fileName.endsWith('b.spec.ts')) throw new TypeError('boom'); return []; } }, severity: 'error' as const, reason: 'test', options: {} };
    const validator = new Validator({ ...critic, rules: [...critic.rules, failing as never] }, { typeCheck: false });
    const [a, b] = validator.validateMany([{ file: '/virtual/a.spec.ts', text: plain }, { file: '/virtual/b.spec.ts', text: plain }]);
    expect(rulesOf(a!.issues)).toContain('no-wait-for-timeout');
    expect(b!.issues).toEqual([expect.objectContaining({ rule: INTERNAL_ERROR_RULE, message: expect.stringContaining('Scribe failed while analysing the file (boom)') })]);
  });
});

describe('JavaScript specs', () => {
  const commonJs = "const { test, expect } = require('@playwright/test');\n\ntest('js', async ({ page }) => {\n  await page.goto('/');\n  await page.getByTestId('save').clikc();\n  await expect(page.getByTestId('x')).toBeVisible();\n});\n";

  // As tsc and editors do: JavaScript is type-checked only where it opts in (// @ts-check, or checkJs).
  it.each(['a.spec.js', 'a.spec.cjs', 'a.spec.mjs', 'a.test.js'])('type-checks %s as JavaScript where it opts in: an invented API is found, nothing crashes', (name) => {
    const result = new Validator(critic, { typeCheck: true }).validateText(`/virtual/${name}`, `// @ts-check\n${commonJs}`);
    const typeErrors = result.issues.filter((i) => i.rule === 'type-check');
    expect(result.issues.map((i) => i.rule)).not.toContain(INTERNAL_ERROR_RULE);
    expect(typeErrors.map((i) => i.line)).toEqual([6]);
    expect(typeErrors[0]!.message).toMatch(/clikc/);
  });

  it('leaves a JavaScript spec that does not opt in to the other rules, as tsc does', () => {
    const result = new Validator(critic, { typeCheck: true }).validateText('/virtual/a.spec.js', commonJs);
    expect(result.issues.filter((i) => i.rule === 'type-check')).toEqual([]);
    expect(result.issues.map((i) => i.rule)).not.toContain(INTERNAL_ERROR_RULE);
  });
});

describe('no file judged by another', () => {
  const script = "const password = 'from-a-script';\n";
  const usesPassword = "import { test } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n  await page.getByTestId('password').fill(password);\n});\n";

  it('a script’s top-level names are not globals of another spec in the same batch', () => {
    const alone = new Validator(critic, { typeCheck: true }).validateText('/virtual/b.spec.ts', usesPassword);
    const together = new Validator(critic, { typeCheck: true }).validateMany([
      { file: '/virtual/a.spec.ts', text: script },
      { file: '/virtual/b.spec.ts', text: usesPassword },
    ])[1]!;
    expect(alone.issues.filter((i) => i.rule === 'type-check').map((i) => i.message)).toEqual([expect.stringMatching(/Cannot find name 'password'/)]);
    expect(together.issues.map((i) => `${i.rule} ${i.line} ${i.message}`)).toEqual(alone.issues.map((i) => `${i.rule} ${i.line} ${i.message}`));
  });

  it('an unknown name reads the same whatever was checked before (the compiler suggests spellings for its first ten only)', () => {
    const misspelled = (n: number) => `import { test } from '@playwright/test';\n\ntest('t${n}', async ({ page }) => {\n  const checkout = page.getByTestId('checkout');\n  await new CheckoutPage(checkout).open();\n});\n`;
    const specs = Array.from({ length: 12 }, (_, n) => ({ file: `/virtual/m${n}.spec.ts`, text: misspelled(n) }));
    const alone = new Validator(critic, { typeCheck: true }).validateText(specs[11]!.file, specs[11]!.text);
    const batched = new Validator(critic, { typeCheck: true }).validateMany(specs);
    const messages = (v: { issues: Array<{ rule: string; message: string }> }) => v.issues.filter((i) => i.rule === 'type-check').map((i) => i.message);
    expect(messages(alone)).toEqual([expect.stringMatching(/^Cannot find name 'CheckoutPage'\. \(TS2304\)/)]);
    for (const result of batched) expect(messages(result)).toEqual(messages(alone));
  });

  it('a validator kept across jobs keeps nothing of an earlier job’s files', () => {
    const validator = new Validator(critic, { typeCheck: true });
    validator.validateText('/virtual/job-1/a.spec.ts', 'declare global { var password: string }\nexport {};\n');
    const later = validator.validateText('/virtual/job-2/b.spec.ts', usesPassword);
    expect(later.issues.filter((i) => i.rule === 'type-check').map((i) => i.message)).toEqual([expect.stringMatching(/Cannot find name 'password'/)]);
  });
});
