/**
 * How the offline generator understands a request without a language model: it splits the request
 * into what the user does and what they should then see, and matches both onto the explored page by
 * words (agents/offline.yaml). What it cannot match it reports, rather than guessing.
 */
import type { OfflineVocabulary } from '../config/offline.ts';
import type { PageInventory } from '../contracts.ts';
import { withoutPagePaths } from '../util/page-paths.ts';
import type { GenerationTask } from './types.ts';

type TestIdEntry = PageInventory['testIds'][number];
type RoleEntry = PageInventory['roles'][number];
type Field = PageInventory['fields'][number];

/**
 * How the spec finds an element: by its test id where it has one, else by Playwright's locator ladder
 * (role and accessible name, then label, then placeholder), as require-testid-selectors accepts.
 */
export type Locator = { testId: string } | { role: string; name: string } | { label: string } | { placeholder: string };

/** Where a typed value comes from: an environment variable (credentials) or the request itself. */
export type FillValue = { kind: 'username' } | { kind: 'password' } | { kind: 'wrong-password' } | { kind: 'text'; text: string };

export interface Target {
  locator: Locator;
  /** How people see the element: its label or text, else its test id. */
  name: string;
}

export interface Fill extends Target {
  value: FillValue;
}

export interface Outcome extends Target {
  /** Several elements carry the test id: the check narrows by the typed text, or counts them. */
  several: boolean;
  /** Text the outcome should contain: what the user typed, else what the request quotes of the outcome (never a credential). */
  text: string | undefined;
}

export interface MappedPlan {
  kind: 'mapped';
  path: string;
  fills: Fill[];
  /** The control clicked; without one, the last field is submitted with Enter. */
  click: Target | undefined;
  submitWithEnter: Target | undefined;
  outcome: Outcome;
}

export interface SmokePlan {
  kind: 'smoke';
  path: string;
  /** Why the request could not be mapped, in words for the user. */
  reason: string;
  /** The element the smoke test expects to see, or the page title. */
  key: Target | { title: string } | undefined;
}

export type Plan = MappedPlan | SmokePlan;

const FILLABLE_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'number', 'textarea', '']);
const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option']);
const QUOTED = /["“'‘]([^"”'’]+)["”'’]/;
const AFTER_FOR = /\bfor\s+(.+?)(?:\s+(?:and|with|then|in|on)\b|[,.;]|$)/i;

/** Maps the request onto the page, or says why it cannot. */
export function planSpec(task: GenerationTask, vocabulary: OfflineVocabulary): Plan {
  const words = new Words(vocabulary);
  const inventory = task.inventory;
  const path = relativePath(inventory?.url ?? task.url);
  if (!inventory) return { kind: 'smoke', path, reason: 'no page was explored (give a URL with --url or BASE_URL so Scribe can see the page)', key: undefined };
  const smoke = (reason: string): SmokePlan => ({ kind: 'smoke', path, reason, key: keyElement(inventory) });

  const { action, outcome } = splitRequest(task.description, words);
  if (outcome === undefined || words.tokens(outcome).length === 0) {
    return smoke('the request does not say what should be seen afterwards (for example "... and see the dashboard")');
  }
  // A value to type comes from what the user does, never from what they should see ("see the heading \"Search\"").
  const typed = typedValue(action);
  const actionText = withoutPagePaths(typed ? action.replace(typed, ' ') : action);
  const actionWords = new Set(words.tokens(actionText));
  const verbs = new Set([...actionWords].filter((w) => words.isAction(w)));

  const fills = [...credentialFills(inventory, words, action, actionWords), ...textFills(inventory, words, actionWords, typed ?? '')];
  const used = new Set(fills.map((f) => locatorKey(f.locator)));
  const click = chooseControl(inventory, words, verbs, actionWords, used);
  // Without a control for the request's action, Enter in a field can do it only if the field is for that action.
  if (!click && verbs.size > 0 && !fills.some((fill) => fieldServes(fill, verbs, words))) {
    return smoke(`no control on ${path} matches "${[...verbs].join('", "')}"`);
  }
  if (click) used.add(locatorKey(click.locator));

  const shown = typed === undefined ? QUOTED.exec(outcome)?.[1]?.trim() || undefined : undefined;
  const target = chooseOutcome(inventory, words, new Set(words.tokens(outcome)), used, shown);
  if (!target) return smoke(shown === undefined ? `nothing on ${path} matches "${outcome.trim()}"` : `nothing on ${path} shows "${shown}"`);
  // Only values the request gives are typed and expected: one made up here would be asserted, and its
  // failure blamed on the app.
  const untyped = typed === undefined ? fills.find((f) => f.value.kind === 'text') : undefined;
  if (untyped) return smoke(`the request gives no value to type into "${untyped.name}" (put it in quotes: add "Water the plants")`);
  const text = typed ?? shown;
  return {
    kind: 'mapped',
    path,
    fills,
    click,
    submitWithEnter: click ? undefined : fills.at(-1),
    outcome: { ...target, text },
  };
}

