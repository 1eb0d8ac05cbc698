/**
 * Suppression comments in people's specs: scribe-disable-next-line / -line / disable…enable, eslint's
 * playwright/ comments, unused directives reported, and none of it for model-written code.
 */
import { describe, expect, it } from 'vitest';
import { loadCriticConfig, RECOMMENDED_PRESET, withPreset } from '../../src/config/critic.ts';
import { UNUSED_DIRECTIVE_RULE, Validator } from '../../src/validate/validator.ts';

const critic = loadCriticConfig();
const human = new Validator(critic, { typeCheck: false });
// What `scribe validate` applies to people's specs: conditional skips allowed, as Playwright's docs write them.
const recommended = new Validator(withPreset(critic, RECOMMENDED_PRESET)!, { typeCheck: false });
const model = human.forUntrustedCode('/virtual');

const spec = (body: string) => `import { test, expect } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n${body}\n  await expect(page.getByTestId('done')).toBeVisible();\n  await page.screenshot({ path: 'screenshots/t.png' });\n});\n`;
const found = (text: string, validator = human) => validator.validateText('/virtual/a.spec.ts', text).issues.map((i) => `${i.line} ${i.rule}`);

describe('suppression comments', () => {
  it('scribe-disable-next-line covers the named rule on the next line only, with a reason after --', () => {
    const text = spec([
      '  // scribe-disable-next-line no-wait-for-timeout -- the payment sandbox settles in a second',
      '  await page.waitForTimeout(1000);',
      '  await page.waitForTimeout(500);',
    ].join('\n'));
    expect(found(text)).toEqual(['6 no-wait-for-timeout']);
  });

  it('names only what it names: another rule on the same line is still reported', () => {
    const text = spec(['  // scribe-disable-next-line no-force-option', "  await page.locator('.x').nth(1).click({ force: true });"].join('\n'));
    expect(found(text)).toContain('5 no-nth-methods');
    expect(found(text)).not.toContain('5 no-force-option');
  });

  it('scribe-disable-line covers its own line; a directive without rule ids covers every rule', () => {
    const text = spec(["  await page.locator('.x').nth(1).click({ force: true }); // scribe-disable-line", '  await page.waitForTimeout(1); // scribe-disable-line no-wait-for-timeout'].join('\n'));
    expect(found(text).filter((f) => !f.endsWith('require-testid-selectors') && !f.endsWith('no-generated-css-class'))).toEqual([]);
  });

  it('scribe-disable … scribe-enable covers the block between', () => {
    const text = spec(['  /* scribe-disable no-wait-for-timeout */', '  await page.waitForTimeout(1);', '  await page.waitForTimeout(2);', '  /* scribe-enable no-wait-for-timeout */', '  await page.waitForTimeout(3);'].join('\n'));
    expect(found(text)).toEqual(['8 no-wait-for-timeout']);
  });

  it("honours eslint-disable comments naming playwright/<rule>, and leaves other eslint rules' comments alone", () => {
    const text = spec([
      '  // eslint-disable-next-line playwright/no-wait-for-timeout',
      '  await page.waitForTimeout(1000);',
      '  // eslint-disable-next-line @typescript-eslint/no-explicit-any',
      '  const anything: any = 1;',
      '  await page.waitForTimeout(anything);',
    ].join('\n'));
    expect(found(text)).toEqual(['8 no-wait-for-timeout']);
  });

  it('reports a Scribe directive that suppressed nothing, as a warning at the comment; an eslint one is left to eslint', () => {
    const text = spec(['  // scribe-disable-next-line no-wait-for-timeout -- left over', "  await page.getByTestId('go').click();", '  // eslint-disable-next-line playwright/no-force-option', "  await page.getByTestId('go').click();"].join('\n'));
    const issues = human.validateText('/virtual/a.spec.ts', text).issues.filter((i) => i.rule === UNUSED_DIRECTIVE_RULE);
    expect(issues.map((i) => [i.line, i.severity, i.message])).toEqual([
      [4, 'warning', 'unused scribe-disable-next-line directive: no no-wait-for-timeout problem reported on the next line'],
    ]);
  });

  it("leaves alone an eslint comment that eslint's rule needs where Scribe's allows the code (a conditional skip)", () => {
    const text = spec(['  // eslint-disable-next-line playwright/no-skipped-test', "  test.skip(process.env.CI === 'true', 'the sandbox has no payments');"].join('\n'));
    const undirected = recommended.validateText('/virtual/a.spec.ts', text.replace(/^.*eslint-disable.*\n/m, '')).issues.map((i) => i.rule);
    expect(undirected).not.toContain('no-skipped-test');
    expect(recommended.validateText('/virtual/a.spec.ts', text).issues.map((i) => i.rule)).not.toContain(UNUSED_DIRECTIVE_RULE);
    // The same comment in Scribe's own syntax suppresses nothing there, and says so.
    const scribe = recommended.validateText('/virtual/a.spec.ts', text.replace('eslint-disable-next-line playwright/', 'scribe-disable-next-line ')).issues.map((i) => i.rule);
    expect(scribe).toContain(UNUSED_DIRECTIVE_RULE);
  });

  it('is not fooled by directive text inside a string or template', () => {
    const text = spec(["  const note = '// scribe-disable-next-line no-wait-for-timeout';", '  await page.waitForTimeout(note.length);'].join('\n'));
    expect(found(text)).toEqual(['5 no-wait-for-timeout']);
  });

  it('model-written code may not suppress anything: the directive is ignored and the gate reports it', () => {
    const text = spec(['  // scribe-disable-next-line no-wait-for-timeout', '  await page.waitForTimeout(1000);'].join('\n'));
    const issues = model.validateText('/virtual/a.spec.ts', text).issues;
    expect(issues.map((i) => `${i.line} ${i.rule}`)).toEqual(expect.arrayContaining(['4 allowed-code', '5 no-wait-for-timeout']));
    expect(issues.find((i) => i.rule === 'allowed-code')!.message).toContain('"scribe-disable-next-line" comment is not allowed in generated code');
  });
});
