/**
 * The compact text form of a page inventory that prompts carry: one line per entry, most useful kinds
 * first. The size cap (inventory.ts) measures exactly these lines, so what is rendered is what was budgeted.
 *
 * Everything read from a page is the app's content, which may be written to address a model: each text
 * is quoted (a JSON string: no line breaks of its own), a test id or name that is not a plain token is
 * quoted too, and neither can close the <app-content> block the prompts (agents/scribe.yaml) put it in.
 */
import type { PageInventory } from '../contracts.ts';

export type InventoryListKey = 'testIds' | 'fields' | 'roles' | 'headings' | 'links';

export interface InventorySection {
  key: InventoryListKey;
  /** How cut entries are counted in `truncated` ("1 test id", "310 test ids"). */
  noun: { one: string; many: string };
  title(inventory: PageInventory): string;
  lines(inventory: PageInventory): string[];
}

/** In order of usefulness: the size cap keeps entries from the top. */
export const INVENTORY_SECTIONS: readonly InventorySection[] = [
  {
    key: 'testIds',
    noun: { one: 'test id', many: 'test ids' },
    title: (inventory) => `Test ids (attribute ${inventory.testIdAttribute}; select with page.getByTestId):`,
    lines: (inventory) =>
      inventory.testIds.map((entry) => {
        const kind = entry.role && entry.role !== entry.tag ? `${entry.tag} ${entry.role}` : entry.tag;
        const details = [kind, quoted('text', entry.text), quoted('label', entry.label), entry.visible === false ? 'hidden' : null];
        return `- ${token(entry.testId)}${times(entry.count)}: ${joined(details)}`;
      }),
  },
  {
    key: 'fields',
    noun: { one: 'form field', many: 'form fields' },
    title: () => 'Form fields:',
    lines: (inventory) =>
      inventory.fields.map((field) =>
        `- ${joined([field.type, quoted('label', field.label), quoted('placeholder', field.placeholder), field.name && `name ${token(field.name)}`, field.testId && `test id ${token(field.testId)}`])}`,
      ),
  },
  {
    key: 'roles',
    noun: { one: 'role', many: 'roles' },
    title: () => 'Roles with accessible names (an element in the test id list above must be selected by its test id; the others by getByRole with the name):',
    lines: (inventory) => inventory.roles.map((entry) => `- ${token(entry.role)} ${text(entry.name)}${times(entry.count)}`),
  },
  {
    key: 'headings',
    noun: { one: 'heading', many: 'headings' },
    title: () => 'Headings:',
    lines: (inventory) => inventory.headings.map((heading) => `- h${heading.level} ${text(heading.text)}`),
  },
  {
    key: 'links',
    noun: { one: 'link', many: 'links' },
    title: () => 'Links:',
    lines: (inventory) =>
      inventory.links.map((link) => `- ${text(link.text)} -> ${token(link.href)}${link.testId ? ` (test id ${token(link.testId)})` : ''}`),
  },
];

export function headerLine(inventory: PageInventory): string {
  return `Page ${text(inventory.title)} at ${token(inventory.url)}`;
}

export function truncatedLine(inventory: PageInventory): string | undefined {
  return inventory.truncated.length > 0 ? `Cut for size: ${inventory.truncated.join(', ')}` : undefined;
}

/** The inventory as prompt text. */
export function renderInventory(inventory: PageInventory): string {
  const out = [headerLine(inventory)];
  for (const section of INVENTORY_SECTIONS) {
    const lines = section.lines(inventory);
    if (lines.length > 0) out.push(section.title(inventory), ...lines);
  }
  const cut = truncatedLine(inventory);
  if (cut) out.push(cut);
  return out.join('\n');
}

function quoted(name: string, value: string | null): string | null {
  return value ? `${name} ${text(value)}` : null;
}

/** Page text as a JSON string, with `<` escaped so it cannot close or open a block of the prompt. */
export function text(value: string): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

