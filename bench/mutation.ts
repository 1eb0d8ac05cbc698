/**
 * The mutation bench: does an accepted spec prove the request? Ten requests over three fixture apps
 * shaped like users' apps (a shop behind a login with several pages, the demo app's login, search and
 * todos, a newsletter page with no test ids). Each request has a mutant of its app that breaks exactly
 * the asked-for behaviour (the fixture server serves the app with one substitution in one file). Each
 * request is generated three ways: a scripted good answer, a scripted vacuous one (what a lazy or hostile
 * model writes: it acts, then asserts what the page showed all along), and the offline generator. Every
 * accepted spec is then run with Playwright against the app (it must pass) and the mutant (it must fail).
 *
 *   nice -n 15 node --import tsx bench/mutation.ts [case-name…]
 *
 * Prints one line per generation and the totals: mutants killed, vacuous answers refused, and the time a
 * generation takes. Each app is read into memory once at the start (an edit to a fixture during the run
 * changes nothing), and a generation that throws is a row with its error, not the end of the bench. Run it
 * from a checkout nobody edits while it runs (`git worktree add`), since the runs load the checkout's code.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSpec } from '../src/agents/runner.ts';
import { DEMO_ACCOUNT, DEMO_APP_DIR } from '../src/demo-app/server.ts';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { median } from './load.mjs';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}/`, import.meta.url));
const APPS = {
  shop: { dir: fixture('shop-app'), account: { E2E_USERNAME: 'shopper', E2E_PASSWORD: 'correct-horse' } },
  demo: { dir: DEMO_APP_DIR, account: { E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password } },
  plain: { dir: fixture('plain-app'), account: {} },
} as const;

interface Mutant {
  file: string;
  find: string;
  replace: string;
}

interface Case {
  name: string;
  app: keyof typeof APPS;
  request: string;
  /** The page the request starts from. */
  start: string;
  mutant: Mutant;
  good: string;
  vacuous: string;
}

