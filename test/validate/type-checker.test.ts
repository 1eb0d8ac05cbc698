import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { collectSpecFiles } from '../../src/validate/files.ts';
import { Validator, type FileValidation } from '../../src/validate/validator.ts';
import { NativeTypeChecker, typeCheckOptions } from '../../src/validate/type-checker.ts';

const root = path.resolve(import.meta.dirname, '../..');
const critic = loadCriticConfig();

/** Every finding of a batch, one line each, in a stable order. */
function findings(results: FileValidation[]): string[] {
  return results.flatMap((r) => r.issues.map((i) => `${path.relative(root, r.file)}:${i.line}:${i.column} ${i.rule} ${i.message}`)).sort();
}

describe('the type checkers', () => {
  const corpus = collectSpecFiles([path.join(root, 'test/fixtures'), path.join(root, 'bench/fixtures')], root).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

  it('the native one is installed here (the optional dependency), so both paths below are really compared', () => {
    expect(NativeTypeChecker.create(typeCheckOptions(false, undefined))).toBeInstanceOf(NativeTypeChecker);
  });

  it('report the same findings, native or JavaScript, one batch or concurrently, on the whole test corpus', async () => {
    expect(corpus.length).toBeGreaterThan(50);
    const javascript = findings(new Validator(critic, { typeChecker: 'javascript' }).validateMany(corpus));
    const native = findings(new Validator(critic, { typeChecker: 'native' }).validateMany(corpus));
    const concurrent = findings(await new Validator(critic, { typeChecker: 'native' }).validateManyConcurrently(corpus));
    // The corpus has type errors of its own (hostile specs calling what does not exist): the comparison is not of empty lists.
    expect(javascript.filter((line) => line.includes(' type-check ')).length).toBeGreaterThan(5);
    expect(native).toEqual(javascript);
    expect(concurrent).toEqual(javascript);
  }, 120_000);

  describe('on a project with path aliases, a page object and specs that are not on disk yet', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-type-checkers-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    mkdirSync(path.join(project, 'src/pages'), { recursive: true });
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@pages/*': ['src/pages/*'] } } }));
    writeFileSync(
      path.join(project, 'src/pages/login.ts'),
      "import { expect, type Page } from '@playwright/test';\nexport class LoginPage {\n  constructor(private readonly page: Page) {}\n  async expectSignedIn(): Promise<void> {\n    await expect(this.page.getByRole('heading')).toBeVisible();\n  }\n}\n",
    );
    const spec = (body: string) =>
      `import { test } from '@playwright/test';\nimport { LoginPage } from '@pages/login';\nimport { LoginPage as ByBaseUrl } from 'src/pages/login';\n\ntest('signs in', async ({ page }) => {\n  await page.goto('/');\n  ${body}\n});\n`;
    const specs = [
      { file: path.join(project, 'tests/good.spec.ts'), text: spec('await new LoginPage(page).expectSignedIn();\n  await new ByBaseUrl(page).expectSignedIn();') },
      { file: path.join(project, 'tests/bad.spec.ts'), text: spec('await new LoginPage(page).expectSignedOut();') },
    ];

    for (const typeChecker of ['native', 'javascript'] as const) {
      it(`${typeChecker}: resolves the aliases, follows the page object for expect-expect, and finds the invented method`, () => {
        const [good, bad] = new Validator(critic, { typeChecker, tsconfig: path.join(project, 'tsconfig.json') }).validateMany(specs);
        // The rules this is about; the generated-spec policy (imports, screenshots) is not.
        expect(good!.issues.filter((i) => i.rule === 'type-check' || i.rule === 'expect-expect')).toEqual([]);
        expect(bad!.issues.map((i) => i.rule)).toContain('type-check');
        expect(bad!.issues.find((i) => i.rule === 'type-check')!.message).toMatch(/Property 'expectSignedOut' does not exist on type 'LoginPage'/);
      });
    }

    it('checks a changed text at the same path afresh (the native process keeps its files between batches)', () => {
      const validator = new Validator(critic, { typeChecker: 'native', tsconfig: path.join(project, 'tsconfig.json') });
      expect(validator.validateText(specs[1]!.file, specs[1]!.text).passed).toBe(false);
      expect(validator.validateText(specs[1]!.file, specs[0]!.text).issues.filter((i) => i.rule === 'type-check')).toEqual([]);
    });
  });
});
