import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confirmedInOwnProject } from '../../src/validate/own-project.ts';
import { groupByProjectTypes } from '../../src/validate/project-types.ts';
import { withMissingPackagesFolded } from '../../src/validate/report.ts';
import { Validator } from '../../src/validate/validator.ts';
import { configWithOnly, inTest, lint } from './harness.ts';

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

  it('says what fits the error: Playwright API, an unknown global, arity; a missing package once, as a warning', () => {
    const code = `import { test, expect } from '@playwright/test';
import { seed } from '@acme/e2e-utils/seed';
import { reset } from '@acme/e2e-utils';
import { helper } from './no-such-helper';

test('x', async ({ page }) => {
  await page.clickIt('#x');
  await page.evaluate(() => window.app.version);
  const add = (a: number, b: number) => a + b;
  expect(add(1)).toBe(1);
  await seed(); await reset(); await helper();
});
`;
    const issues = lint('type-check', code);
    const at = (line: number) => issues.filter((i) => i.line === line);
    expect(at(2)).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('"@acme/e2e-utils" is not installed where the specs are checked') })]);
    expect(at(3)).toEqual([]);
    expect(at(4)).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('no such file: check the import path') })]);
    expect(at(7)[0]!.message).toContain('use only the real @playwright/test API');
    expect(at(8)[0]!.message).toContain("Property 'app' does not exist on type 'Window");
    expect(at(8)[0]!.message).not.toContain('@playwright/test API');
    expect(at(10)[0]!.message).toContain('passes a different number of arguments than the function takes');
  });
  describe('errors that flow from an import that does not resolve', () => {
    // A fixtures module of the project's monorepo that is not installed where the specs are checked: its `test`
    // is `any`, so are its fixtures, and what flows from them is `any` or `unknown`.
    const header = `import { test, expect } from '@acme/e2e-fixtures';
import { mockRecords } from '../not-in-this-checkout/records';
import { test as pwTest } from '@playwright/test';
`;

    it('reports the module once and none of the type errors whose values trace to it', () => {
      const code = `${header}
test('options', async ({ page, mockPage }) => {
  const labels = await page.locator('.list').evaluate((element) => {
    const options = element.querySelectorAll('.option');
    return Array.from(options).map((option) => option.textContent);
  });
  const rows = await page.$$('tr');
  const cells = Array.from(rows).map((row) => row.textContent);
  for (const item of await mockPage().items()) item.name.trim();
  const records = mockRecords(3);
  records.at(0).id.toFixed();
  expect(labels).toEqual(cells);
});
`;
      const issues = lint('type-check', code);
      expect(issues.map((i) => [i.line, i.severity])).toEqual([[1, 'warning'], [2, 'error']]);
    });

    it('still reports, in such a file, errors that do not trace to it: a missing name, a typed value misused, an invented Playwright API', () => {
      const code = `${header}
test('options', async ({ page }) => {
  await page.goto('/');
  await frontendPage.goto('/');
  const count: number = 'three';
  const add = (a: number, b: number) => a + b;
  add(1);
});
pwTest('typed', async ({ page }) => {
  await page.clickIt('#x');
  const rows = Array.from(await page.$$('tr')).map((row) => row.textContent);
  rows.push(1);
});
`;
      const lines = lint('type-check', code).map((i) => i.line);
      expect(lines).toEqual([1, 2, 7, 8, 10, 13, 15]);
    });
  });

  describe("globals the app declares in its own sources, which its tsconfig includes (as tsc and the editor see them)", () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-app-globals-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), text);
    };
    // One app of a monorepo: its entry module declares window globals beside its code; a script file declares
    // a top-level function; a file the tsconfig excludes declares one more; a comment and a string only
    // mention `declare global`.
    write('app/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, jsx: 'react-jsx' }, exclude: ['src/legacy'] }));
    write('app/src/main.tsx', "import { createRoot } from 'react-dom/client';\nimport { App } from './App';\n\ndeclare global {\n  interface Window {\n    invokeOrders: Array<string>;\n    app: App;\n  }\n}\nwindow.invokeOrders = [];\ncreateRoot(document.getElementById('root')!).render(<App />);\n");
    write('app/src/gate.ts', 'export {};\ndeclare global {\n  var redirectGate: { open(): void } | undefined;\n}\n');
    write('app/src/helpers.ts', 'function resetStore(name: string): void {\n  localStorage.removeItem(name);\n}\n');
    write('app/src/legacy/globals.ts', 'export {};\ndeclare global {\n  interface Window { legacyFlag: boolean }\n}\n');
    write('app/src/notes.ts', "// declare global { interface Window { fromComment: string } }\nexport const note = 'declare global { interface Window { fromString: string } }';\n");
    const spec = (body: string) => `import { test, expect } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n  await page.goto('/');\n  const value = await page.evaluate(() => ${body});\n  expect(value).toBeTruthy();\n});\n`;
    const specs = [
      { file: path.join(project, 'app/tests/orders.spec.ts'), text: spec('window.invokeOrders.length') },
      { file: path.join(project, 'app/tests/app.spec.ts'), text: spec('window.app') },
      { file: path.join(project, 'app/tests/gate.spec.ts'), text: spec('(globalThis.redirectGate?.open(), resetStore("cart"), true)') },
      { file: path.join(project, 'app/tests/undeclared.spec.ts'), text: spec('window.invokeOrder.length') },
      { file: path.join(project, 'app/tests/excluded.spec.ts'), text: spec('window.legacyFlag') },
      { file: path.join(project, 'app/tests/mentioned.spec.ts'), text: spec('window.fromComment + window.fromString') },
      { file: path.join(project, 'app/tests/misused.spec.ts'), text: spec('window.invokeOrders.toUpperCase()') },
    ];
    for (const s of specs) write(path.relative(project, s.file), s.text);
    // As `scribe validate` checks them: a program per group of alike configs, a type error confirmed in the spec's own config.
    const checked = (batch: typeof specs, typeChecker: 'native' | 'javascript') =>
      groupByProjectTypes(batch).flatMap((g) => {
        const validatorFor = (projectTypes: typeof g.project) => new Validator(configWithOnly('type-check'), { typeChecker, projectTypes });
        return confirmedInOwnProject(validatorFor(g.project).validateMany(g.specs), g.members, validatorFor);
      });

    for (const typeChecker of ['native', 'javascript'] as const) {
      it(`${typeChecker}: a global declared in an included source is known, typed as declared; one declared nowhere, in an excluded file or only in a comment or string is still reported`, () => {
        const results = checked(specs, typeChecker);
        const errors = results.flatMap((r) => r.issues.map((i) => `${path.basename(r.file)}:${i.line} ${i.message.split(' (TS')[0]}`));
        expect(errors.sort()).toEqual([
          "excluded.spec.ts:5 Property 'legacyFlag' does not exist on type 'Window & typeof globalThis'.",
          "mentioned.spec.ts:5 Property 'fromComment' does not exist on type 'Window & typeof globalThis'.",
          expect.stringMatching(/^mentioned\.spec\.ts:5 Property 'fromString' does not exist on type 'Window & typeof globalThis'\./),
          "misused.spec.ts:5 Property 'toUpperCase' does not exist on type 'string[]'.",
          expect.stringMatching(/^undeclared\.spec\.ts:5 Property 'invokeOrder' does not exist on type 'Window & typeof globalThis'\. Did you mean 'invokeOrders'\?/),
        ]);
      });
    }

    it("an error a neighbour config's declarations cause is confirmed in the spec's own config, where it goes; a real one stays", () => {
      // Another app of the monorepo, alike enough to share the program, with a Cloudflare worker's global types,
      // which redefine the DOM's Element.
      write('worker/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true } }));
      write('worker/worker-configuration.d.ts', 'interface Element {\n  append(content: string | ReadableStream | Response): Element;\n}\n');
      const domSpec = { file: path.join(project, 'app/tests/dom.spec.ts'), text: spec("(document.body.append(document.createElement('div')), true)") };
      const workerSpec = { file: path.join(project, 'worker/tests/worker.spec.ts'), text: spec("document.body.append(document.createElement('div'))") };
      const mixed = [domSpec, specs[3]!, workerSpec];
      for (const s of mixed) write(path.relative(project, s.file), s.text);
      const [group, ...others] = groupByProjectTypes(mixed);
      expect(others).toEqual([]);
      expect(group!.members.length).toBe(2);
      const lines = (results: Array<{ file: string; issues: Array<{ line: number }> }>) => results.map((r) => `${path.basename(r.file)}:${r.issues.map((i) => i.line).join(',')}`);
      // The merged program alone reports the DOM spec; its own config does not.
      expect(lines(new Validator(configWithOnly('type-check'), { typeChecker: 'native', projectTypes: group!.project }).validateMany(group!.specs))).toEqual(['dom.spec.ts:5', 'undeclared.spec.ts:5', 'worker.spec.ts:5']);
      expect(lines(checked(mixed, 'native'))).toEqual(['dom.spec.ts:', 'undeclared.spec.ts:5', 'worker.spec.ts:5']);
    });
  });

  it('a relative import into a folder the checkout lacks (another package of a monorepo, a build output) is one warning for the run, its knock-ons dropped; a missing file beside real ones stays an error', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-partial-checkout-'));
    try {
      const specFolder = path.join(project, 'website', 'e2e');
      mkdirSync(specFolder, { recursive: true });
      writeFileSync(path.join(specFolder, 'page.ts'), 'export const base = 1;\n');
      const spec = path.join(specFolder, 'versions.spec.ts');
      const code = `import { test, expect } from '@playwright/test';
import versions from '../../builds/src/wp-versions.json';
import { phpVersions } from '../../../php-wasm/universal/src/versions';
import { helper } from './pages';

test('lists the versions', async ({ page }) => {
  const latest: number = Array.from(versions)[0];
  await page.goto('/?php=' + phpVersions.latest);
  await expect(page.getByTestId('latest')).toHaveText(String(latest) + helper());
});
`;
      const validator = new Validator(configWithOnly('type-check'), { typeCheck: true });
      const { issues } = validator.validateText(spec, code);
      expect(issues.map((i) => [i.line, i.severity])).toEqual([[2, 'warning'], [3, 'warning'], [4, 'error']]);
      expect(issues[0]!.message).toContain(`"${path.join(project, 'builds')}" is not in the checkout where the specs are checked`);
      expect(issues[2]!.message).toContain('no such file: check the import path');

      const { results, warnings } = withMissingPackagesFolded([{ file: spec, issues }], project);
      expect(results[0]!.issues.map((i) => i.line)).toEqual([4]);
      expect(warnings).toEqual([
        'type-check: the folder "builds" is not in the checkout where the specs are checked (a spec file imports from it, first website/e2e/versions.spec.ts:2), so what they import from it is not type-checked: check it out (a partial or sparse checkout lacks it), or fix the import path',
        `type-check: the folder "${path.relative(project, path.join(project, '..', 'php-wasm'))}" is not in the checkout where the specs are checked (a spec file imports from it, first website/e2e/versions.spec.ts:3), so what they import from it is not type-checked: check it out (a partial or sparse checkout lacks it), or fix the import path`,
      ]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
