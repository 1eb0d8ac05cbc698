/**
 * The pages a batch's worker explored, reused for its later scenarios (src/workflow/explored-pages.ts): an
 * exploration that reached a scenario's start page grounds it as if it had started there; anything else
 * (another page, another origin, a sign-in through the form or none) is explored again.
 */
import { describe, expect, it } from 'vitest';
import type { ExploreSignIn, PageInventory } from '../../src/contracts.ts';
import { ExploredPages, startingAt } from '../../src/workflow/explored-pages.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const BUDGET = { max_tokens: 2500, chars_per_token: 4 };

function page(path: string, testIds: string[]): PageInventory {
  return {
    url: `${ORIGIN}${path}`,
    title: path,
    testIdAttribute: 'data-testid',
    testIds: testIds.map((testId) => ({ testId, tag: 'p', role: null, text: testId, label: null, count: 1, visible: true })),
    roles: [],
    fields: [],
    headings: [{ level: 1, text: path }],
    links: [],
    truncated: [],
    estimatedTokens: 10,
  };
}

/** A site explored from / with /products and /cart, /profile left out by the bounds. */
const SITE: PageInventory = { ...page('/', ['welcome']), pages: [page('/products', ['product-list']), page('/cart', ['cart-count'])], unexplored: ['/profile'], promptPages: 2 };
const STORAGE_STATE: ExploreSignIn = { method: 'storage_state', explored_behind_login: true, message: 'explored signed in with the storage state .auth/user.json' };

describe('startingAt', () => {
  it("puts the scenario's page first and every other explored page after it, fitted to the budget again", () => {
    const cart = startingAt(SITE, `${ORIGIN}/cart`, BUDGET)!;
    expect(cart.url).toBe(`${ORIGIN}/cart`);
    expect(cart.testIds.map((t) => t.testId)).toEqual(['cart-count']);
    expect(cart.pages!.map((p) => p.url)).toEqual([`${ORIGIN}/`, `${ORIGIN}/products`]);
    expect(cart.pages!.some((p) => 'pages' in p || 'unexplored' in p)).toBe(false);
    expect(cart.unexplored).toEqual(['/profile']);
    expect(cart.promptPages).toBe(2);
    expect(cart.estimatedTokens).toBeGreaterThan(0);
  });

  it('cuts pages a smaller budget cannot carry', () => {
    expect(startingAt(SITE, `${ORIGIN}/products`, { max_tokens: 20, chars_per_token: 4 })!.promptPages).toBeLessThan(2);
  });

  it('a page the exploration did not reach, another origin or a query of its own is no hit', () => {
    expect(startingAt(SITE, `${ORIGIN}/profile`, BUDGET)).toBeUndefined();
    expect(startingAt(SITE, 'http://localhost:4321/cart', BUDGET)).toBeUndefined();
    expect(startingAt(SITE, `${ORIGIN}/cart?coupon=1`, BUDGET)).toBeUndefined();
    expect(startingAt(SITE, 'not a url', BUDGET)).toBeUndefined();
  });
});

describe('ExploredPages', () => {
  it('reuses an exploration signed in through a storage state (or with no sign-in) for any page it reached, with its sign-in', () => {
    const explored = new ExploredPages();
    expect(explored.from(`${ORIGIN}/cart`, BUDGET)).toBeUndefined();
    explored.add({ inventory: SITE, signIn: STORAGE_STATE });
    expect(explored.from(`${ORIGIN}/cart`, BUDGET)).toMatchObject({ inventory: { url: `${ORIGIN}/cart` }, signIn: STORAGE_STATE });
    expect(explored.from(`${ORIGIN}/profile`, BUDGET)).toBeUndefined();

    const publicSite = new ExploredPages();
    publicSite.add({ inventory: SITE });
    expect(publicSite.from(`${ORIGIN}/products`, BUDGET)).toEqual({ inventory: expect.objectContaining({ url: `${ORIGIN}/products` }) });
  });

  it('keeps no exploration made through the login form or stuck on a sign-in page: there the start page is where the spec signs in', () => {
    const explored = new ExploredPages();
    explored.add({ inventory: SITE, signIn: { method: 'login_form', explored_behind_login: true, message: 'signed in through the login form with the declared credentials' } });
    explored.add({ inventory: SITE, signIn: { method: 'setup_project', explored_behind_login: false, message: '/login still asks to sign in' } });
    explored.add({ inventory: SITE, signIn: { method: 'none', explored_behind_login: false, message: '/login is a sign-in page' } });
    expect(explored.from(`${ORIGIN}/cart`, BUDGET)).toBeUndefined();
    explored.add({ inventory: SITE, signIn: { method: 'setup_project', explored_behind_login: true, message: 'signed in with the storage state the setup project made' } });
    expect(explored.from(`${ORIGIN}/cart`, BUDGET)?.signIn?.method).toBe('setup_project');
  });
});