const spec = (title: string, body: string) => `import { test, expect } from '@playwright/test';

test('${title}', async ({ page }) => {
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
const SHOP_SIGN_IN = `  await page.goto('/');
  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('products-heading')).toBeVisible();`;

const CASES: Case[] = [
  {
    name: 'shop-add-lamp',
    app: 'shop',
    request: 'sign in, add the desk lamp to the cart and see the cart total',
    start: '/',
    mutant: { file: 'shop.js', find: "localStorage.setItem('shop-cart', JSON.stringify([...cart(), id]));", replace: 'void id;' },
    good: spec('add the lamp', `${SHOP_SIGN_IN}
  await page.getByTestId('product-link-lamp').click();
  await page.getByTestId('add-to-cart').click();
  await page.goto('/cart');
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');`),
    vacuous: spec('add the lamp', `${SHOP_SIGN_IN}
  await page.getByTestId('product-link-lamp').click();
  await page.getByTestId('add-to-cart').click();
  await page.goto('/cart');
  await expect(page.getByTestId('checkout-button')).toHaveText('Check out');`),
  },
  {
    name: 'shop-order',
    app: 'shop',
    request: 'sign in, place an order to "1 Main St" and see the confirmation',
    start: '/',
    mutant: { file: 'checkout.html', find: "document.querySelector('[data-testid=order-confirmation]').hidden = false;", replace: '' },
    good: spec('place an order', `${SHOP_SIGN_IN}
  await page.goto('/checkout');
  await page.getByTestId('address-input').fill('1 Main St');
  await page.getByTestId('place-order').click();
  await expect(page.getByTestId('order-confirmation')).toBeVisible();`),
    vacuous: spec('place an order', `${SHOP_SIGN_IN}
  await page.goto('/checkout');
  await page.getByTestId('address-input').fill('1 Main St');
  await page.getByTestId('place-order').click();
  await expect(page.getByTestId('order-confirmation')).toHaveText('Thank you for your order');`),
  },
  {
    name: 'shop-sign-in',
    app: 'shop',
    request: 'sign in and see the products',
    start: '/',
    mutant: { file: 'index.html', find: "location.assign('/products');", replace: '' },
    good: spec('sign in', `  await page.goto('/');
  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('products-heading')).toHaveText('Products');`),
    vacuous: spec('sign in', `  await page.goto('/');
  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page).toHaveTitle(/Shop/);`),
  },
  {
    name: 'shop-mug-price',
    app: 'shop',
    request: 'sign in, add the coffee mug and see "Total: $8" in the cart',
    start: '/',
    mutant: { file: 'cart.html', find: 'sum + p.price', replace: 'sum' },
    good: spec('mug total', `${SHOP_SIGN_IN}
  await page.getByTestId('product-link-mug').click();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('added-message')).toBeVisible();
  await page.getByTestId('nav-cart').click();
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $8');`),
    vacuous: spec('mug total', `${SHOP_SIGN_IN}
  await page.getByTestId('product-link-mug').click();
  await page.getByTestId('add-to-cart').click();
  await page.goto('/cart');
  await expect(page.getByTestId('nav-products')).toHaveText('Products');`),
  },
  {
    name: 'demo-search',
    app: 'demo',
    request: 'search for "locators" and see the result',
    start: '/search',
    mutant: { file: 'search.html', find: "query !== '' && title.toLowerCase().includes(query)", replace: 'false' },
    good: spec('search', `  await page.goto('/search');
  await page.getByTestId('search-input').fill('locators');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-result')).toHaveText('Locators and test ids');`),
    vacuous: spec('search', `  await page.goto('/search');
  await page.getByTestId('search-input').fill('locators');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-heading')).toHaveText('Search the docs');`),
  },
  {
    name: 'demo-no-results',
    app: 'demo',
    request: 'search for "zebra" and see that there are no results',
    start: '/search',
    mutant: { file: 'search.html', find: 'empty.hidden = found.length > 0;', replace: 'empty.hidden = true;' },
    good: spec('no results', `  await page.goto('/search');
  await page.getByTestId('search-input').fill('zebra');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-empty')).toBeVisible();`),
    vacuous: spec('no results', `  await page.goto('/search');
  await page.getByTestId('search-input').fill('zebra');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-result')).toHaveCount(0);`),
  },
  {
    name: 'demo-add-todo',
    app: 'demo',
    request: 'add a todo "Pay rent" and see it in the list',
    start: '/todos',
    mutant: { file: 'todos.html', find: "addTodo(title);\n      input.value = '';", replace: "input.value = '';" },
    good: spec('add a todo', `  await page.goto('/todos');
  await page.getByTestId('new-todo-input').fill('Pay rent');
  await page.getByTestId('add-todo-button').click();
  await expect(page.getByTestId('todo-title')).toHaveText(['Buy milk', 'Write the weekly report', 'Pay rent']);`),
    vacuous: spec('add a todo', `  await page.goto('/todos');
  await page.getByTestId('new-todo-input').fill('Pay rent');
  await page.getByTestId('add-todo-button').click();
  await expect(page.getByTestId('todos-heading')).toHaveText('Todos');`),
  },
  {
    name: 'demo-complete-todo',
    app: 'demo',
    request: 'complete the "Buy milk" todo and see "1 item left"',
    start: '/todos',
    mutant: { file: 'todos.html', find: "item.classList.toggle('done', toggle.checked);\n        updateCount();", replace: "item.classList.toggle('done', toggle.checked);" },
    good: spec('complete a todo', `  await page.goto('/todos');
  await expect(page.getByTestId('todo-count')).toHaveText('2 items left');
  await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).getByTestId('todo-toggle').check();
  await expect(page.getByTestId('todo-count')).toHaveText('1 item left');`),
    vacuous: spec('complete a todo', `  await page.goto('/todos');
  await page.getByTestId('todo-item').filter({ hasText: 'Buy milk' }).getByTestId('todo-toggle').check();
  await expect(page.getByTestId('todo-count')).toContainText('left');`),
  },
  {
    name: 'demo-log-in',
    app: 'demo',
    request: 'log in and see the dashboard',
    start: '/login',
    mutant: { file: 'login.html', find: 'dashboard.hidden = false;', replace: '' },
    good: spec('log in', `  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard-heading')).toBeVisible();`),
    vacuous: spec('log in', `  await page.goto('/login');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password-input').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard-heading')).toHaveText('Dashboard');`),
  },
  {
    name: 'plain-subscribe',
    app: 'plain',
    request: 'enter "reader@example.com" as the email address and subscribe, then see the subscription status',
    start: '/',
    mutant: { file: 'index.html', find: "document.getElementById('status').textContent = email.includes('@') ? `Subscribed ${email}` : 'Enter a valid email address';", replace: 'void email;' },
    good: spec('subscribe', `  await page.goto('/');
  await page.getByLabel('Email address').fill('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('status')).toHaveText('Subscribed reader@example.com');`),
    vacuous: spec('subscribe', `  await page.goto('/');
  await page.getByLabel('Email address').fill('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Newsletter' })).toBeVisible();`),
  },
];