/** A test id, name or URL as it is when it is a plain token (what a locator needs), else quoted like text. */
function token(value: string): string {
  return /^[\w.:/?#=&%@+~,;!$*()[\]'-]+$/.test(value) ? value : text(value);
}

/** Text of the app (a page snapshot) made unable to close the prompt's <app-content> block. */
export function appContent(value: string): string {
  return value.replace(/<(\/?)(app-content)/gi, '\u2039$1$2');
}

function times(count: number): string {
  return count > 1 ? ` (x${count})` : '';
}

function joined(parts: ReadonlyArray<string | null | undefined>): string {
  return parts.filter((part): part is string => Boolean(part)).join(', ');
}

/** "1 test id", "310 test ids": an entry of `truncated`. */
export function cutNote(section: InventorySection, count: number): string {
  return `${count} ${count === 1 ? section.noun.one : section.noun.many}`;
}

/** Whether entries of a kind were left out (by the size cap or the scan limit), so its list is incomplete. */
export function wasCut(inventory: PageInventory, key: InventoryListKey): boolean {
  const section = INVENTORY_SECTIONS.find((s) => s.key === key);
  const nouns = section ? [section.noun.one, section.noun.many] : [];
  return inventory.truncated.some((entry) => nouns.includes(entry.replace(/^\d+ /, '')));
}

// --- the site: the start page in full, the other explored pages compactly -----------------------------

/** The roles with names on a page whose element carries no test id (what Playwright's locator ladder is for). */
export function rolesWithoutTestId(inventory: PageInventory): PageInventory['roles'] {
  const withId = new Set(inventory.testIds.flatMap((entry) => (entry.role ? [`${entry.role} ${entry.label ?? entry.text ?? ''}`] : [])));
  return inventory.roles.filter((entry) => !withId.has(`${entry.role} ${entry.name}`));
}

/** One explored page beyond the start page, in a few lines: its path, title, test ids and the named elements without one. */
export function compactPageLines(inventory: PageInventory): string[] {
  const path = URL.canParse(inventory.url) ? `${new URL(inventory.url).pathname}${new URL(inventory.url).search}` : inventory.url;
  const ids = inventory.testIds.map((entry) => {
    const name = entry.label ?? entry.text;
    const what = [entry.role ?? entry.tag, name ? text(name) : null].filter(Boolean).join(' ');
    return `${token(entry.testId)}${times(entry.count)} (${what})`;
  });
  const fields = inventory.fields.filter((field) => !field.testId).map((field) => `${field.type} ${text(field.label ?? field.placeholder ?? field.name ?? '')}`);
  const others = rolesWithoutTestId(inventory).map((entry) => `${token(entry.role)} ${text(entry.name)}${times(entry.count)}`);
  const lines = [`Page ${text(inventory.title)} at ${token(path)}`];
  if (ids.length > 0) lines.push(`  test ids: ${ids.join(', ')}`);
  if (fields.length > 0) lines.push(`  fields without test id: ${fields.join(', ')}`);
  if (others.length > 0) lines.push(`  named elements without test id (use getByRole/getByLabel/getByText): ${others.join(', ')}`);
  if (inventory.truncated.length > 0) lines.push(`  cut for size: ${inventory.truncated.join(', ')}`);
  return lines;
}

/** What the prompt says about the site beyond the start page: the pages kept, and the ones cut or not explored. */
export function renderSitePages(inventory: PageInventory, keptPages: number): string[] {
  const pages = inventory.pages ?? [];
  if (pages.length === 0 && (inventory.unexplored ?? []).length === 0) return [];
  const out = ['', 'Other pages of the site (explored from the start page):'];
  for (const page of pages.slice(0, keptPages)) out.push(...compactPageLines(page));
  const cut = pages.slice(keptPages).map((page) => new URL(page.url).pathname);
  if (cut.length > 0) out.push(`Pages explored but cut for size: ${cut.join(', ')}`);
  const unexplored = inventory.unexplored ?? [];
  if (unexplored.length > 0) out.push(`Pages linked but not explored (the run checks ids used there): ${unexplored.join(', ')}`);
  return out;
}

/** The whole site as prompt text. */
export function renderSite(inventory: PageInventory): string {
  return [renderInventory(inventory), ...renderSitePages(inventory, inventory.promptPages ?? inventory.pages?.length ?? 0)].join('\n');
}

/**
 * Fits a site inventory into the one token budget: the start page (already capped on its own) first,
 * then whole pages in the order explored; the pages that do not fit are dropped from the prompt and named.
 */
export function capSite(inventory: PageInventory, settings: { max_tokens: number; chars_per_token: number }): PageInventory {
  const budget = settings.max_tokens * settings.chars_per_token;
  const pages = inventory.pages ?? [];
  let kept = pages.length;
  let text = [renderInventory(inventory), ...renderSitePages(inventory, kept)].join('\n');
  while (kept > 0 && text.length > budget) {
    kept--;
    text = [renderInventory(inventory), ...renderSitePages(inventory, kept)].join('\n');
  }
  return { ...inventory, promptPages: kept, estimatedTokens: Math.ceil(text.length / settings.chars_per_token) };
}
