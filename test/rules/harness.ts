/**
 * Runs one rule the way `scribe validate` does: with the options and severity critic.yaml gives it,
 * through the real parser and value analysis.
 */
import type { Issue, PageInventory } from '../../src/contracts.ts';
import { loadCriticConfig, type CriticConfig } from '../../src/config/critic.ts';
import { Validator } from '../../src/validate/validator.ts';

const base = loadCriticConfig();

export function configWithOnly(ruleId: string, options?: unknown): CriticConfig {
  const active = base.rules.find((r) => r.rule.id === ruleId);
  if (!active) throw new Error(`rule ${ruleId} is not enabled in agents/critic.yaml`);
  return { ...base, rules: [{ ...active, options: options ?? active.options }] };
}

export interface RunOptions {
  options?: unknown;
  inventory?: PageInventory;
  typeCheck?: boolean;
}

/** The issues one rule reports on a spec. */
export function lint(ruleId: string, code: string, run: RunOptions = {}): Issue[] {
  const validator = new Validator(configWithOnly(ruleId, run.options), { typeCheck: run.typeCheck ?? ruleId === 'type-check', inventory: run.inventory });
  return validator.validateText('/virtual/example.spec.ts', code).issues;
}

/** The spec after the rule's autofixes. */
export function fix(ruleId: string, code: string, run: RunOptions = {}): string {
  const validator = new Validator(configWithOnly(ruleId, run.options), { typeCheck: false, inventory: run.inventory });
  return validator.fix('/virtual/example.spec.ts', code).text;
}

/** Wraps statements in a test with the page fixture, the way most cases look. */
export function inTest(body: string): string {
  return `import { test, expect } from '@playwright/test';\n\ntest('case', async ({ page }) => {\n${body}\n});\n`;
}
