import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import type { PageInventory } from '../contracts.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding, type TextEdit } from './types.ts';
import { calleeText } from './utils/ast.ts';
import { UNKNOWN_PART, selectorUses, type SelectorUse } from './utils/selectors.ts';

const Options = ruleOptions({
  /** Locator factories accepted besides getByTestId (getByRole, getByLabel, … or locator for any selector string). */
  allowed_locators: z.array(z.string().min(1)),
  /**
   * Accept Playwright's locator ladder (getByRole, getByLabel, getByPlaceholder, getByText): with an explored
   * site, for an element the site gives no test id (one that has an id must use it); in people's own specs
   * checked without one, always.
   */
  locator_ladder: z.boolean(),
});

const TEST_ID_FACTORY = 'getByTestId';
const OTHER_FACTORIES = new Set(['getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText', 'getByTitle']);
/** Playwright's locator ladder: the factories a page's accessible names and labels answer. */
const LADDER = new Set(['getByRole', 'getByLabel', 'getByPlaceholder', 'getByText']);
const FACTORY_RECEIVERS = new Set(['page', 'frame', 'locator', 'unknown']);
const FIXABLE_RECEIVERS = new Set(['page', 'frame', 'locator']);
/** `iframe[title="Editor"]`, `iframe[name='editor']`: the accepted way to locate a frame. */
const FRAME_BY_NAME = /^\s*iframe\[\s*(?:title|name)\s*=\s*(?:"[^"]+"|'[^']+')\s*\]\s*$/;
const FRAME_SELECTOR = /^\s*iframe\b/i;
const FRAME_ADVICE = `a frame carries no test id: locate it by its title or name, page.frameLocator('iframe[title="…"]') or page.locator('iframe[name="…"]').contentFrame(), then its elements by test id or the locator ladder`;

export default defineRule({
  id: 'require-testid-selectors',
  description: 'Elements are selected by test id: getByTestId, or a selector made only of test-id attributes.',
  fixable: true,
  options: Options,
  check(model, options, env) {
    const allowed = new Set([TEST_ID_FACTORY, ...options.allowed_locators]);
    const grammar = testIdGrammar(env.testIdAttribute);
    const suggestion = `select it by test id instead: getByTestId('…')${allowed.size > 1 ? ` (allowed: ${[...allowed].join(', ')})` : ''}`;
    const findings: Finding[] = [];

    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver || !OTHER_FACTORIES.has(name) || allowed.has(name)) continue;
      if (!FACTORY_RECEIVERS.has(model.kindOf(receiver))) continue;
      // People's own specs checked without an explored site: nothing says the element has a test id, so the
      // ladder stands (what Scribe accepted on the site passes `scribe validate` too).
      if (options.locator_ladder && !env.inventory && env.projectRoot === undefined && LADDER.has(name)) continue;
      if (options.locator_ladder && env.inventory) {
        const testId = testIdOfNamedElement(model, call, name, env.inventory);
        if (testId === undefined) continue;
        findings.push({ node: call.expression, message: `${calleeText(model, call)}() names an element that carries the test id "${testId}" on the explored site; select it with getByTestId('${testId}').` });
        continue;
      }
      findings.push({ node: call.expression, message: `${calleeText(model, call)}() selects by ${name.slice('getBy'.length).toLowerCase()}, which changes with copy and markup; ${suggestion}.` });
    }

    const ladderAdvice = options.locator_ladder && env.inventory ? ladderSuggestion(env.inventory) : undefined;
    for (const use of selectorUses(model)) {
      if (allowed.has(use.method)) continue;
      // A frame carries no test id of its own; its title or name is what names it.
      if (FRAME_BY_NAME.test(use.value)) continue;
      if (!grammar.any.test(use.value)) {
        const advice = use.method === 'frameLocator' || FRAME_SELECTOR.test(use.value) ? FRAME_ADVICE : (ladderAdvice ?? suggestion);
        findings.push({ node: use.argument, message: `${calleeText(model, use.call)}() ${describeSelector(use.value)}; ${advice}.` });
        continue;
      }
      const testId = use.method === 'locator' ? grammar.single.exec(use.value) : null;
      if (!testId) continue;
      const id = testId[1] ?? testId[2] ?? testId[3] ?? '';
      findings.push({
        node: use.call.expression,
        message: `${calleeText(model, use.call)}('${use.value}') spells out the test-id attribute; use getByTestId('${id}'), which follows the configured testIdAttribute.`,
        severity: 'warning',
        fix: getByTestIdFix(model, use, id),
      });
    }
    return findings;
  },
});

/**
 * What to use instead of a CSS or XPath selector on an explored site: a site with no test ids has only the
 * ladder to offer, so that is what the message points to; otherwise a test id, or the ladder for an element without one.
 */
function ladderSuggestion(inventory: PageInventory): string {
  const ladder = "the locator ladder: getByRole('…', { name: '…' }), getByLabel('…'), getByPlaceholder('…') or getByText('…')";
  const hasTestIds = [inventory, ...(inventory.pages ?? [])].some((page) => page.testIds.length > 0);
  return hasTestIds ? `select it by test id, getByTestId('…'), or, for an element the explored site gives none, by ${ladder}` : `the explored site has no test ids: select it by ${ladder}`;
}

