/**
 * Every rule carries its metadata where a reader looks for it: a file named by its id that defines it,
 * a documentation page, and an entry in the bundled critic.yaml (the one source of each rule's
 * severity and reason).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SAFETY_RULES } from '../../src/config/critic.ts';
import { RULES } from '../../src/rules/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundled = parse(readFileSync(path.join(root, 'agents/critic.yaml'), 'utf8')) as { rules: Record<string, unknown> };
const ruleFiles = new Set(readdirSync(path.join(root, 'src/rules')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)));

describe('rule metadata', () => {
  it.each(RULES.map((rule) => [rule.id, rule] as const))('%s: its file, its doc page, its critic.yaml entry', (id, rule) => {
    expect(ruleFiles.has(id), `src/rules/${id}.ts`).toBe(true);
    const doc = path.join(root, 'docs/rules', `${id}.md`);
    expect(existsSync(doc), `docs/rules/${id}.md`).toBe(true);
    expect(readFileSync(doc, 'utf8').split('\n')[0]).toBe(`# ${id}`);
    expect(Object.keys(bundled.rules), `agents/critic.yaml rules.${id}`).toContain(id);
    expect(rule.description.length).toBeGreaterThan(0);
  });

  it.each(RULES.map((rule) => [rule.id, rule] as const))('%s: defined by the file named after it', async (id, rule) => {
    const module = (await import(`../../src/rules/${id}.ts`)) as { default: unknown };
    expect(module.default, `src/rules/${id}.ts exports the rule as its default`).toBe(rule);
  });

  it('has each rule declare whether it is a safety rule and whether it reads types, which the gate and the validator read', () => {
    expect(RULES.filter((rule) => rule.safety).map((rule) => rule.id).sort()).toEqual(['no-dangerous-apis', 'no-eval', 'no-forbidden-imports', 'syntax', 'type-check']);
    expect(SAFETY_RULES).toEqual(RULES.filter((rule) => rule.safety).map((rule) => rule.id));
    expect(RULES.filter((rule) => rule.needsTypes).map((rule) => rule.id)).toEqual(['type-check']);
  });

  it('names no rule in src/validate/: what a rule needs it declares itself', () => {
    const folder = path.join(root, 'src/validate');
    const naming = readdirSync(folder).filter((file) => RULES.some((rule) => readFileSync(path.join(folder, file), 'utf8').includes(`'${rule.id}'`)));
    expect(naming).toEqual([]);
  });

  it('keeps nothing in src/rules/ but the registry, its types, the custom-rule factory and the rules (helpers live in utils/)', () => {
    const ids = new Set(RULES.map((rule) => rule.id));
    expect([...ruleFiles].filter((file) => !ids.has(file)).sort()).toEqual(['custom', 'index', 'types']);
  });

  it('has no doc page or critic.yaml entry for a rule that does not exist', () => {
    const ids = new Set(RULES.map((rule) => rule.id));
    const pages = readdirSync(path.join(root, 'docs/rules')).map((f) => f.replace(/\.md$/, ''));
    expect(pages.filter((page) => !ids.has(page))).toEqual([]);
    expect(Object.keys(bundled.rules).filter((id) => !ids.has(id))).toEqual([]);
  });
});
