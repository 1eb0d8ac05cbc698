import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { collectSpecFiles } from '../../src/validate/files.ts';
import { Validator, type FileValidation } from '../../src/validate/validator.ts';
import { groupByProjectTypes } from '../../src/validate/project-types.ts';
import { NativeTypeChecker } from '../../src/validate/type-checker-native.ts';
import { typeCheckOptions } from '../../src/validate/type-checker.ts';

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

  it('report the same findings, native or JavaScript (in the validator or on its own thread), one batch or concurrently, on the whole test corpus', async () => {
    expect(corpus.length).toBeGreaterThan(50);
    const javascript = findings(new Validator(critic, { typeChecker: 'javascript' }).validateMany(corpus));
    const native = findings(new Validator(critic, { typeChecker: 'native' }).validateMany(corpus));
    const concurrent = findings(await new Validator(critic, { typeChecker: 'native' }).validateManyConcurrently(corpus));
    // Warmed, a validator without the native compiler checks on the JavaScript compiler's own thread.
    const warmed = new Validator(critic, { typeChecker: 'javascript' });
    warmed.warmTypeCheck();
    const threaded = findings(warmed.validateMany(corpus));
    await warmed.stopTypeCheck();
    // The corpus has type errors of its own (hostile specs calling what does not exist): the comparison is not of empty lists.
    expect(javascript.filter((line) => line.includes(' type-check ')).length).toBeGreaterThan(5);
    expect(native).toEqual(javascript);
    expect(concurrent).toEqual(javascript);
    expect(threaded).toEqual(javascript);
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

  describe('as the editor types each file: its nearest config, JavaScript only where it opts in', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-type-configs-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    };
    // A monorepo: the suite's own tsconfig.json sits in e2e/, with an alias and the app's globals in a .d.ts.
    write('e2e/tsconfig.json', JSON.stringify({ compilerOptions: { paths: { '~/*': ['./support/*'] } }, include: ['**/*.ts'] }));
    write('e2e/support/app.d.ts', 'declare global {\n  interface Window { app: { version: string } }\n}\nexport {};\n');
    write('e2e/support/login.ts', "import type { Page } from '@playwright/test';\nexport async function signIn(page: Page, user = 'demo'): Promise<void> {\n  await page.goto(`/login?u=${user}`);\n}\n");
    // JavaScript opting in through jsconfig.json in one folder, not at all in another.
    write('js-checked/jsconfig.json', JSON.stringify({ compilerOptions: { checkJs: true }, include: ['**/*.js'] }));
    const jsSpec = "const { test, expect } = require('@playwright/test');\ntest('t', async ({ page }) => {\n  await page.clickIt('#x');\n  await expect(page).toHaveTitle('x');\n});\n";
    const specs = [
      { file: path.join(project, 'e2e/tests/app.spec.ts'), text: "import { test, expect } from '@playwright/test';\nimport { signIn } from '~/login';\ntest('t', async ({ page }) => {\n  await signIn(page);\n  const version = await page.evaluate(() => window.app.version);\n  expect(version).toBe('1');\n});\n" },
      { file: path.join(project, 'e2e/tests/bad.spec.ts'), text: "import { test } from '@playwright/test';\nimport { signIn } from '~/login';\ntest('t', async ({ page }) => {\n  await signIn(page, 'a', 'b');\n});\n" },
      { file: path.join(project, 'js-plain/a.spec.js'), text: jsSpec },
      { file: path.join(project, 'js-plain/b.spec.js'), text: `// @ts-check\n${jsSpec}` },
      { file: path.join(project, 'js-checked/c.spec.js'), text: jsSpec },
    ];
    for (const spec of specs) write(path.relative(project, spec.file), spec.text);
    const typeErrors = (results: FileValidation[]) => results.flatMap((r) => r.issues.filter((i) => i.rule === 'type-check').map((i) => `${path.relative(project, r.file)}:${i.line}`)).sort();

    it('groups the specs by the type information their configs give: one program unless checkJs differs', () => {
      const groups = groupByProjectTypes(specs).map((g) => [g.project.configFile && path.relative(project, g.project.configFile), g.specs.map((s) => path.relative(project, s.file))]);
      expect(groups).toEqual([
        ['e2e/tsconfig.json', ['e2e/tests/app.spec.ts', 'e2e/tests/bad.spec.ts', 'js-plain/a.spec.js', 'js-plain/b.spec.js']],
        ['js-checked/jsconfig.json', ['js-checked/c.spec.js']],
      ]);
    });

    for (const typeChecker of ['native', 'javascript'] as const) {
      it(`${typeChecker}: aliases and globals of the nested config, arity errors, JavaScript checked only where it opts in`, () => {
        const results = groupByProjectTypes(specs).flatMap((g) => new Validator(critic, { typeChecker, projectTypes: g.project }).validateMany(g.specs));
        expect(typeErrors(results)).toEqual(['e2e/tests/bad.spec.ts:4', 'js-checked/c.spec.js:3', 'js-plain/b.spec.js:4']);
      });
    }
  });

  describe('a monorepo of many alike configs (one per example app)', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-type-monorepo-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    };
    const viteEnv = 'interface ImportMetaEnv {\n  readonly VITE_PORT: string\n}\ninterface ImportMeta {\n  readonly env: ImportMetaEnv\n}\n';
    const specs = ['a', 'b', 'c'].map((app) => {
      write(`e2e/${app}/tsconfig.json`, JSON.stringify({ compilerOptions: { paths: { '~/*': ['./src/*'] } }, include: ['**/*.ts'] }));
      write(`e2e/${app}/src/vite-env.d.ts`, viteEnv);
      write(`e2e/${app}/src/port.ts`, app === 'c' ? 'export const port = 3000;\n' : `export const port = '${app}';\n`);
      return { file: path.join(project, `e2e/${app}/tests/app.spec.ts`), text: "import { test, expect } from '@playwright/test';\ntest('t', async ({ page }) => {\n  await page.goto(`/${import.meta.env.VITE_PORT}`);\n  await expect(page).toHaveTitle('x');\n});\n" };
    });
    // Specs of a and c import their own ~/port (a string in a, a number in c): the alias points elsewhere in each.
    const portSpec = "import { test, expect } from '@playwright/test';\nimport { port } from '~/port';\ntest('t', async ({ page }) => {\n  await page.goto(`/${port}`);\n  await expect(page).toHaveTitle(port.toUpperCase());\n});\n";
    specs.push({ file: path.join(project, 'e2e/a/tests/port.spec.ts'), text: portSpec }, { file: path.join(project, 'e2e/c/tests/port.spec.ts'), text: portSpec });
    for (const spec of specs) write(path.relative(project, spec.file), spec.text);

    it('is one program, its copies of one declaration file taken once, split only where an imported alias points elsewhere', () => {
      const groups = groupByProjectTypes(specs);
      expect(groups.map((g) => g.specs.map((s) => path.relative(project, s.file)))).toEqual([['e2e/a/tests/app.spec.ts', 'e2e/a/tests/port.spec.ts', 'e2e/b/tests/app.spec.ts'], ['e2e/c/tests/app.spec.ts', 'e2e/c/tests/port.spec.ts']]);
      expect(groups.map((g) => g.project.declarationFiles.length)).toEqual([1, 1]);
    });

    for (const typeChecker of ['native', 'javascript'] as const) {
      it(`${typeChecker}: types each spec as its own config does: the env global everywhere, the alias to its own app`, () => {
        const results = groupByProjectTypes(specs).flatMap((g) => new Validator(critic, { typeChecker, projectTypes: g.project }).validateMany(g.specs));
        const typeErrors = results.flatMap((r) => r.issues.filter((i) => i.rule === 'type-check').map((i) => `${path.relative(project, r.file)}:${i.line} ${i.message}`));
        expect(typeErrors).toEqual([expect.stringMatching(/^e2e\/c\/tests\/port\.spec\.ts:5 .*toUpperCase' does not exist on type '3000'/)]);
      });
    }
  });
});
