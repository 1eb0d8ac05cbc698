/**
 * Scribe's prompts: the templates of agents/scribe.yaml filled with the criteria of agents/critic.yaml,
 * the request, and the page inventory (in the compact form whose size the explorer budgeted); and the
 * feedback that sends an attempt back.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ASYNC_MATCHERS, LOCATOR_FACTORIES, NAVIGATIONS, USER_ACTIONS } from '../analysis/playwright-api.ts';
import type { CriticConfig } from '../config/critic.ts';
import { renderTemplate, type ScribeConfig } from '../config/scribe.ts';
import type { Issue, PageInventory, ProjectStyle } from '../contracts.ts';
import { renderSite } from '../explore/render.ts';
import type { ChatMessage } from '../llm/types.ts';
import type { ResolvedRequest } from './request.ts';

/** How many messages initialMessages makes: the prompt that presents the page, before any attempt's evidence. */
export const INITIAL_MESSAGES = 2;

/** The first two messages of every attempt: what to write (grounded in the explored site, if any) and the criteria it must meet. */
export function initialMessages(config: ScribeConfig, critic: CriticConfig, request: ResolvedRequest, site: PageInventory | undefined, style?: ProjectStyle): ChatMessage[] {
  const system = renderTemplate(config.prompts.system, { criteria: renderCriteria(critic), test_id_attribute: critic.testIdAttribute, credentials: renderCredentials(critic, config.prompts.no_credentials) });
  const inventory = site ? renderTemplate(config.prompts.inventory, { url: site.url, title: site.title, elements: renderSite(site) }) : '';
  const project = style ? renderProjectStyle(config, style, path.dirname(request.file)) : '';
  const user = renderTemplate(config.prompts.user, { request: request.description, feature: request.feature, complexity: request.complexity, inventory, project });
  return [
    { role: 'system', content: system.trim() },
    { role: 'user', content: collapseBlankLines(user).trim() },
  ];
}

/**
 * The project's fixtures modules and page objects, each by the import path a spec in `specDir` uses, with its
 * exported members; and the seed spec to follow. Empty when the project has none (or the prompts no template).
 */
export function renderProjectStyle(config: ScribeConfig, style: ProjectStyle, specDir: string): string {
  if (!config.prompts.project || (style.modules.length === 0 && !style.seed)) return '';
  const modules = style.modules.map((m) => `- import { … } from '${importPath(specDir, m.file)}'  (${m.kind}): ${m.members.join(', ')}`).join('\n');
  const seed = style.seed && config.prompts.project_seed ? renderTemplate(config.prompts.project_seed, { file: style.seed.file, seed: style.seed.text.trimEnd() }) : '';
  return renderTemplate(config.prompts.project, { modules, seed });
}

