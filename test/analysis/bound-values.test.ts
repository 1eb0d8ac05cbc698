import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { SpecModel } from '../../src/analysis/model.ts';
import { boundValues } from '../../src/analysis/bound-values.ts';

/** The values each use of `name` (not its declaration) may hold, as written. */
function valuesOf(code: string, name: string): string[][] {
  const model = SpecModel.fromText('bound.spec.ts', code);
  return model
    .nodes<ts.Identifier>(ts.SyntaxKind.Identifier)
    .filter((id) => {
      const declaration = model.declarationOf(id);
      return id.text === name && declaration !== undefined && declaration !== id.parent;
    })
    .map((id) => boundValues(model, id).map((value) => value.getText(model.sourceFile)));
}

describe('boundValues', () => {
  it("follows a helper's parameter to what the file's calls pass for it", () => {
    const code = `import { test, expect, type Page } from '@playwright/test';
async function expectTotal(page: Page, total: string) {
  await expect(page.getByTestId('cart-total')).toHaveText(total);
}
test('t', async ({ page }) => {
  await expectTotal(page, 'Total: $8');
  await expectTotal(page, TOTAL);
});
const TOTAL = 'Total: $0';`;
    expect(valuesOf(code, 'total')).toEqual([["'Total: $8'", 'TOTAL']]);
  });

  it("follows a page object's method parameter, and gives nothing for one nobody passes", () => {
    const code = `class Cart { constructor(readonly page) {} async expectTotal(total) { await expect(this.page.getByTestId('cart-total')).toHaveText(total); } }
test('t', async ({ page }) => { await new Cart(page).expectTotal('Total: $8'); });
async function unused(value) { return value; }`;
    expect(valuesOf(code, 'total')).toEqual([["'Total: $8'"]]);
    expect(valuesOf(code, 'value')).toEqual([[]]);
  });

  it("follows a name a for…of destructures from a table of rows to each row's property", () => {
    const code = `const ROWS = [{ todo: 'Buy milk', after: '1 item left' }, { todo: 'Pay rent', after: '0 items left' }];
for (const { todo, after: left } of ROWS) {
  test(todo, async ({ page }) => { await expect(page.getByTestId('todo-count')).toHaveText(left); });
}`;
    expect(valuesOf(code, 'left')).toEqual([["'1 item left'", "'0 items left'"]]);
    expect(valuesOf(code, 'todo')).toEqual([["'Buy milk'", "'Pay rent'"]]);
  });

  it('gives nothing for a loop over something other than an array of object literals', () => {
    expect(valuesOf('for (const { after } of rows()) { use(after); }', 'after')).toEqual([[]]);
  });
});

describe('a fixture of test.extend is an instance of the class it hands to use', () => {
  it("reaches the page object's methods through the fixture, by its declared type or by what the fixture hands to use", () => {
    const pageObject = `class SearchPage {
  constructor(readonly page) {}
  async searchFor(query) { await this.page.getByTestId('search-input').fill(query); }
}`;
    const typed = `import { test as base } from '@playwright/test';\n${pageObject}
const test = base.extend<{ searchPage: SearchPage }>({ searchPage: async ({ page }, use) => { await use(new SearchPage(page)); } });
test('s', async ({ searchPage }) => { await searchPage.searchFor('locators'); });`;
    const untyped = `import { test as base } from '@playwright/test';\n${pageObject}
const test = base.extend({ searchPage: async ({ page }, use) => { const made = new SearchPage(page); await use(made); } });
test('s', async ({ searchPage: search }) => { await search.searchFor('locators'); });`;
    for (const code of [typed, untyped]) {
      const model = SpecModel.fromText('fixture.spec.ts', code);
      const [test] = model.tests();
      expect(model.reachableCalls(test!.body!).map((call) => model.callee(call).name)).toContain('fill');
    }
  });
});
