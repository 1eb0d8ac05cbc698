import { describe, expect, it } from 'vitest';
import { loadOfflineVocabulary } from '../../src/config/offline.ts';
import type { PageInventory } from '../../src/contracts.ts';
import { planSpec, relativePath, Words } from '../../src/llm/offline-plan.ts';

const vocabulary = loadOfflineVocabulary();

type Entry = PageInventory['testIds'][number];
const entry = (testId: string, tag: string, role: string | null, text: string | null, label: string | null, extra: Partial<Entry> = {}): Entry => ({
  testId, tag, role, text, label, count: 1, visible: true, ...extra,
});

const todos: PageInventory = {
  url: 'http://127.0.0.1:4000/todos?list=home',
  title: 'Todos',
  testIdAttribute: 'data-testid',
  testIds: [
    entry('todos-heading', 'h1', 'heading', 'Todos', null),
    entry('new-todo-input', 'input', 'textbox', null, 'New todo'),
    entry('todo-list', 'ul', 'list', 'Buy milk', 'Todo list'),
    entry('todo-item', 'li', 'listitem', 'Buy milk', null, { count: 2 }),
    entry('todo-toggle', 'input', 'checkbox', null, 'Complete Buy milk', { count: 2 }),
    entry('todo-count', 'p', 'status', '2 items left', null),
  ],
  roles: [],
  fields: [{ type: 'text', label: 'New todo', placeholder: 'What needs doing?', name: 'title', testId: 'new-todo-input' }],
  headings: [],
  links: [],
  truncated: [],
  estimatedTokens: 0,
};

describe('planSpec', () => {
  it('fills the field the request names with the quoted value and submits it with Enter when no control matches', () => {
    const plan = planSpec({ description: "add a todo 'Buy bread' and see it in the list", feature: 'todos', inventory: todos }, vocabulary);
    expect(plan).toEqual({
      kind: 'mapped',
      path: '/todos?list=home',
      fills: [{ locator: { testId: 'new-todo-input' }, name: 'New todo', value: { kind: 'text', text: 'Buy bread' } }],
      click: undefined,
      submitWithEnter: { locator: { testId: 'new-todo-input' }, name: 'New todo', value: { kind: 'text', text: 'Buy bread' } },
      outcome: { locator: { testId: 'todo-list' }, name: 'Todo list', several: false, text: 'Buy bread' },
    });
  });

  it('narrows an outcome several elements carry, by the typed text or by counting', () => {
    const typed = planSpec({ description: 'add a todo "Pay rent" and see the new todo item', feature: 'todos', inventory: todos }, vocabulary);
    expect(typed).toMatchObject({ kind: 'mapped', outcome: { locator: { testId: 'todo-item' }, several: true, text: 'Pay rent' } });
    const counted = planSpec({ description: 'open the todos and see the todo item', feature: 'todos', inventory: todos }, vocabulary);
    expect(counted).toMatchObject({ kind: 'mapped', fills: [], outcome: { locator: { testId: 'todo-item' }, several: true, text: undefined } });
  });

  it('never makes up a value to type: a request that gives none is a smoke test', () => {
    const plan = planSpec({ description: 'add a todo and see the new todo item', feature: 'todos', inventory: todos }, vocabulary);
    expect(plan).toMatchObject({ kind: 'smoke', reason: expect.stringContaining('the request gives no value to type into') });
  });

  it('will not do an action with a field that is not for it', () => {
    const plan = planSpec({ description: 'delete a todo and see the count', feature: 'todos', inventory: todos }, vocabulary);
    expect(plan).toEqual({ kind: 'smoke', path: '/todos?list=home', reason: 'no control on /todos?list=home matches "delete"', key: { locator: { testId: 'todos-heading' }, name: 'Todos' } });
  });

  it('will not click a control several elements carry', () => {
    const plan = planSpec({ description: 'complete a todo and see the count', feature: 'todos', inventory: todos }, vocabulary);
    expect(plan).toMatchObject({ kind: 'smoke', reason: 'no control on /todos?list=home matches "complete"' });
  });

  it('needs an outcome to check', () => {
    expect(planSpec({ description: 'add a todo', feature: 'todos', inventory: todos }, vocabulary)).toMatchObject({
      kind: 'smoke',
      reason: 'the request does not say what should be seen afterwards (for example "... and see the dashboard")',
    });
    expect(planSpec({ description: 'add a todo and see the invoice', feature: 'todos', inventory: todos }, vocabulary)).toMatchObject({
      kind: 'smoke',
      reason: 'nothing on /todos?list=home matches "the invoice"',
    });
  });
});

