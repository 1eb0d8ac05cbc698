/**
 * The offline planner's scenarios: what the pages show, phrased so the offline generator can write each
 * (a page to open, an outcome to see, nothing to type), and nothing it cannot do honestly.
 */
import { describe, expect, it } from 'vitest';
import type { PageInventory } from '../../src/contracts.ts';
import { offlineScenarios } from '../../src/workflow/plan.ts';

type Entry = PageInventory['testIds'][number];
const entry = (testId: string, tag: string, text: string | null, extra: Partial<Entry> = {}): Entry => ({ testId, tag, role: null, text, label: null, count: 1, visible: true, ...extra });
const page = (path: string, testIds: Entry[], headings: PageInventory['headings']): PageInventory => ({
  url: `http://127.0.0.1:4000${path}`, title: path, testIdAttribute: 'data-testid', testIds, roles: [], fields: [], headings, links: [], truncated: [], estimatedTokens: 0,
});

const pages = [
  page('/', [entry('intro', 'p', 'Fresh food, delivered.')], [{ level: 1, text: 'Welcome' }]),
  page('/orders', [entry('order-table', 'table', 'Order 1 Order 2'), entry('order-error', 'p', 'Could not load older orders', { role: 'alert' })], [{ level: 2, text: 'Your orders' }]),
  page('/search', [entry('search-results', 'ul', ''), entry('hint', 'p', 'Type a "name" to search')], [{ level: 1, text: "Ada's search" }]),
];

describe('offlineScenarios', () => {
  it('reads headings, lists with items and shown errors, then each page\'s first text', () => {
    expect(offlineScenarios(pages).map((s) => s.request)).toEqual([
      'open / and see the heading "Welcome"',
      'open /orders and see the heading "Your orders"',
      'open /orders and see the order table',
      'open /orders and see the error "Could not load older orders"',
      'open / and see "Fresh food, delivered."',
    ]);
  });

  it('leaves out a list with no items and a text it could not quote whole; asks to type nothing', () => {
    const requests = offlineScenarios(pages).map((s) => s.request);
    expect(requests.some((r) => r.includes('/search'))).toBe(false);
    for (const scenario of offlineScenarios(pages)) expect(scenario.steps).toEqual([`open ${scenario.page}`]);
  });
});
