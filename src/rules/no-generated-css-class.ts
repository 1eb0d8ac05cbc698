import { z } from 'zod';
import { regexSource, ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { selectorUses } from './utils/selectors.ts';

const Options = ruleOptions({
  /** Regular expressions for generated class names, matched against class selectors (`.css-1x2y3z`). */
  patterns: z.array(regexSource).min(1),
});

/** `[class*="css-1x2y3z"]` and friends: the classes an attribute selector on `class` names. */
const CLASS_ATTRIBUTE = /\[\s*class\s*[~|^$*]?=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+))\s*[is]?\s*\]/g;

export default defineRule({
  id: 'no-generated-css-class',
  description: 'Disallows generated (hashed) CSS class names in selectors, also when built by templates or held in variables.',
  fixable: false,
  options: Options,
  check(model, options) {
    const patterns = options.patterns.map((p) => new RegExp(p));
    const findings: Finding[] = [];
    for (const use of selectorUses(model)) {
      const generated = classSelectors(use.value).map((c) => firstMatch(c, patterns)).find((m) => m !== undefined);
      if (generated === undefined) continue;
      findings.push({
        node: use.argument,
        message: `Selector "${use.value}" relies on the generated class "${generated}", which changes with every build; select the element by test id instead: getByTestId('…').`,
      });
    }
    return findings;
  },
});

/** The selector itself, plus `.name` for every class an attribute selector on `class` names. */
function classSelectors(selector: string): string[] {
  const fromAttributes = [...selector.matchAll(CLASS_ATTRIBUTE)].flatMap((m) =>
    (m[1] ?? m[2] ?? m[3] ?? '').split(/\s+/).filter(Boolean).map((c) => `.${c}`),
  );
  return [selector, ...fromAttributes];
}

function firstMatch(text: string, patterns: RegExp[]): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return undefined;
}
