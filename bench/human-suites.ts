/**
 * `scribe validate` on suites people write, beside eslint + eslint-plugin-playwright (recommended) on the
 * same files. The corpus is generated into bench/work/human/: a project with a tsconfig.json path alias,
 * page objects, a fixtures factory, API tests that seed a database, CommonJS `.spec.js` files, tabs and
 * no semicolons, suppression comments, capability-gated skips, mocked latency in route handlers, helpers
 * that assert, the helper with an optional parameter that once made a rule explode, and deep nesting.
 * Both tools run as whole processes, median of R runs; peak memory from /usr/bin/time. Scribe runs with
 * the type check and the `recommended` preset; the count of internal errors must be 0.
 *
 *   node --import tsx bench/human-suites.ts [files=400] [runs=3]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const count = Number(process.argv[2] ?? 400);
const runs = Number(process.argv[3] ?? 3);
const work = path.join(root, 'bench', 'work', 'human');

/** One spec of each style, numbered so no two files are alike. */
const STYLES: Array<{ ext: string; body: (n: number) => string }> = [
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect } from '@playwright/test';
import { LoginPage } from '@pages/login';

test.describe('login ${n}', () => {
  test('signs in with a valid account', async ({ page }) => {
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(process.env.E2E_USERNAME ?? '', process.env.E2E_PASSWORD ?? '');
    await expect(page.getByRole('heading', { name: 'Dashboard ${n}' })).toBeVisible();
  });

  test('rejects a wrong password', async ({ page }) => {
    const login = new LoginPage(page);
    await login.open();
    await login.signIn('someone@example.com', 'wrong-password-${n}');
    await expect(page.getByRole('alert')).toHaveText(/invalid/i);
  });
});
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect } from '../support/fixtures';

test('adds todo ${n} through the fixture', async ({ page, todoPage }) => {
  await todoPage.add('buy milk ${n}');
  await expect(page.getByTestId('todo-item')).toHaveCount(1);
  await todoPage.expectItem('buy milk ${n}');
});
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect } from '@playwright/test';
import { prisma } from '../support/db';

test.beforeEach(async () => {
  await prisma.order.deleteMany();
});

test('creates order ${n} through the API', async ({ request }) => {
  const token = 'seed-token-${n}';
  await prisma.apiToken.create({ data: { token } });
  const response = await request.post('/api/orders', { headers: { authorization: 'Bearer ' + token }, data: { sku: 'SKU-${n}' } });
  expect(response.ok()).toBeTruthy();
  const orders = await prisma.order.count();
  expect(orders).toBe(1);
});
`,
  },
  {
    ext: 'spec.js',
    body: (n) => `const { test, expect } = require('@playwright/test');

test('shows the cart ${n}', async ({ page }) => {
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/checkout/);
});
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect } from '@playwright/test'

test('filters products ${n}', async ({ page }) => {
\tawait page.goto('/products')
\tawait page.getByPlaceholder('Search').fill('lamp ${n}')
\tconst rows = page.getByRole('row')
\tawait expect(rows).toHaveCount(3)
\tawait expect(rows.first()).toContainText('lamp')
})
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect } from '@playwright/test';

const storageConfigured = Boolean(process.env.STORAGE_URL);

test('uploads avatar ${n}', async ({ page }) => {
  test.skip(!storageConfigured, 'needs storage');
  await page.route('**/api/avatar', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.fulfill({ json: { ok: true } });
  });
  await page.goto('/profile');
  // eslint-disable-next-line playwright/no-wait-for-timeout
  await page.waitForTimeout(200);
  await page.getByLabel('Avatar').setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: Buffer.from('x') });
  await expect(page.getByText('Saved')).toBeVisible();
});
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test } from '@playwright/test';
import { expectLoggedIn, openApp } from '../support/helpers';

test('keeps the session ${n}', async ({ page }) => {
  await openApp(page);
  await page.reload();
  await expectLoggedIn(page);
});
`,
  },
  {
    ext: 'spec.ts',
    body: (n) => `import { test, expect, type Page } from '@playwright/test';

