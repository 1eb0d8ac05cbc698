/**
 * The mutation bench's apps and cases (bench/mutation.ts; bench/proof-red-team.ts runs other answers on the same
 * ones): three fixture apps shaped like users' apps, each request with a mutant of its app that breaks exactly
 * the asked-for behaviour, a good answer and a vacuous one; and how an app is served, mutated or not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ACCOUNT, DEMO_APP_DIR } from '../src/demo-app/server.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}/`, import.meta.url));
export const APPS = {
  shop: { dir: fixture('shop-app'), account: { E2E_USERNAME: 'shopper', E2E_PASSWORD: 'correct-horse' } },
  demo: { dir: DEMO_APP_DIR, account: { E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password } },
  plain: { dir: fixture('plain-app'), account: {} },
} as const;

export interface Mutant {
  file: string;
  find: string;
  replace: string;
}

export interface Case {
  name: string;
  app: keyof typeof APPS;
  request: string;
  /** The page the request starts from. */
  start: string;
  mutant: Mutant;
  good: string;
  vacuous: string;
}

/** A model's answer: one test of `body` that ends with a screenshot, as the rules want. */
export const spec = (title: string, body: string) => `import { test, expect } from '@playwright/test';

test('${title}', async ({ page }) => {
${body}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;
/** Signing in to the shop app with the declared credentials, and seeing its products. */
export const SHOP_SIGN_IN = `  await page.goto('/');
  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('products-heading')).toBeVisible();`;

export const CASES: Case[] = [
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
export function snapshot(dir: string): Map<string, string> {
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
export async function serveApp(files: ReadonlyMap<string, string>, mutant?: Mutant): Promise<{ url: string; close(): Promise<void> }> {
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