/** The path of a URL relative to its origin; specs navigate relatively (baseURL comes from config). */
export function relativePath(url: string | undefined): string {
  if (!url || !URL.canParse(url)) return '/';
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}${parsed.hash}` || '/';
}

function splitRequest(description: string, words: Words): { action: string; outcome: string | undefined } {
  const marker = words.outcomeMarker(description);
  if (!marker) return { action: description, outcome: undefined };
  return { action: description.slice(0, marker.index), outcome: description.slice(marker.index + marker.length) };
}

/** A value the action part of the request gives: in quotes, or after "for" ("search for playwright"). */
function typedValue(action: string): string | undefined {
  const quoted = QUOTED.exec(action)?.[1]?.trim();
  if (quoted) return quoted;
  return AFTER_FOR.exec(action)?.[1]?.trim() || undefined;
}

function credentialFills(inventory: PageInventory, words: Words, action: string, actionWords: ReadonlySet<string>): Fill[] {
  if (![...actionWords].some((w) => words.isCredentialWord(w))) return [];
  const password = inventory.fields.find((f) => f.type === 'password' && fieldLocator(inventory, f));
  if (!password) return [];
  const username = inventory.fields.find((f) => (f.type === 'text' || f.type === 'email') && fieldLocator(inventory, f) && fieldWords(f, words).has('user'));
  const wrong = words.raw(action).some((w) => words.isWrongValueWord(w));
  const fills: Fill[] = [];
  if (username) fills.push({ locator: fieldLocator(inventory, username)!, name: fieldName(username), value: { kind: 'username' } });
  fills.push({ locator: fieldLocator(inventory, password)!, name: fieldName(password), value: { kind: wrong ? 'wrong-password' : 'password' } });
  return fills;
}

function textFills(inventory: PageInventory, words: Words, actionWords: ReadonlySet<string>, typed: string): Fill[] {
  const fills: Fill[] = [];
  // A username field is the credentials' to fill; on a form without a password, an email field is just a field.
  const signIn = inventory.fields.some((f) => f.type === 'password');
  for (const field of inventory.fields) {
    const locator = FILLABLE_TYPES.has(field.type) ? fieldLocator(inventory, field) : undefined;
    if (!locator) continue;
    const own = fieldWords(field, words);
    if ((signIn && own.has('user')) || !overlaps(own, actionWords)) continue;
    fills.push({ locator, name: fieldName(field), value: { kind: 'text', text: typed } });
  }
  return fills;
}

/** The control whose words name an action of the request; visible ones first, then the best match. */
function chooseControl(inventory: PageInventory, words: Words, verbs: ReadonlySet<string>, actionWords: ReadonlySet<string>, used: ReadonlySet<string>): Target | undefined {
  let best: { target: Target; score: number[] } | undefined;
  const consider = (target: Target, own: Set<string>, visible: boolean, hasTestId: boolean, isButton: boolean) => {
    const verbMatches = count(own, verbs);
    if (verbMatches === 0 || used.has(locatorKey(target.locator))) return;
    // Visible first, then the best match; a button before a link that says the same (the form's "Search",
    // not the menu's); an element with a test id before one found by its role.
    const score = [visible ? 1 : 0, verbMatches, count(own, actionWords), isButton ? 1 : 0, hasTestId ? 1 : 0];
    if (!best || compare(score, best.score) > 0) best = { target, score };
  };
  for (const entry of inventory.testIds) {
    if (entry.count === 1 && isControl(entry)) consider({ locator: { testId: entry.testId }, name: nameOf(entry) }, elementWords(entry, words), entry.visible !== false, true, entry.role === 'button' || entry.tag === 'button');
  }
  for (const entry of ladderRoles(inventory)) {
    if (CONTROL_ROLES.has(entry.role)) consider({ locator: { role: entry.role, name: entry.name }, name: entry.name }, new Set(words.tokens(entry.name)), true, false, entry.role === 'button');
  }
  return best?.target;
}

/**
 * The element the outcome names: matches in its test id count double; the most specific id wins ties.
 * When the outcome quotes a text, only an element showing it will do, one of the kind named first
 * ("the heading \"Search\"").
 */
function chooseOutcome(inventory: PageInventory, words: Words, outcomeWords: ReadonlySet<string>, used: ReadonlySet<string>, shown: string | undefined): Omit<Outcome, 'text'> | undefined {
  let best: { outcome: Omit<Outcome, 'text'>; score: number[] } | undefined;
  const showing = (text: string, role: string | null) => (shown === undefined ? 0 : !text.toLowerCase().includes(shown.toLowerCase()) ? -1 : role !== null && outcomeWords.has(role) ? 2 : 1);
  for (const entry of inventory.testIds) {
    if (used.has(locatorKey({ testId: entry.testId }))) continue;
    const idWords = new Set(words.tokens(entry.testId, true));
    const matches = 2 * count(idWords, outcomeWords) + count(new Set(words.tokens(`${entry.text ?? ''} ${entry.label ?? ''}`)), outcomeWords);
    const shows = showing(`${entry.text ?? ''} ${entry.label ?? ''}`, entry.role);
    if (matches === 0 || shows < 0) continue;
    const score = [shows, matches, 1, -idWords.size];
    if (!best || compare(score, best.score) > 0) best = { outcome: { locator: { testId: entry.testId }, name: nameOf(entry), several: entry.count > 1 }, score };
  }
  for (const entry of ladderRoles(inventory)) {
    const locator = { role: entry.role, name: entry.name };
    if (used.has(locatorKey(locator)) || CONTROL_ROLES.has(entry.role) || entry.role === 'textbox') continue;
    const own = new Set(words.tokens(`${entry.role} ${entry.name}`));
    const matches = count(own, outcomeWords);
    const shows = showing(entry.name, entry.role);
    if (matches === 0 || shows < 0) continue;
    const score = [shows, matches, 0, -own.size];
    if (!best || compare(score, best.score) > 0) best = { outcome: { locator, name: entry.name, several: false }, score };
  }
  return best?.outcome;
}

/** What a smoke test expects to see: a visible heading with a test id, else any visible single element, else the title. */
function keyElement(inventory: PageInventory): SmokePlan['key'] {
  const single = inventory.testIds.filter((e) => e.count === 1 && e.visible !== false);
  const key = single.find((e) => e.role === 'heading') ?? single[0];
  if (key) return { locator: { testId: key.testId }, name: nameOf(key) };
  const heading = ladderRoles(inventory).find((e) => e.role === 'heading');
  if (heading) return { locator: { role: 'heading', name: heading.name }, name: heading.name };
  return inventory.title ? { title: inventory.title } : undefined;
}

/** Whether submitting this field does one of the actions: a search box for "search", credentials for "log in". */
function fieldServes(fill: Fill, verbs: ReadonlySet<string>, words: Words): boolean {
  if (fill.value.kind !== 'text') return [...verbs].some((verb) => words.isCredentialWord(verb));
  return overlaps(new Set(words.tokens(`${'testId' in fill.locator ? fill.locator.testId : ''} ${fill.name}`, true)), verbs);
}

function usable(inventory: PageInventory, testId: string | null): boolean {
  return testId !== null && inventory.testIds.some((e) => e.testId === testId && e.count === 1);
}

/** A field by its test id; without one, by its label, else its placeholder, when that names it alone. */
function fieldLocator(inventory: PageInventory, field: Field): Locator | undefined {
  if (field.testId !== null) return usable(inventory, field.testId) ? { testId: field.testId } : undefined;
  if (field.label && inventory.fields.filter((f) => f.label === field.label).length === 1) return { label: field.label };
  if (field.placeholder && inventory.fields.filter((f) => f.placeholder === field.placeholder).length === 1) return { placeholder: field.placeholder };
  return undefined;
}

function fieldName(field: Field): string {
  return field.label ?? field.placeholder ?? field.testId ?? field.type;
}

/** Named elements that carry no test id and are the only one of their role and name: the ladder's candidates. */
function ladderRoles(inventory: PageInventory): RoleEntry[] {
  const withTestId = (entry: RoleEntry) => inventory.testIds.some((e) => e.role === entry.role && (e.label ?? e.text ?? '').trim() === entry.name.trim());
  const headings = inventory.headings.map((h) => ({ role: 'heading', name: h.text, count: inventory.headings.filter((o) => o.text === h.text).length }));
  return [...inventory.roles, ...headings].filter((entry) => entry.count === 1 && entry.name.trim() !== '' && !withTestId(entry));
}

export function locatorKey(locator: Locator): string {
  return JSON.stringify(locator);
}

function isControl(entry: TestIdEntry): boolean {
  return (entry.role !== null && CONTROL_ROLES.has(entry.role)) || entry.tag === 'button' || entry.tag === 'a';
}

function nameOf(entry: TestIdEntry): string {
  return entry.label ?? entry.text ?? entry.testId;
}

function elementWords(entry: TestIdEntry, words: Words): Set<string> {
  return new Set([...words.tokens(entry.testId, true), ...words.tokens(entry.text ?? ''), ...words.tokens(entry.label ?? '')]);
}

function fieldWords(field: PageInventory['fields'][number], words: Words): Set<string> {
  return new Set([field.testId ?? '', field.label ?? '', field.placeholder ?? '', field.name ?? ''].flatMap((text) => words.tokens(text, true)));
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return count(a, b) > 0;
}

function count(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  return [...a].filter((w) => b.has(w)).length;
}

/** Lexicographic comparison of scores. */
function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The vocabulary as lookups: phrases and synonyms to canonical words, stop and generic words dropped. */
export class Words {
  private readonly canonical = new Map<string, string>();
  private readonly phrases: Array<{ pattern: RegExp; word: string }> = [];
  private readonly actions: ReadonlySet<string>;
  private readonly stop: ReadonlySet<string>;
  private readonly generic: ReadonlySet<string>;
  private readonly credential: ReadonlySet<string>;
  private readonly wrongValue: ReadonlySet<string>;
  private readonly markers: RegExp;

  constructor(vocabulary: OfflineVocabulary) {
    this.actions = new Set(Object.keys(vocabulary.actions));
    for (const [word, synonyms] of [...Object.entries(vocabulary.actions), ...Object.entries(vocabulary.synonyms)]) {
      for (const synonym of [word, ...synonyms]) {
        const parts = this.raw(synonym);
        if (parts.length > 1) this.phrases.push({ pattern: new RegExp(`\\b${parts.map(escapeRegExp).join(' ')}\\b`, 'g'), word });
        else if (parts[0]) this.canonical.set(parts[0], word);
      }
    }
    // Longer phrases first, so "look for" is not read as "look" and "for".
    this.phrases.sort((a, b) => b.pattern.source.length - a.pattern.source.length);
    this.stop = new Set(vocabulary.stop_words);
    this.generic = new Set(vocabulary.generic_words);
    this.credential = new Set(vocabulary.credential_words.map((w) => this.canonical.get(w) ?? w));
    this.wrongValue = new Set(vocabulary.wrong_value_words);
    this.markers = new RegExp(`\\b(?:${vocabulary.outcome_markers.map(escapeRegExp).join('|')})\\b`, 'i');
  }

  /** Lower-case words of a text (or a test id: `loginButton`, `login-button`), before any mapping. */
  raw(text: string): string[] {
    return text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  }

  /** Canonical words: phrases and synonyms mapped, stop words (and for test ids, generic words) dropped. */
  tokens(text: string, isTestId = false): string[] {
    let spaced = this.raw(text).join(' ');
    for (const { pattern, word } of this.phrases) spaced = spaced.replace(pattern, word);
    return spaced
      .split(' ')
      .filter(Boolean)
      .map((w) => this.canonical.get(w) ?? w)
      .filter((w) => !this.stop.has(w) && !(isTestId && this.generic.has(w)));
  }

  outcomeMarker(text: string): { index: number; length: number } | undefined {
    const match = this.markers.exec(text);
    return match ? { index: match.index, length: match[0].length } : undefined;
  }

  isAction(word: string): boolean {
    return this.actions.has(word);
  }

  isCredentialWord(word: string): boolean {
    return this.credential.has(word);
  }

  isWrongValueWord(word: string): boolean {
    return this.wrongValue.has(word);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
