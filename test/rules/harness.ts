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
  /** Check the spec as model-written code (the gate's rules always are). */
  untrusted?: boolean;
}

/** Where the spec of a case lives; for the allow-list gate's rules, /virtual is the project. */
export const SPEC_FILE = '/virtual/example.spec.ts';

/** The issues one rule reports on a spec. The gate's rules see it as model-written code, as Scribe does. */
export function lint(ruleId: string, code: string, run: RunOptions = {}): Issue[] {
  const config = configWithOnly(ruleId, run.options);
  const validator = new Validator(config, { typeCheck: run.typeCheck ?? ruleId === 'type-check', inventory: run.inventory });
  const gated = config.rules[0]!.rule.untrustedOnly || run.untrusted ? validator.forUntrustedCode('/virtual') : validator;
  return gated.validateText(SPEC_FILE, code).issues;
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