/** A relative import from `fromDir`, without a TypeScript extension (Playwright resolves it). */
export function importPath(fromDir: string, file: string): string {
  const relative = path.relative(fromDir, file).split(path.sep).join('/').replace(/\.(ts|mts|cts)$/, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

export interface Rejection {
  /** What the model is shown as its previous attempt: the autofixed code, or the answer that held none. */
  previous: string;
  /** The code's lines, for quoting the offending one (undefined when the answer held no code). */
  code: string | undefined;
  issues: readonly Issue[];
  autofixedRules: readonly string[];
  nextAttempt: number;
  maxAttempts: number;
}

/** The conversation for the next attempt: the request, the previous attempt, and what was wrong with it. */
export function feedbackMessages(config: ScribeConfig, initial: readonly ChatMessage[], rejection: Rejection): ChatMessage[] {
  const issues = describeErrors(rejection.issues, rejection.code).map((text) => `- ${text}`);
  const autofixed = rejection.autofixedRules.length > 0 ? `: ${[...new Set(rejection.autofixedRules)].join(', ')}` : '';
  const feedback = renderTemplate(config.prompts.feedback, {
    attempt: String(rejection.nextAttempt),
    max_attempts: String(rejection.maxAttempts),
    issues: issues.join('\n'),
    autofixed,
  });
  const previous = rejection.code === undefined ? rejection.previous : `\`\`\`typescript\n${rejection.previous.trimEnd()}\n\`\`\``;
  return [...initial, { role: 'assistant', content: previous }, { role: 'user', content: feedback.trim() }];
}

/** Each error-level issue as `[rule] line N: message`, the offending line of the code quoted under it. */
export function describeErrors(issues: readonly Issue[], code: string | undefined): string[] {
  const lines = code?.split(/\r?\n/);
  return issues
    .filter((i) => i.severity === 'error')
    .map((issue) => {
      const offending = issue.line > 0 ? lines?.[issue.line - 1]?.trim() : undefined;
      // Line 0 is the whole spec (a request the spec does not cover, an answer without code): no line to name.
      return `[${issue.rule}]${issue.line > 0 ? ` line ${issue.line}` : ''}: ${issue.message}${offending ? `\n    > ${offending}` : ''}`;
    });
}

/** The credentials contract in words: the declared variables, by what they hold; `noneDeclared` when there are none. */
export function renderCredentials(critic: CriticConfig, noneDeclared: string): string {
  const declared = Object.entries(critic.credentials).map(([role, variable]) => `process.env.${variable} (${role})`);
  return declared.length > 0 ? declared.join(', ') : noneDeclared;
}

/**
 * The members of the allow-list a prompt names: what a test of a page is written with (navigations,
 * locators, actions, matchers, steps and evidence). The gate still holds the whole list; a member the
 * prompt leaves out is allowed all the same, and one outside the list is refused by name in the feedback.
 */
const PROMPT_MEMBERS: ReadonlySet<string> = new Set([
  ...NAVIGATIONS,
  ...LOCATOR_FACTORIES,
  ...USER_ACTIONS,
  ...ASYNC_MATCHERS,
  'not', 'soft', 'poll', 'toBe', 'toEqual', 'toContain', 'toMatch', 'toBeGreaterThan', 'toBeLessThan', 'toHaveLength',
  'step', 'info', 'outputPath', 'attach', 'use', 'beforeEach', 'describe', 'screenshot', 'waitForURL', 'url',
  'filter', 'first', 'last', 'and', 'contentFrame', 'frameLocator', 'count', 'textContent', 'inputValue', 'keyboard', 'mouse',
]);
const ALLOW_LIST_RULE = 'allowed-code';

/** One line per criterion the spec is checked against; rules switched off are left out. */
export function renderCriteria(critic: CriticConfig): string {
  return critic.criteria
    .filter((c) => c.severity !== 'off')
    .map((c) => {
      const settings = c.id === ALLOW_LIST_RULE ? renderAllowList(c.options) : renderOptions(c.options);
      return `- ${c.id} (${c.severity}): ${c.reason}${settings ? ` [${settings}]` : ''}`;
    })
    .join('\n');
}

/**
 * The allow-list as a prompt carries it: the members a test needs (of those allowed) instead of the whole
 * list, and each global with its members in one short entry.
 */
function renderAllowList(options: unknown): string {
  if (options === null || typeof options !== 'object') return renderOptions(options);
  const { members, globals, ...rest } = options as { members?: unknown; globals?: unknown };
  const parts = [renderOptions(rest)];
  if (globals && typeof globals === 'object') {
    const entries = Object.entries(globals as Record<string, unknown>).map(([name, allowed]) => (Array.isArray(allowed) && allowed.length > 0 ? `${name}.{${allowed.join(',')}}` : name));
    parts.push(`globals: ${entries.join(', ')}`);
  }
  if (Array.isArray(members)) {
    const needed = members.filter((m): m is string => typeof m === 'string' && PROMPT_MEMBERS.has(m));
    parts.push(`members (those a page test needs; the rest of agents/critic.yaml's list is allowed too, and a refused member is named): ${[...new Set(needed)].join(', ')}`);
  }
  return parts.filter(Boolean).join('; ');
}

function renderOptions(options: unknown): string {
  // Not an object here: null or a YAML scalar, which String renders as written.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (options === null || typeof options !== 'object') return options === undefined ? '' : String(options);
  return Object.entries(options as Record<string, unknown>)
    .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join('; ');
}

/** A stable fingerprint of a prompt, for the provenance record. */
export function promptHash(messages: readonly ChatMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages.map((m) => [m.role, m.content]))).digest('hex');
}

function collapseBlankLines(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n');
}
