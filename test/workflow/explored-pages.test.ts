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

describe('ExploredPages.exploration', () => {
  /** An exploration of SITE that finishes when `done` is called, counting how often it was started. */
  function deferredExploration(inventory: PageInventory = SITE) {
    let started = 0;
    let finish: () => void = () => {};
    let fail: (error: Error) => void = () => {};
    const explore = () => {
      started += 1;
      return new Promise<{ inventory: PageInventory; signIn: ExploreSignIn }>((resolve, reject) => {
        finish = () => resolve({ inventory, signIn: STORAGE_STATE });
        fail = reject;
      });
    };
    return { explore, started: () => started, finish: () => finish(), fail: (error: Error) => fail(error) };
  }
  const never = () => Promise.reject(new Error('explored where it should have waited or reused'));

  it('two generations asking at once get one exploration: the second waits for it and is grounded at its own page', async () => {
    const explored = new ExploredPages();
    const first = deferredExploration();
    const asking = explored.exploration(`${ORIGIN}/`, BUDGET, first.explore);
    const waiting = explored.exploration(`${ORIGIN}/cart`, BUDGET, never);
    await new Promise((resolve) => setTimeout(resolve, 10));
    first.finish();
    const [own, reused] = await Promise.all([asking, waiting]);
    expect(first.started()).toBe(1);
    expect(own).toMatchObject({ reused: false, exploration: { inventory: { url: `${ORIGIN}/` } } });
    expect(reused).toMatchObject({ reused: true, exploration: { inventory: { url: `${ORIGIN}/cart` }, signIn: STORAGE_STATE } });
  });

  it('a page the exploration under way does not reach is explored after it; one of another origin does not wait', async () => {
    const explored = new ExploredPages();
    const first = deferredExploration();
    const asking = explored.exploration(`${ORIGIN}/`, BUDGET, first.explore);
    const profile = deferredExploration({ ...page('/profile', ['profile-name']) });
    const waiting = explored.exploration(`${ORIGIN}/profile`, BUDGET, profile.explore);
    const other = deferredExploration({ ...page('/', ['elsewhere']), url: 'http://localhost:9999/' });
    const elsewhere = explored.exploration('http://localhost:9999/', BUDGET, other.explore);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([first.started(), profile.started(), other.started()]).toEqual([1, 0, 1]);
    other.finish();
    first.finish();
    await asking;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(profile.started()).toBe(1);
    profile.finish();
    expect(await waiting).toMatchObject({ reused: false, exploration: { inventory: { url: `${ORIGIN}/profile` } } });
    expect(await elsewhere).toMatchObject({ reused: false });
  });

  it('a failed exploration fails only its own generation: the one waiting explores for itself', async () => {
    const explored = new ExploredPages();
    const first = deferredExploration();
    const asking = explored.exploration(`${ORIGIN}/`, BUDGET, first.explore);
    const second = deferredExploration();
    const waiting = explored.exploration(`${ORIGIN}/`, BUDGET, second.explore);
    await new Promise((resolve) => setTimeout(resolve, 10));
    first.fail(new Error('net::ERR_CONNECTION_REFUSED'));
    await expect(asking).rejects.toThrow('ERR_CONNECTION_REFUSED');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(second.started()).toBe(1);
    second.finish();
    expect(await waiting).toMatchObject({ reused: false });
  });

  it('a generation cancelled while it waits stops waiting', async () => {
    const explored = new ExploredPages();
    const first = deferredExploration();
    const asking = explored.exploration(`${ORIGIN}/`, BUDGET, first.explore);
    const controller = new AbortController();
    const waiting = explored.exploration(`${ORIGIN}/cart`, BUDGET, never, controller.signal);
    controller.abort(new Error('stopped by SIGTERM'));
    await expect(waiting).rejects.toThrow('stopped by SIGTERM');
    first.finish();
    await asking;
  });
});
