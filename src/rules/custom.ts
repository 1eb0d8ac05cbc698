/** Custom rules written in critic.yaml alone: a regex matched in the syntax tree, never in comments. */
import { ts } from '../util/typescript.js';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding, type Rule } from './types.ts';
import { selectorUses } from './utils/selectors.ts';

/** Where a custom rule's pattern is matched: selector strings, called method names, or any string. */
export const CUSTOM_RULE_MATCHES = ['selector', 'method', 'string'] as const;

/** What the rule is made from: an entry of critic.yaml's `custom_rules` (config/critic.ts checks its shape). */
export interface CustomRuleDefinition {
  id: string;
  reason: string;
  match: (typeof CUSTOM_RULE_MATCHES)[number];
  pattern: string;
  flags?: string;
}

export function customRule(entry: CustomRuleDefinition): Rule<unknown> {
  const pattern = new RegExp(entry.pattern, entry.flags ?? '');
  const where = { selector: 'selector', method: 'called method', string: 'string' }[entry.match];
  return defineRule<unknown>({
    id: entry.id,
    description: entry.reason,
    fixable: false,
    options: noOptions,
    check(model) {
      const findings: Finding[] = [];
      const report = (node: ts.Node, value: string) => {
        if (pattern.test(value)) findings.push({ node, message: `${where} "${value}" matches ${entry.id}: ${entry.reason}` });
      };
      if (entry.match === 'selector') {
        for (const use of selectorUses(model)) report(use.argument, use.value);
      } else if (entry.match === 'method') {
        for (const call of model.calls) {
          const { name } = model.callee(call);
          if (name) report(call.expression, name);
        }
      } else {
        for (const kind of [ts.SyntaxKind.StringLiteral, ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TemplateExpression]) {
          for (const node of model.nodes<ts.Expression>(kind)) {
            if (ts.isImportDeclaration(node.parent)) continue;
            const value = model.stringValue(node, '');
            if (value !== undefined) report(node, value);
          }
        }
      }
      return findings;
    },
  });
}
