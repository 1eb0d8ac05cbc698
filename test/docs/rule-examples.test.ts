/**
 * The examples of docs/rules/<id>.md are run: each ```ts block's `// invalid` part gets the rule's finding,
 * its `// valid` part none (typescript-eslint's docs are tested the same way). A part that is not a whole
 * file (no import, no test) is run as the body of a test with the page fixture.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configWithOnly } from '../rules/harness.ts';
import { peopleValidator, untrustedValidator } from '../../src/validate/gate.ts';

const DOCS = fileURLToPath(new URL('../../docs/rules/', import.meta.url));

interface Example {
  rule: string;
  kind: 'valid' | 'invalid';
  code: string;
}

/** The `// valid` and `// invalid` parts of a document's ts blocks. */
export function examplesOf(rule: string, markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) => {
    const parts: Example[] = [];
    for (const line of block.split('\n')) {
      const heading = /^\/\/ (valid|invalid)\b/.exec(line.trim());
      if (heading) parts.push({ rule, kind: heading[1] as Example['kind'], code: '' });
      else if (parts.length > 0) parts[parts.length - 1]!.code += `${line}\n`;
    }
    return parts.filter((part) => part.code.trim() !== '');
  });
}

function asSpec(code: string): string {
  if (/^\s*import /m.test(code)) return code;
  const header = "import { test, expect, type Page } from '@playwright/test';\n\n";
  return /\btest(\.\w+)*\s*\(/.test(code) ? `${header}${code}` : `${header}test('case', async ({ page, request }, testInfo) => {\n${code}\n});\n`;
}

/** The rule's findings on an example, as `scribe validate` finds them (the gate's rules as for model-written code); no variable is set. */
function findings(rule: string, code: string): unknown[] {
  const config = configWithOnly(rule);
  const options = { typeCheck: false, env: {} };
  const validator = config.rules[0]!.rule.untrustedOnly ? untrustedValidator(config, { ...options, projectRoot: '/virtual' }) : peopleValidator(config, options);
  return validator.validateText('/virtual/example.spec.ts', asSpec(code)).issues.filter((issue) => issue.rule === rule);
}

/** Rules whose examples need what a document cannot give: each says why. */
const NOT_RUNNABLE: Record<string, string> = {
  'no-unknown-testid': 'needs the explored page inventory',
  'type-check': 'needs the compiler and an installed Playwright (test/rules/type-check.test.ts runs it)',
};

const examples = readdirSync(DOCS)
  .filter((file) => file.endsWith('.md'))
  .sort()
  .flatMap((file) => examplesOf(path.basename(file, '.md'), readFileSync(path.join(DOCS, file), 'utf8')))
  .filter((example) => !(example.rule in NOT_RUNNABLE));

describe('docs/rules examples', () => {
  it('are found in most rule documents', () => {
    expect(new Set(examples.map((e) => e.rule)).size).toBeGreaterThan(15);
  });

  it.each(examples.map((e, i) => [`${e.rule} ${e.kind} #${i}`, e] as const))('%s', (_name, example) => {
    const found = findings(example.rule, example.code);
    if (example.kind === 'invalid') expect(found, example.code).not.toEqual([]);
    else expect(found, example.code).toEqual([]);
  });

  it('reads the parts of a block', () => {
    expect(examplesOf('r', '```ts\n// invalid\na();\n\n// valid\nb();\n```\n```sh\n// valid\nx\n```')).toEqual([
      { rule: 'r', kind: 'invalid', code: 'a();\n\n' },
      { rule: 'r', kind: 'valid', code: 'b();\n\n' },
    ]);
  });
});
