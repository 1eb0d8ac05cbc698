import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidateReport } from '../../src/contracts.ts';
import { DEFAULT_CRITIC_PATH } from '../../src/config/critic.ts';
import { validateExitCode } from '../../src/commands/validate.ts';
import { scribe } from './cli-harness.ts';

const specs = fileURLToPath(new URL('../fixtures/specs/', import.meta.url));
const bundledCritic = readFileSync(DEFAULT_CRITIC_PATH, 'utf8');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-validate-'));
  copyFileSync(path.join(specs, 'clean.spec.ts'), path.join(dir, 'clean.spec.ts'));
  copyFileSync(path.join(specs, 'planted.spec.ts'), path.join(dir, 'planted.spec.ts'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const json = async (args: string[]) => {
  const run = await scribe([...args, '--json'], { cwd: dir });
  return { ...run, report: ValidateReport.parse(JSON.parse(run.stdout)) };
};

describe('scribe validate', () => {
  it('reports a file nested too deeply to analyse as a finding on it, keeps every other file’s report, exits 1', async () => {
    writeFileSync(path.join(dir, 'deep.spec.ts'), `const x = ${'('.repeat(5000)}1${')'.repeat(5000)};\n`);
    const { code, report } = await json(['validate', '.']);
    expect(code).toBe(1);
    const byFile = Object.fromEntries(report.files.map((f) => [path.basename(f.file), f.issues.map((i) => i.rule)]));
    expect(byFile['deep.spec.ts']).toEqual(['syntax']);
    expect(byFile['clean.spec.ts']).toEqual([]);
    expect(byFile['planted.spec.ts']).toContain('missing-playwright-await');
  });

  it("holds the specs to the Playwright config's testIdAttribute (checked meanwhile with critic.yaml's, and again)", async () => {
    writeFileSync(path.join(dir, 'playwright.config.ts'), "export default { testDir: '.', use: { testIdAttribute: 'data-qa' } };\n");
    const selector = (attribute: string) => `import { test, expect } from '@playwright/test';\n\ntest('cart', async ({ page }) => {\n  await page.goto('/');\n  await page.locator('[${attribute}="cart"]').click();\n  await expect(page.getByTestId('total')).toBeVisible();\n});\n`;
    writeFileSync(path.join(dir, 'own.spec.ts'), selector('data-qa'));
    writeFileSync(path.join(dir, 'default.spec.ts'), selector('data-testid'));
    const { report } = await json(['validate', 'own.spec.ts', 'default.spec.ts', '--preset', 'generated']);
    const testIdFindings = (name: string) => report.files.find((f) => f.file === name)!.issues.filter((i) => i.rule === 'require-testid-selectors');
    expect(testIdFindings('own.spec.ts')).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining("use getByTestId('cart')") })]);
    expect(testIdFindings('default.spec.ts')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('selects by CSS') })]);
  });

  it('passes a clean spec with exit code 0', async () => {
    const run = await scribe(['validate', 'clean.spec.ts'], { cwd: dir });
    expect(run.stderr).not.toMatch(/error/);
    expect(run.stdout).toContain('no problems');
    expect(run.code).toBe(0);
  });

  it('reports each planted problem at its line with its rule id', async () => {
    const { code, report } = await json(['validate', 'planted.spec.ts', '--preset', 'generated']);
    expect(code).toBe(1);
    const found = report.files[0]!.issues.map((i) => `${i.line}:${i.rule}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '5:missing-playwright-await',
        '5:no-hardcoded-base-url',
        '6:no-wait-for-timeout',
        '7:require-testid-selectors',
        '8:no-hardcoded-credentials',
        '10:no-force-option',
        '11:no-networkidle',
      ]),
    );
    expect(report.summary).toMatchObject({ files: 1, passed: 0 });
    expect(report.summary.errors).toBe(report.files[0]!.issues.filter((i) => i.severity === 'error').length);
  });

  it('prints file:line:col, severity, message and rule id like a linter', async () => {
    const run = await scribe(['validate', '.'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/planted\.spec\.ts:6:\d+\s+error\s+.*waitForTimeout.*no-wait-for-timeout/);
    expect(run.stdout).toMatch(/problems? \(\d+ errors?, \d+ warnings?\) in 1 of 2 files/);
  });

  it('follows agents/critic.yaml: a rule switched off, a severity, a limit', async () => {
    const config = path.join(dir, 'critic.yaml');
    writeFileSync(config, bundledCritic.replace(/(no-wait-for-timeout:\n    severity: )error/, '$1off'));
    const off = await json(['validate', 'planted.spec.ts', '--rules', config]);
    expect(off.report.files[0]!.issues.map((i) => i.rule)).not.toContain('no-wait-for-timeout');

    writeFileSync(config, bundledCritic.replace(/(no-wait-for-timeout:\n    severity: )error/, '$1warning'));
    const warned = await json(['validate', 'planted.spec.ts', '--rules', config]);
    expect(warned.report.files[0]!.issues.find((i) => i.rule === 'no-wait-for-timeout')?.severity).toBe('warning');

    writeFileSync(config, bundledCritic.replace('      max: 10', '      max: 2'));
    const limited = await json(['validate', 'clean.spec.ts', '--rules', config, '--preset', 'generated']);
    expect(limited.code).toBe(1);
    expect(limited.report.files[0]!.issues.map((i) => i.rule)).toEqual(['max-steps']);
  });

  it('reads ./agents/critic.yaml of the working directory when there is one', async () => {
    const local = path.join(dir, 'agents');
    mkdirSync(local);
    writeFileSync(path.join(local, 'critic.yaml'), bundledCritic.replace('      max: 10', '      max: 1').replace('validate_preset: recommended', 'validate_preset: generated'));
    const { report } = await json(['validate', 'clean.spec.ts']);
    expect(report.files[0]!.issues.map((i) => i.rule)).toEqual(['max-steps']);
  });

  it('--fix applies the safe fixes, says what changed and keeps every assertion', async () => {
    const run = await scribe(['validate', 'planted.spec.ts', '--fix', '--preset', 'generated'], { cwd: dir });
    const fixed = readFileSync(path.join(dir, 'planted.spec.ts'), 'utf8');
    expect(fixed).toContain("await p.goto('/login');");
    expect(fixed).not.toContain('waitForTimeout');
    expect(fixed).toContain("page.getByTestId('username')");
    expect(fixed).not.toContain('force');
    expect(fixed).not.toContain('networkidle');
    expect(fixed).toContain("await expect(page.getByTestId('dashboard-title')).toHaveText('Dashboard');");
    expect(run.stderr).toMatch(/fixed planted\.spec\.ts:6\s+no-wait-for-timeout/);
    // The hard-coded password has no safe fix: it is still reported.
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('no-hardcoded-credentials');
  });

  it('--fix leaves a file with a broken line alone, assertion included, and says why', async () => {
    const broken = "import { test, expect } from '@playwright/test';\n\ntest('menu', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForLoadState('networkidle'');\n  await expect(page.getByTestId('menu')).toBeHidden();\n});\n";
    writeFileSync(path.join(dir, 'broken.spec.ts'), broken);
    const run = await scribe(['validate', 'broken.spec.ts', '--fix'], { cwd: dir });
    expect(readFileSync(path.join(dir, 'broken.spec.ts'), 'utf8')).toBe(broken);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not fixed broken\.spec\.ts:5\s+no-networkidle: the file has syntax errors/);
    expect(run.stdout).toContain('syntax');
  });

  it('exits 2 with a clear message on a missing path or a bad config', async () => {
    const missing = await scribe(['validate', 'nope.spec.ts'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.spec.ts: no such file or folder');

    const config = path.join(dir, 'bad.yaml');
    writeFileSync(config, bundledCritic.replace('  no-eval:', '  no-evil:'));
    const bad = await scribe(['validate', 'clean.spec.ts', '--rules', config], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml:\d+: rules\.no-evil: unknown rule id \(did you mean "no-eval"\?\)/);

    const flag = await scribe(['validate', '--frobnicate', 'clean.spec.ts'], { cwd: dir });
    expect(flag.code).toBe(2);
  });
});

describe('scribe validate: presets for people’s suites', () => {
  // A human-style spec: role locators, a list index, no screenshot, a hard-coded URL, and one real flake.
  const human = `import { test, expect } from '@playwright/test';

test('opens the second order', async ({ page }) => {
  await page.goto('http://localhost:3000/orders');
  await page.getByRole('row').nth(1).click();
  await page.waitForTimeout(500);
  await expect(page.getByRole('heading', { name: 'Order' })).toBeVisible();
});
`;
  const rulesOf = (report: ValidateReport) => [...new Set(report.files.flatMap((f) => f.issues.map((i) => i.rule)))].sort();

  it('recommended, the default for your own specs, keeps the correctness and flakiness rules; generated holds a suite to every rule', async () => {
    writeFileSync(path.join(dir, 'orders.spec.ts'), human);
    const generated = await json(['validate', 'orders.spec.ts', '--no-type-check', '--preset', 'generated']);
    expect(rulesOf(generated.report)).toEqual(expect.arrayContaining(['no-hardcoded-base-url', 'no-nth-methods', 'no-wait-for-timeout', 'require-screenshot']));
    const recommended = await json(['validate', 'orders.spec.ts', '--no-type-check']);
    expect(rulesOf(recommended.report)).toEqual(['no-wait-for-timeout']);
    expect(recommended.code).toBe(1);
    expect(rulesOf((await json(['validate', 'orders.spec.ts', '--no-type-check', '--preset', 'recommended'])).report)).toEqual(['no-wait-for-timeout']);
  });

  it('settings.validate_preset in the project’s critic.yaml chooses it without a flag; an unknown preset is exit 2', async () => {
    writeFileSync(path.join(dir, 'orders.spec.ts'), human);
    mkdirSync(path.join(dir, 'agents'));
    writeFileSync(path.join(dir, 'agents', 'critic.yaml'), 'version: 1\nsettings:\n  validate_preset: generated\n');
    expect(rulesOf((await json(['validate', 'orders.spec.ts', '--no-type-check'])).report)).toEqual(expect.arrayContaining(['no-hardcoded-base-url', 'no-nth-methods', 'require-screenshot']));
    const unknown = await scribe(['validate', 'orders.spec.ts', '--preset', 'lenient'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--preset lenient: no such preset (generated, recommended)');
    const gated = await scribe(['validate', 'orders.spec.ts', '--preset', 'recommended', '--untrusted'], { cwd: dir });
    expect(gated.code).toBe(2);
  });

  it('a preset naming a rule that does not exist is a configuration error at its line', async () => {
    mkdirSync(path.join(dir, 'agents'));
    writeFileSync(path.join(dir, 'agents', 'critic.yaml'), 'version: 1\npresets:\n  mine:\n    off: [no-wait-for-timout]\n');
    const run = await scribe(['validate', 'clean.spec.ts'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/critic\.yaml:4: presets\.mine\.off\[0\]: unknown rule id.*no-wait-for-timeout/);
  });
});

describe('scribe validate: the project’s tsconfig.json', () => {
  const aliased = `import { test, expect } from '@playwright/test';
import { LoginPage } from '@pages/login';

test('signs in', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await expect(page.getByTestId('dashboard')).toBeVisible();
});
`;
  const pageObject = `import type { Page } from '@playwright/test';
export class LoginPage {
  constructor(private readonly page: Page) {}
  async open() { await this.page.goto('/login'); }
}
`;

  it('resolves path aliases as the project does; an import that still does not resolve is one warning for the run, not a finding per file', async () => {
    mkdirSync(path.join(dir, 'pages'));
    writeFileSync(path.join(dir, 'pages', 'login.ts'), pageObject);
    writeFileSync(path.join(dir, 'aliased.spec.ts'), aliased);
    writeFileSync(path.join(dir, 'aliased-too.spec.ts'), `\n${aliased}`);
    const typeCheck = async () => {
      const { report } = await json(['validate', 'aliased.spec.ts', 'aliased-too.spec.ts', '--preset', 'recommended']);
      return { issues: report.files.flatMap((f) => f.issues.filter((i) => i.rule === 'type-check')), warnings: report.warnings ?? [], summary: report.summary };
    };

    const unresolved = await typeCheck();
    expect(unresolved.issues).toEqual([]);
    expect(unresolved.summary.warnings).toBe(0);
    expect(unresolved.warnings).toEqual([
      'type-check: "@pages/login" is not installed where the specs are checked (2 spec files import it, first aliased-too.spec.ts:3), so what it exports is not type-checked: npm install it, or, if it is an alias, declare it in the compilerOptions.paths of the tsconfig.json that applies to those files',
    ]);

    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@pages/*': ['./pages/*'] } } }));
    expect(await typeCheck()).toEqual({ issues: [], warnings: [], summary: expect.objectContaining({ warnings: 0 }) });
  });
});

describe('scribe validate: globals a monorepo app declares in its own sources', () => {
  it("knows a global an app's included source declares, confirms in each spec's own config an error a neighbour app's types cause, and still reports what no included file declares", async () => {
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    const spec = (body: string) => `import { test, expect } from '@playwright/test';\n\ntest('t', async ({ page }) => {\n  await page.goto('/');\n  expect(await page.evaluate(() => ${body})).toBeTruthy();\n});\n`;
    write('e2e/shop/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, jsx: 'react-jsx' }, exclude: ['src/old'] }));
    write('e2e/shop/src/main.tsx', "import { App } from './App';\ndeclare global {\n  interface Window { invokeOrders: string[] }\n}\nwindow.invokeOrders = [];\nexport default App;\n");
    write('e2e/shop/src/old/flags.ts', 'export {};\ndeclare global {\n  interface Window { oldFlag: boolean }\n}\n');
    write('e2e/shop/tests/orders.spec.ts', spec("(document.body.append(document.createElement('div')), window.invokeOrders.length)"));
    write('e2e/shop/tests/flags.spec.ts', spec('window.oldFlag'));
    // A Cloudflare worker app beside it, whose global types redefine the DOM's Element.
    write('e2e/worker/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true } }));
    write('e2e/worker/worker-configuration.d.ts', 'interface Element {\n  append(content: string | ReadableStream | Response): Element;\n}\n');
    write('e2e/worker/tests/worker.spec.ts', spec("typeof Response === 'function'"));
    const { report } = await json(['validate', 'e2e', '--preset', 'recommended']);
    const typeErrors = report.files.flatMap((f) => f.issues.filter((i) => i.rule === 'type-check').map((i) => `${f.file}:${i.line} ${i.message.split(' (TS')[0]}`));
    expect(typeErrors).toEqual([`${path.join('e2e', 'shop', 'tests', 'flags.spec.ts')}:5 Property 'oldFlag' does not exist on type 'Window & typeof globalThis'.`]);
  });
});

describe('scribe validate: exit codes', () => {
  const file = (rule: string, severity: 'error' | 'warning' = 'error') => ({ file: 'a.spec.ts', passed: severity !== 'error', issues: [{ rule, severity, message: 'm', line: 1, column: 1, fixable: false }] });
  it('is 3 when a file could not be analysed (whatever else was found), 1 for findings, 0 for warnings only', () => {
    expect(validateExitCode({ files: [file('internal-error'), file('no-wait-for-timeout')], summary: { files: 2, passed: 0, errors: 2, warnings: 0 } })).toBe(3);
    expect(validateExitCode({ files: [file('no-wait-for-timeout')], summary: { files: 1, passed: 0, errors: 1, warnings: 0 } })).toBe(1);
    expect(validateExitCode({ files: [file('unused-disable-directive', 'warning')], summary: { files: 1, passed: 1, errors: 0, warnings: 1 } })).toBe(0);
  });
});

describe('scribe validate: helpers that assert, in other files', () => {
  it('with the type check, a helper imported from the project that calls expect counts as the test’s assertion', async () => {
    mkdirSync(path.join(dir, 'support'));
    writeFileSync(path.join(dir, 'support', 'orders.ts'), `import { expect, type Page } from '@playwright/test';
function seesTotal(page: Page, total: string) { return expect(page.getByTestId('total')).toHaveText(total); }
export async function confirmOrder(page: Page) {
  await page.getByRole('button', { name: 'Confirm' }).click();
  await seesTotal(page, '€12');
}
export async function openOrders(page: Page) { await page.goto('/orders'); }
`);
    writeFileSync(path.join(dir, 'orders.spec.ts'), `import { test } from '@playwright/test';
import { confirmOrder, openOrders } from './support/orders';

test('confirms an order', async ({ page }) => {
  await openOrders(page);
  await confirmOrder(page);
});

test('only opens the page', async ({ page }) => {
  await openOrders(page);
});
`);
    const unasserted = async (args: string[]) => (await json(['validate', 'orders.spec.ts', '--preset', 'recommended', ...args])).report.files[0]!.issues.filter((i) => i.rule === 'expect-expect').map((i) => i.line);
    expect(await unasserted([])).toEqual([9]);
    // Without the type check there is no program to follow the import into: only names count.
    expect(await unasserted(['--no-type-check'])).toEqual([4, 9]);
  });

  it('takes critic.yaml with --rules; an old --config naming a YAML file still works, with a notice', async () => {
    const rules = path.join(dir, 'critic.yaml');
    writeFileSync(rules, bundledCritic.replace('      max: 10', '      max: 2').replace('validate_preset: recommended', 'validate_preset: generated'));
    const current = await json(['validate', 'clean.spec.ts', '--rules', rules]);
    expect(current.report.files[0]!.issues.map((i) => i.rule)).toEqual(['max-steps']);
    expect(current.stderr).not.toMatch(/--config/);

    const old = await json(['validate', 'clean.spec.ts', '--config', rules]);
    expect(old.report.files[0]!.issues.map((i) => i.rule)).toEqual(['max-steps']);
    expect(old.stderr).toMatch(/warning: --config .*critic\.yaml: --config now names the Playwright config .*--rules/);
  });

  it('-c names another Playwright config (its testIdAttribute decides), --project one of its projects', async () => {
    mkdirSync(path.join(dir, 'configs'));
    writeFileSync(path.join(dir, 'playwright.config.ts'), "export default { testDir: '..', use: { testIdAttribute: 'data-testid' } };\n");
    writeFileSync(path.join(dir, 'configs', 'qa.config.ts'), "export default { testDir: '..', projects: [{ name: 'plain' }, { name: 'qa', use: { testIdAttribute: 'data-qa' } }] };\n");
    writeFileSync(path.join(dir, 'own.spec.ts'), "import { test, expect } from '@playwright/test';\n\ntest('cart', async ({ page }) => {\n  await page.goto('/');\n  await page.locator('[data-qa=\"cart\"]').click();\n  await expect(page.getByTestId('total')).toBeVisible();\n});\n");
    const findings = async (args: string[]) => (await json(['validate', 'own.spec.ts', '--preset', 'generated', ...args])).report.files[0]!.issues.filter((i) => i.rule === 'require-testid-selectors').map((i) => i.severity);
    expect(await findings([])).toEqual(['error']);
    expect(await findings(['-c', 'configs/qa.config.ts', '--project', 'qa'])).toEqual(['warning']);
    expect(await findings(['--config', 'configs/qa.config.ts', '--project', 'plain'])).toEqual(['error']);

    const unknown = await scribe(['validate', 'own.spec.ts', '-c', 'configs/qa.config.ts', '--project', 'nope'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no project named "nope" (--project); it has "plain", "qa"');
    const missing = await scribe(['validate', 'own.spec.ts', '-c', 'configs/none.config.ts'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/none\.config\.ts:0: no such Playwright config/);
  });

  it('--max-warnings, --quiet and -o as eslint has them', async () => {
    writeFileSync(path.join(dir, 'critic.yaml'), bundledCritic.replace(/(no-wait-for-timeout:\n    severity: )error/, '$1warning'));
    writeFileSync(path.join(dir, 'warned.spec.ts'), "import { test, expect } from '@playwright/test';\n\ntest('waits', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForTimeout(100);\n  await expect(page.getByTestId('x')).toBeVisible();\n  await page.screenshot({ path: 'x.png' });\n});\n");
    const warned = await json(['validate', 'warned.spec.ts', '--rules', 'critic.yaml']);
    expect(warned.code).toBe(0);
    expect(warned.report.summary.warnings).toBe(1);

    const strict = await scribe(['validate', 'warned.spec.ts', '--rules', 'critic.yaml', '--max-warnings', '0'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('too many warnings (1; --max-warnings 0)');
    expect((await scribe(['validate', 'warned.spec.ts', '--rules', 'critic.yaml', '--max-warnings', '1'], { cwd: dir })).code).toBe(0);
    expect((await scribe(['validate', 'warned.spec.ts', '--max-warnings', 'many'], { cwd: dir })).code).toBe(2);

    const quiet = await json(['validate', 'warned.spec.ts', 'planted.spec.ts', '--rules', 'critic.yaml', '--quiet']);
    expect(quiet.report.files.flatMap((f) => f.issues).map((i) => i.severity)).not.toContain('warning');
    expect(quiet.report.files.flatMap((f) => f.issues).length).toBeGreaterThan(0);
    expect(quiet.report.summary.warnings).toBe(0);

    const written = await scribe(['validate', 'planted.spec.ts', '--json', '-o', 'out/report.json'], { cwd: dir });
    expect(written.code).toBe(1);
    expect(written.stdout).toBe('');
    expect(ValidateReport.parse(JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'))).files[0]!.issues.map((i) => i.rule)).toContain('no-wait-for-timeout');
  });
});
