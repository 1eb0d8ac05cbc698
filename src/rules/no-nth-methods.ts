import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calleeText } from './utils/ast.ts';
import { selectorUses } from './utils/selectors.ts';

const Options = ruleOptions({
  /** Locator methods that pick an element by position. */
  methods: z.array(z.string().min(1)).min(1),
});

/** Index-based parts of a selector string: Playwright's `nth=` and `:nth-match()`, positional CSS, XPath indexes. */
const POSITIONAL_SELECTORS: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /(?:^|>>)\s*nth\s*=\s*-?\d+/, what: '`nth=`' },
  { pattern: /:nth-match\(/, what: ':nth-match()' },
  { pattern: /:nth-(?:last-)?(?:child|of-type)\(/, what: 'positional CSS (:nth-child/:nth-of-type)' },
  { pattern: /:(?:first|last)-(?:child|of-type)\b/, what: 'positional CSS (:first-child/:last-child)' },
  { pattern: /^(?:xpath=|\(*\/\/?)[^]*\[\s*(?:\d+|last\(\)(?:\s*-\s*\d+)?|position\(\)[^\]]*)\s*\]/, what: 'an XPath index' },
];

const LOCATOR_ARRAY_METHODS = new Set(['all']);
const ARRAY_PICKERS = new Set(['at']);

export default defineRule({
  id: 'no-nth-methods',
  description: 'Disallows picking elements by position: nth/first/last, `>> nth=`, positional CSS and XPath indexes.',
  fixable: false,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    const methods = new Set(options.methods);
    for (const call of model.calls) {
      const { name, receiver } = model.callee(call);
      if (!name || !receiver) continue;
      if (methods.has(name) && model.kindOf(receiver) === 'locator') {
        findings.push({
          node: call.expression,
          message: `${calleeText(model, call)}() picks an element by its position, which breaks when the order changes; narrow the locator instead: a specific getByTestId, or .filter({ hasText: '…' }).`,
        });
      } else if (ARRAY_PICKERS.has(name) && isLocatorArray(model, receiver)) {
        findings.push({ node: call.expression, message: positionalArrayMessage(model, call.expression) });
      }
    }
    for (const access of model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression)) {
      if (isNumeric(model, access.argumentExpression) && isLocatorArray(model, access.expression)) {
        findings.push({ node: access, message: positionalArrayMessage(model, access) });
      }
    }
    for (const use of selectorUses(model)) {
      const hit = POSITIONAL_SELECTORS.find((p) => p.pattern.test(use.value));
      if (!hit) continue;
      findings.push({
        node: use.argument,
        message: `Selector "${use.value}" picks an element by position with ${hit.what}, which breaks when the order changes; select the element itself by test id: getByTestId('…').`,
      });
    }
    return findings;
  },
});

/** `await list.all()` (or a variable holding it): the array of locators that `[0]` or `.at(0)` index into. */
function isLocatorArray(model: SpecModel, expr: ts.Expression): boolean {
  let e = model.resolve(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (!ts.isCallExpression(e)) return false;
  const { name, receiver } = model.callee(e);
  return name !== undefined && receiver !== undefined && LOCATOR_ARRAY_METHODS.has(name) && model.kindOf(receiver) === 'locator';
}

function isNumeric(model: SpecModel, expr: ts.Expression): boolean {
  const e = model.unwrap(expr);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken) return isNumeric(model, e.operand);
  const value = model.stringValue(e);
  return value !== undefined && /^\d+$/.test(value);
}

function positionalArrayMessage(model: SpecModel, node: ts.Node): string {
  const text = model.text(node).replace(/\s+/g, ' ');
  return `${text.length > 60 ? `…${text.slice(-57)}` : text} picks an element of locator.all() by its position, which breaks when the order changes; select the element itself by test id, or .filter({ hasText: '…' }).`;
}
