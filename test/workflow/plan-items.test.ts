/** A plan's scenarios as batch items (batch.ts planItems): the page resolved against the app, the feature the plan's or the page's. */
import { describe, expect, it } from 'vitest';
import { pageFeature, planItems } from '../../src/workflow/batch.ts';
import { TestPlan } from '../../src/workflow/plan-file.ts';

const plan = TestPlan.parse({
  version: 1,
  app: 'http://127.0.0.1:4400',
  planner: 'offline',
  unreachable: [],
  tokens: 0,
  scenarios: [
    { request: 'open /cart and see the heading "Cart"', page: '/cart', steps: ['open /cart'], expected: 'the heading "Cart" is shown' },
    { request: 'open / and see the heading "Welcome"', page: '/', steps: ['open /'], expected: 'the heading "Welcome" is shown' },
    { request: 'change the display name', page: '/account/profile', steps: [], expected: '"Saved" is shown', feature: 'Profile' },
  ],
});

describe('planItems', () => {
  it("groups a plan's specs by page when a scenario names no feature, and keeps the one it names", () => {
    expect(planItems(plan).map((item) => item.request)).toEqual([
      { description: 'open /cart and see the heading "Cart"', feature: 'cart', url: 'http://127.0.0.1:4400/cart' },
      { description: 'open / and see the heading "Welcome"', feature: 'home', url: 'http://127.0.0.1:4400/' },
      { description: 'change the display name', feature: 'Profile', url: 'http://127.0.0.1:4400/account/profile' },
    ]);
  });

  it("names a page's feature by its path's first segment, without a file extension", () => {
    expect(['/', '/app', '/cart?x=1', '/products/42', '/search.html', '/docs/intro#top', 'https://shop.test/settings/profile'].map(pageFeature)).toEqual(['home', 'app', 'cart', 'products', 'search', 'docs', 'settings']);
  });
});