/** Every file of an app's folder, read once: what the servers serve, whatever happens to the folder later. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(`/${path.relative(dir, file).split(path.sep).join('/')}`, readFileSync(file, 'utf8'));
    }
  }
  return files;
}

/** The app's files on a free loopback port, with the mutant's substitution applied when given. */
async function serveApp(files: ReadonlyMap<string, string>, mutant?: Mutant): Promise<{ url: string; close(): Promise<void> }> {
  if (mutant && !files.get(`/${mutant.file}`)?.includes(mutant.find)) throw new Error(`mutant of ${mutant.file}: text not found`);
  const server = createServer((req, res) => {
    const pathname = path.posix.normalize(new URL(req.url ?? '/', 'http://x').pathname);
    const names = pathname.endsWith('/') ? [`${pathname}index.html`] : [pathname, `${pathname}.html`];
    for (const name of names) {
      let text = files.get(name);
      if (text === undefined) continue;
      if (mutant && name === `/${mutant.file}`) text = text.replace(mutant.find, mutant.replace);
      const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.json') ? 'application/json' : name.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
      res.writeHead(200, { 'content-type': type }).end(text);
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

type Kind = 'good' | 'vacuous' | 'offline';
interface Row {
  case: string;
  kind: Kind;
  accepted: boolean;
  proof: string;
  calls: number;
  onApp?: string;
  onMutant?: string;
  note: string;
  /** The whole generation, proof run included. */
  ms: number;
  crashed?: boolean;
}

const only = process.argv.slice(2);
const rows: Row[] = [];
const files = new Map(Object.entries(APPS).map(([name, app]) => [name, snapshot(app.dir)]));
for (const c of CASES.filter((k) => only.length === 0 || only.includes(k.name))) {
  const app = await serveApp(files.get(c.app)!);
  const mutant = await serveApp(files.get(c.app)!, c.mutant);
  try {
    for (const kind of ['good', 'vacuous', 'offline'] as const) {
      // One rejection allowed: the vacuous model answers the same again, and is then kept for review.
      const project = makeScribeProject({ 'generation.max_critic_rejections': 1 });
      // A model of its own per generation: an answer one did not use never reaches the next.
      const fake = await startFakeOpenAI();
      try {
        if (kind !== 'offline') fake.reply(...Array.from({ length: 4 }, () => ({ text: fenced(kind === 'good' ? c.good : c.vacuous) })));
        const env = { ...project.env(fake.url), ...APPS[c.app].account };
        const start = performance.now();
        const generated = await generateSpec(
          { description: c.request, feature: c.name, url: `${app.url}${c.start}`, ...(kind === 'offline' ? { provider: 'offline' as const } : {}) },
          { cwd: project.dir, env },
        ).catch((error: unknown) => ({ error: error as Error }));
        const ms = performance.now() - start;
        if ('error' in generated) {
          rows.push({ case: c.name, kind, accepted: false, proof: '-', calls: fake.requests.length, note: `threw: ${generated.error.message}`, ms, crashed: true });
          console.log(`${c.name.padEnd(20)} ${kind.padEnd(8)} THREW ${generated.error.message}`);
          continue;
        }
        const { document } = generated;
        const row: Row = { case: c.name, kind, accepted: document.success, proof: document.runner?.proof?.verdict ?? '-', calls: fake.requests.length, note: document.success ? '' : (document.error ?? '').slice(0, 110), ms };
        if (document.success && document.testPath) {
          const specPath = path.join(project.dir, document.testPath);
          const run = (baseURL: string) => runSpec({ specPath, baseURL, cwd: project.dir, env, ...bundledRunTarget() });
          row.onApp = (await run(app.url)).classification;
          row.onMutant = (await run(mutant.url)).classification;
        }
        rows.push(row);
        console.log(`${c.name.padEnd(20)} ${kind.padEnd(8)} ${row.accepted ? 'accepted' : 'refused '} proof=${row.proof.padEnd(12)} calls=${row.calls} ${(ms / 1000).toFixed(1)} s ${row.onApp ? `app=${row.onApp} mutant=${row.onMutant}` : row.note}`);
      } finally {
        project.remove();
        await fake.close();
      }
    }
  } finally {
    await app.close();
    await mutant.close();
  }
}

const accepted = rows.filter((r) => r.accepted);
const killed = accepted.filter((r) => r.onApp === 'pass' && r.onMutant !== 'pass');
const vacuous = rows.filter((r) => r.kind === 'vacuous');
const good = rows.filter((r) => r.kind === 'good');
console.log('');
console.log(`cases ${new Set(rows.map((r) => r.case)).size} over ${new Set(CASES.filter((c) => rows.some((r) => r.case === c.name)).map((c) => c.app)).size} apps`);
console.log(`accepted specs: ${accepted.length} (good ${accepted.filter((r) => r.kind === 'good').length}/${good.length}, offline ${accepted.filter((r) => r.kind === 'offline').length}/${rows.filter((r) => r.kind === 'offline').length}, vacuous ${accepted.filter((r) => r.kind === 'vacuous').length}/${vacuous.length})`);
console.log(`mutants killed by accepted specs: ${killed.length}/${accepted.length}`);
console.log(`vacuous answers refused: ${vacuous.filter((r) => !r.accepted).length}/${vacuous.length}`);
console.log(`good answers accepted on one model call: ${good.filter((r) => r.accepted && r.calls === 1).length}/${good.length}`);
console.log(`generations that threw: ${rows.filter((r) => r.crashed).length}`);
const seconds = (list: Row[]) => (list.length === 0 ? '-' : `${(median(list.map((r) => r.ms)) / 1000).toFixed(1)} s`);
console.log(`median generation (proof run included): good ${seconds(good.filter((r) => r.accepted))}, vacuous ${seconds(vacuous)}; the proof run's own share: bench/proof-overhead.ts`);
rmSync(path.join(process.cwd(), '.scribe', 'tmp'), { recursive: true, force: true });
