import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../commands/harness.ts';

/** A user's project: a page object imported through a path alias, two specs using it, one spec on its own. */
function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'scribe-validate-cache-'));
  mkdirSync(path.join(root, 'tests/pages'), { recursive: true });
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@pages/*': ['./tests/pages/*'] } } }));
  writeFileSync(path.join(root, 'tests/pages/cart.ts'), CART_PAGE);
  const usesCart = (name: string) =>
    `import { test, expect } from '@playwright/test';\nimport { CartPage } from '@pages/cart';\n\ntest('${name}', async ({ page }) => {\n  const cart = new CartPage(page);\n  await cart.open();\n  await expect(cart.total).toHaveText('€0');\n});\n`;
  writeFileSync(path.join(root, 'tests/cart.spec.ts'), usesCart('an empty cart'));
  writeFileSync(path.join(root, 'tests/checkout.spec.ts'), usesCart('checkout starts empty'));
  writeFileSync(
    path.join(root, 'tests/home.spec.ts'),
    "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForTimeout(500);\n  await expect(page.getByRole('heading')).toBeVisible();\n});\n",
  );
  return root;
}

const CART_PAGE = "import type { Locator, Page } from '@playwright/test';\n\nexport class CartPage {\n  readonly total: Locator;\n  constructor(private readonly page: Page) {\n    this.total = page.getByTestId('cart-total');\n  }\n  async open(): Promise<void> {\n    await this.page.goto('/cart');\n  }\n}\n";

describe('scribe validate --cache', () => {
  let root: string;
  const env = { ...process.env, SCRIBE_HOME: undefined };
  const validate = (...args: string[]) => runCli(['validate', '--json', '--preset', 'recommended', ...args, 'tests'], { env, cwd: root });
  const cacheFile = () => path.join(root, '.scribe/validate-cache.json');
  const findings = (stdout: string) => (JSON.parse(stdout) as { files: Array<{ file: string; issues: Array<{ rule: string; message: string; severity: string }> }> }).files;

  beforeEach(() => {
    root = project();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('gives the same report as a run without it, cold and warm, and keeps it under .scribe/', async () => {
    const plain = await validate();
    const cold = await validate('--cache');
    const warm = await validate('--cache');
    expect(plain.code).toBe(1);
    expect(findings(plain.stdout).find((f) => f.file.endsWith('home.spec.ts'))!.issues.map((i) => i.rule)).toContain('no-wait-for-timeout');
    expect(cold).toEqual(plain);
    expect(warm).toEqual(plain);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(), 'utf8')).entries)).toHaveLength(3);
  });

  it('reuses what is unchanged and checks again a spec whose imported page object changed', async () => {
    await validate('--cache');
    // Mark every stored finding list, so a reused result can be told from a recomputed one.
    const stored = JSON.parse(readFileSync(cacheFile(), 'utf8'));
    for (const entry of Object.values(stored.entries) as Array<{ issues: unknown[] }>) entry.issues.push({ rule: 'from-cache', severity: 'warning', message: 'reused', line: 1, column: 1, fixable: false });
    writeFileSync(cacheFile(), JSON.stringify(stored));

    writeFileSync(path.join(root, 'tests/pages/cart.ts'), CART_PAGE.replace('readonly total', 'readonly sum').replace('this.total', 'this.sum'));
    const after = findings((await validate('--cache')).stdout);
    const rules = (name: string) => after.find((f) => f.file.endsWith(name))!.issues.map((i) => i.rule);
    expect(rules('home.spec.ts')).toContain('from-cache');
    for (const importer of ['cart.spec.ts', 'checkout.spec.ts']) {
      expect(rules(importer)).not.toContain('from-cache');
      expect(rules(importer)).toContain('type-check');
    }
  });

  it('checks a changed spec again, and everything again when a rule setting changes', async () => {
    await validate('--cache');
    writeFileSync(path.join(root, 'tests/home.spec.ts'), readFileSync(path.join(root, 'tests/home.spec.ts'), 'utf8').replace("goto('/')", "goto('/home')"));
    const changed = findings((await validate('--cache')).stdout).find((f) => f.file.endsWith('home.spec.ts'))!;
    expect(changed.issues.find((i) => i.rule === 'no-wait-for-timeout')!.severity).toBe('error');

    mkdirSync(path.join(root, 'agents'));
    writeFileSync(path.join(root, 'agents/critic.yaml'), 'rules:\n  no-wait-for-timeout:\n    severity: warning\n');
    const relaxed = await validate('--cache');
    expect(findings(relaxed.stdout).find((f) => f.file.endsWith('home.spec.ts'))!.issues.find((i) => i.rule === 'no-wait-for-timeout')!.severity).toBe('warning');
    expect(relaxed).toEqual(await validate());
  });

  // The files are named, not their folders: in a folder the repository's own playwright.config.ts would decide,
  // and its testDir (generated-tests/) holds none of them, so `validate test/fixtures` rightly finds no spec.
  it('gives the same findings with and without it on the whole test corpus', async () => {
    const repository = path.resolve(import.meta.dirname, '../..');
    const specs = ['test/fixtures', 'bench/fixtures'].flatMap((folder) =>
      readdirSync(path.join(repository, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(spec|test)\.[jt]s$/.test(file))
        .map((file) => path.join(folder, file)),
    );
    const home = mkdtempSync(path.join(os.tmpdir(), 'scribe-validate-cache-home-'));
    try {
      const corpus = (...args: string[]) => runCli(['validate', '--json', ...args, ...specs], { env: { ...process.env, SCRIBE_HOME: home }, cwd: repository });
      const plain = await corpus();
      // Warnings only (hostile fixtures import from folders that do not exist, each named once); no error.
      expect(plain.stderr.split('\n').filter(Boolean).every((line) => line.startsWith('scribe: warning: type-check: the folder '))).toBe(true);
      expect(findings(plain.stdout).length).toBe(specs.length);
      expect(specs.length).toBeGreaterThan(50);
      expect(await corpus('--cache')).toEqual(plain);
      expect(await corpus('--cache')).toEqual(plain);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it("checks again the specs whose result depended on the project's declaration files and global-declaring sources, when one of them is edited", async () => {
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    const spec = (body: string) => `import { test, expect } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n  await page.goto('/');\n  expect(await page.evaluate(() => ${body})).toBeTruthy();\n});\n`;
    // A monorepo app below the root (its tsconfig.json is not the root's): a declaration file and an app source
    // that declares a global, each used by a spec, and a spec using a global no file declares yet.
    write('apps/shop/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, jsx: 'react-jsx' } }));
    write('apps/shop/env.d.ts', 'declare const APP_BUILD: string;\n');
    write('apps/shop/src/main.tsx', "import { App } from './App';\ndeclare global {\n  interface Window { invokeOrders: string[] }\n}\nexport default App;\n");
    write('apps/shop/tests/build.spec.ts', spec('APP_BUILD.length'));
    write('apps/shop/tests/orders.spec.ts', spec('window.invokeOrders.length'));
    write('apps/shop/tests/flags.spec.ts', spec('window.betaFlag'));
    const typeErrors = async () => {
      const result = await runCli(['validate', '--json', '--preset', 'recommended', '--cache', 'apps/shop/tests'], { env, cwd: root });
      return findings(result.stdout).flatMap((f) => f.issues.filter((i) => i.rule === 'type-check').map((i) => `${path.basename(f.file)} ${i.message.split(' (TS')[0]}`));
    };
    const missing = (file: string, name: string) => `${file} Property '${name}' does not exist on type 'Window & typeof globalThis'.`;
    expect(await typeErrors()).toEqual([missing('flags.spec.ts', 'betaFlag')]);
    expect(await typeErrors()).toEqual([missing('flags.spec.ts', 'betaFlag')]);

    write('apps/shop/env.d.ts', 'declare const APP_RELEASE: string;\n');
    expect(await typeErrors()).toEqual(["build.spec.ts Cannot find name 'APP_BUILD'.", missing('flags.spec.ts', 'betaFlag')]);

    write('apps/shop/src/main.tsx', "import { App } from './App';\ndeclare global {\n  interface Window { featureSwitches: string[]; betaFlag: boolean }\n}\nexport default App;\n");
    expect(await typeErrors()).toEqual(["build.spec.ts Cannot find name 'APP_BUILD'.", missing('orders.spec.ts', 'invokeOrders')]);
    // The nested tsconfig.json decides the check too.
    write('apps/shop/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, jsx: 'react-jsx' }, exclude: ['src'] }));
    expect(await typeErrors()).toEqual(["build.spec.ts Cannot find name 'APP_BUILD'.", missing('flags.spec.ts', 'betaFlag'), missing('orders.spec.ts', 'invokeOrders')]);
  });

  it('rebuilds an unreadable cache, and keeps it where --cache-location says', async () => {
    mkdirSync(path.join(root, '.scribe'));
    writeFileSync(cacheFile(), '{"format": 1, "key": "trunc');
    const plain = await validate();
    expect(await validate('--cache')).toEqual(plain);
    expect(JSON.parse(readFileSync(cacheFile(), 'utf8')).format).toBe(2);

    expect(await validate('--cache', '--cache-location', 'ci/validate.json')).toEqual(plain);
    expect(Object.keys(JSON.parse(readFileSync(path.join(root, 'ci/validate.json'), 'utf8')).entries)).toHaveLength(3);
  });
});