/** A search page shaped like a real shop's: a heading, a box, a button and a link that all say "Search". */
const search: PageInventory = {
  url: 'http://127.0.0.1:4000/search',
  title: 'Search',
  testIdAttribute: 'data-testid',
  testIds: [
    entry('nav-search', 'a', 'link', 'Search', null),
    entry('search-title', 'h1', 'heading', 'Search', null),
    entry('search-input', 'input', 'textbox', null, 'Search products'),
    entry('search-button', 'button', 'button', 'Search', null),
    entry('search-results', 'ul', 'list', 'Milk — $2.50', null),
  ],
  roles: [],
  fields: [{ type: 'text', label: 'Search products', placeholder: null, name: 'q', testId: 'search-input' }],
  headings: [{ level: 2, text: 'Popular this week' }],
  links: [],
  truncated: [],
  estimatedTokens: 0,
};

describe('planSpec: a value to type comes from the action, never from the outcome', () => {
  it('opens a page and checks the heading the outcome quotes, typing nothing', () => {
    const plan = planSpec({ description: 'open /search and see the heading "Search"', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toEqual({
      kind: 'mapped',
      path: '/search',
      fills: [],
      click: undefined,
      submitWithEnter: undefined,
      outcome: { locator: { testId: 'search-title' }, name: 'Search', several: false, text: 'Search' },
    });
  });

  it('finds a quoted heading without a test id by its role and name', () => {
    const plan = planSpec({ description: 'open /search and see the heading “Popular this week”', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toMatchObject({ kind: 'mapped', fills: [], outcome: { locator: { role: 'heading', name: 'Popular this week' }, text: 'Popular this week' } });
  });

  it('a page path in the request is where the spec starts, not a field to fill', () => {
    const plan = planSpec({ description: 'open /search and see the search results', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toMatchObject({ kind: 'mapped', fills: [], click: undefined, outcome: { locator: { testId: 'search-results' }, text: undefined } });
  });

  it('types the quoted value of the action and expects it, whatever the outcome quotes', () => {
    const plan = planSpec({ description: 'search for "eggs" and see the results "Eggs"', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toMatchObject({
      kind: 'mapped',
      fills: [{ locator: { testId: 'search-input' }, value: { kind: 'text', text: 'eggs' } }],
      click: { locator: { testId: 'search-button' } },
      outcome: { locator: { testId: 'search-results' }, text: 'eggs' },
    });
  });

  it('never types the outcome\'s quoted text: a search without a value of its own is a smoke test', () => {
    const plan = planSpec({ description: 'search and see the heading "Search"', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toMatchObject({ kind: 'smoke', reason: 'the request gives no value to type into "Search products" (put it in quotes: add "Water the plants")' });
  });

  it('will not check a quoted text the page does not show', () => {
    const plan = planSpec({ description: 'open /search and see the heading "Checkout"', feature: 'search', inventory: search }, vocabulary);
    expect(plan).toEqual({ kind: 'smoke', path: '/search', reason: 'nothing on /search shows "Checkout"', key: { locator: { testId: 'search-title' }, name: 'Search' } });
  });
});

describe('Words', () => {
  const words = new Words(vocabulary);

  it('maps phrases and synonyms to canonical words and drops stop words', () => {
    expect(words.tokens('Sign in with your e-mail and look for the results')).toEqual(['login', 'your', 'user', 'search', 'results']);
  });

  it('splits test ids in any case style and drops generic words', () => {
    expect(words.tokens('loginButton', true)).toEqual(['login']);
    expect(words.tokens('new-todo-input', true)).toEqual(['add', 'todo']);
    expect(words.tokens('new-todo-input')).toEqual(['add', 'todo', 'input']);
  });
});

describe('relativePath', () => {
  it('keeps the path, query and hash, never the origin', () => {
    expect(relativePath('http://127.0.0.1:4000/login?next=%2F#form')).toBe('/login?next=%2F#form');
    expect(relativePath('http://127.0.0.1:4000')).toBe('/');
    expect(relativePath(undefined)).toBe('/');
    expect(relativePath('not a url')).toBe('/');
  });
});