/**
 * The test id the explored site gives the element a ladder locator names (exact text, case-insensitive),
 * or undefined when no explored element with a test id matches (none has one, or it was not seen).
 */
function testIdOfNamedElement(model: SpecModel, call: ts.CallExpression, factory: string, inventory: PageInventory): string | undefined {
  const first = call.arguments[0];
  const same = (a: string | null | undefined, b: string | undefined) => a !== null && a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
  const text = first ? model.stringValue(first) : undefined;
  const pages = [inventory, ...(inventory.pages ?? [])];
  const ids = pages.flatMap((page) => page.testIds);
  const fields = pages.flatMap((page) => page.fields);
  switch (factory) {
    case 'getByRole': {
      const options = call.arguments[1] ? model.resolve(call.arguments[1]) : undefined;
      const nameProperty = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => p.name?.getText() === 'name') : undefined;
      const nameValue = nameProperty && ts.isPropertyAssignment(nameProperty) ? nameProperty.initializer : nameProperty && ts.isShorthandPropertyAssignment(nameProperty) ? nameProperty.name : undefined;
      const name = nameValue ? model.stringValue(nameValue) : undefined;
      if (name === undefined) return undefined;
      return ids.find((entry) => entry.role === text && (same(entry.label, name) || same(entry.text, name)))?.testId;
    }
    case 'getByLabel':
      return fields.find((field) => field.testId && same(field.label, text))?.testId ?? ids.find((entry) => same(entry.label, text))?.testId;
    case 'getByPlaceholder':
      return fields.find((field) => field.testId && same(field.placeholder, text))?.testId ?? undefined;
    case 'getByText':
      return ids.find((entry) => same(entry.text, text))?.testId;
    default:
      return undefined;
  }
}

interface TestIdGrammar {
  /** A selector made only of test-id attributes (CSS attribute selectors, `data-testid=x`, `>>` chains). */
  any: RegExp;
  /** Exactly one `[attr="id"]`; groups 1–3 hold the id. */
  single: RegExp;
}

function testIdGrammar(attribute: string): TestIdGrammar {
  const attr = attribute.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const value = `(?:"[^"]*"|'[^']*'|[^\\]\\s"']+)`;
  const cssUnit = `\\[\\s*${attr}\\s*=\\s*${value}\\s*[is]?\\s*\\]`;
  const cssPart = `${cssUnit}(?:\\s*>?\\s*${cssUnit})*`;
  const enginePart = `${attr}\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s>"']+)`;
  const internalPart = `internal:testid=${cssUnit}`;
  const part = `(?:${cssPart}|${enginePart}|${internalPart})`;
  return {
    any: new RegExp(`^\\s*${part}(?:\\s*>>\\s*${part})*\\s*$`),
    single: new RegExp(`^\\s*\\[\\s*${attr}\\s*=\\s*(?:"([^"\\\\]*)"|'([^'\\\\]*)'|([^\\]\\s"'\\\\]+))\\s*\\]\\s*$`),
  };
}

function describeSelector(selector: string): string {
  if (selector === UNKNOWN_PART) return 'is given a selector computed at run time, which cannot be checked';
  const shown = `"${selector.length > 60 ? `${selector.slice(0, 57)}…` : selector}"`;
  if (/^\s*(?:xpath=|\(*\/\/?[a-zA-Z*(@.])/.test(selector)) return `selects by XPath ${shown}, which breaks with markup changes`;
  if (/^\s*(?:text=|internal:text=|["'])|:has-text\(|:text(?:-is|-matches)?\(/.test(selector)) return `selects by text ${shown}, which changes with copy`;
  if (/^\s*(?:role=|internal:role=)/.test(selector)) return `selects by role ${shown} in a selector string`;
  return `selects by CSS ${shown}, which breaks with markup and styling changes`;
}

/** `locator('[data-testid="x"]')` → `getByTestId('x')`, when the selector is a literal written right there. */
function getByTestIdFix(model: SpecModel, use: SelectorUse, id: string): TextEdit[] | undefined {
  if (use.call.arguments.length !== 1 || !ts.isStringLiteralLike(use.argument)) return undefined;
  const { receiver } = model.callee(use.call);
  if (!receiver || !FIXABLE_RECEIVERS.has(model.kindOf(receiver))) return undefined;
  const quote = model.text(use.argument)[0] === '"' ? '"' : "'";
  const chosen = id.includes(quote) ? (quote === '"' ? "'" : '"') : quote;
  if (id.includes(chosen)) return undefined;
  const callee = model.unwrap(use.call.expression);
  let nameEdit: TextEdit;
  if (ts.isPropertyAccessExpression(callee)) {
    nameEdit = { start: callee.name.getStart(model.sourceFile), end: callee.name.end, text: TEST_ID_FACTORY };
  } else if (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)) {
    nameEdit = { start: callee.argumentExpression.getStart(model.sourceFile), end: callee.argumentExpression.end, text: `'${TEST_ID_FACTORY}'` };
  } else {
    return undefined;
  }
  return [nameEdit, { start: use.argument.getStart(model.sourceFile), end: use.argument.end, text: `${chosen}${id}${chosen}` }];
}