async function cancel(page: Page, title: string, reason?: string) {
  await page.getByRole('row', { name: title }).getByRole('button', { name: 'Cancel' }).click();
  if (reason) await page.getByLabel('Reason').fill(reason);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test('cancels bookings ${n}', async ({ page }) => {
  await page.goto('/bookings');
  await cancel(page, 'Room ${n}');
  await cancel(page, 'Room ${n + 1}');
  await cancel(page, 'Room ${n + 2}');
  await expect(page.getByText('3 cancelled')).toBeVisible();
});
`,
  },
];

const SUPPORT: Record<string, string> = {
  // The team's own override: their suites skip by capability.
  'agents/critic.yaml': 'version: 1\nrules:\n  no-skipped-test:\n    options:\n      allow_conditional: true\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, paths: { '@pages/*': ['./pages/*'] } } }, null, 2),
  'pages/login.ts': `import type { Page } from '@playwright/test';
export class LoginPage {
  constructor(private readonly page: Page) {}
  async open() { await this.page.goto('/login'); }
  async signIn(user: string, password: string) {
    await this.page.getByLabel('Email').fill(user);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}
`,
  'support/base.ts': `import { test } from '@playwright/test';
export function baseTest() { return test; }
`,
  'support/fixtures.ts': `import { expect, type Page } from '@playwright/test';
import { baseTest } from './base';
class TodoPage {
  constructor(private readonly page: Page) {}
  async add(text: string) { await this.page.getByPlaceholder('What needs to be done?').fill(text); await this.page.keyboard.press('Enter'); }
  async expectItem(text: string) { await expect(this.page.getByTestId('todo-item').filter({ hasText: text })).toBeVisible(); }
}
export const test = baseTest().extend<{ todoPage: TodoPage }>({
  todoPage: async ({ page }, use) => { await page.goto('/todos'); await use(new TodoPage(page)); },
});
export { expect };
`,
  'support/db.ts': `type Table = { count(): Promise<number>; deleteMany(): Promise<void>; create(args: { data: Record<string, unknown> }): Promise<void> };
export const prisma: { order: Table; apiToken: Table } = {} as never;
`,
  'support/helpers.ts': `import { expect, type Page } from '@playwright/test';
export async function openApp(page: Page) { await page.goto('/'); }
export async function expectLoggedIn(page: Page) { await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible(); }
`,
  'tests/deep.spec.ts': `import { test, expect } from '@playwright/test';
const depth = ${'('.repeat(3000)}1${')'.repeat(3000)};
test('deep', async ({ page }) => { await page.goto('/'); await expect(page).toHaveTitle(String(depth)); });
`,
};

rmSync(work, { recursive: true, force: true });
for (const [file, text] of Object.entries(SUPPORT)) write(file, text);
for (let i = 0; i < count; i++) {
  const style = STYLES[i % STYLES.length]!;
  write(`tests/s${i % STYLES.length}-${i}.${style.ext}`, style.body(i));
}

const eslintConfig = path.join(work, 'eslint.config.mjs');
writeFileSync(eslintConfig, `import playwright from 'eslint-plugin-playwright';
import tseslint from 'typescript-eslint';
const recommended = playwright.configs['flat/recommended'];
export default [
  { ...recommended, files: ['**/*.ts'], languageOptions: { ...recommended.languageOptions, parser: tseslint.parser } },
  { ...recommended, files: ['**/*.js'], languageOptions: { ...recommended.languageOptions, sourceType: 'commonjs' } },
];
`);

const node = process.execPath;
const eslint = measure('eslint + eslint-plugin-playwright (recommended)', [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--no-config-lookup', '-c', eslintConfig, '-f', 'json', 'tests'], (out) => {
  const files = JSON.parse(out) as Array<{ messages: Array<{ fatal?: boolean }> }>;
  return { findings: files.reduce((n, f) => n + f.messages.length, 0), internal_errors: files.reduce((n, f) => n + f.messages.filter((m) => m.fatal).length, 0) };
});
const scribe = measure('scribe validate --preset recommended (type check)', [path.join(root, 'bin', 'scribe.js'), 'validate', 'tests', '--preset', 'recommended', '--json'], (out) => {
  const report = JSON.parse(out) as { files: Array<{ issues: Array<{ rule: string }> }> };
  const issues = report.files.flatMap((f) => f.issues);
  return { findings: issues.length, internal_errors: issues.filter((i) => i.rule === 'internal-error').length };
});
console.log(JSON.stringify({ files: count + 1, runs, eslint, scribe, ratio: Number((eslint.median_s / scribe.median_s).toFixed(2)) }, null, 2));
rmSync(path.join(root, 'bench', 'work'), { recursive: true, force: true });

function write(file: string, text: string): void {
  const full = path.join(work, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

/** Median wall time and the largest peak RSS over the runs, and what the last run's output counted. */
function measure(label: string, args: string[], count: (stdout: string) => { findings: number; internal_errors: number }) {
  const times: number[] = [];
  let peakKb = 0;
  let counted = { findings: 0, internal_errors: 0 };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', 'PEAK_KB=%M', node, ...args], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
    // Exit 1 is "problems found": still a timed run. Anything else is a broken run.
    if (run.status !== 0 && run.status !== 1) throw new Error(`${label} exited ${run.status}: ${run.stderr.slice(-2000)}`);
    const { stdout, stderr } = run;
    times.push((performance.now() - started) / 1000);
    peakKb = Math.max(peakKb, Number(/PEAK_KB=(\d+)/.exec(stderr)?.[1] ?? 0));
    counted = count(stdout);
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  process.stderr.write(`${label}: ${median.toFixed(2)} s median (${times.map((t) => t.toFixed(2)).join(', ')}), peak ${(peakKb / 1024).toFixed(0)} MB\n`);
  return { median_s: Number(median.toFixed(2)), peak_mb: Math.round(peakKb / 1024), ...counted };
}
