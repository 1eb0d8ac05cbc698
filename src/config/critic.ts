/**
 * agents/critic.yaml: the criteria Scribe, the Critic, the Medic and `scribe validate` all read.
 * Loaded once per run; every value the rules use comes from here.
 */
import path from 'node:path';
import { z } from 'zod';
import { CUSTOM_RULE_MATCHES, customRule } from '../rules/custom.ts';
import { RULES } from '../rules/index.ts';
import type { Rule } from '../rules/types.ts';
import { editDistance } from '../util/edit-distance.ts';
import { regexSource } from '../util/zod-helpers.ts';
import type { AllowedCodeOptions, AllowedPathsOptions } from '../rules/gate/options.ts';
import { ConfigError, checkWithSchema, keyPath, readYamlFile, type ConfigProblem, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';
import { template } from './scribe.ts';

export const DEFAULT_CRITIC_PATH = path.join(BUNDLED_AGENTS_DIR, 'critic.yaml');

/**
 * The rules that keep model-written code from reaching the machine: switching one off takes an explicit
 * entry in the user's critic.yaml and is reported on every run. A property of the gate, not a preference.
 */
export const SAFETY_RULES: readonly string[] = RULES.filter((rule) => rule.safety === true).map((rule) => rule.id);

/** An environment variable name, as a shell would accept it. */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

/** The credentials contract: what each credential is (username, password, admin_password, …) → the variable holding it. */
export const DEFAULT_CREDENTIALS = { username: 'E2E_USERNAME', password: 'E2E_PASSWORD' } as const;

/** Every rule, as Scribe's own output is held to. */
export const GENERATED_PRESET = 'generated';
/** The rule set `scribe validate` applies to people's specs unless told otherwise (critic.yaml presets). */
export const RECOMMENDED_PRESET = 'recommended';

const CriticSettings = z.strictObject({
  test_id_attribute: z.string().min(1),
  /** The environment variables that hold credentials; specs read only these, and their values never reach a model. */
  credentials: z.record(z.string().min(1), EnvName).default({ ...DEFAULT_CREDENTIALS }),
  /** The rule set `scribe validate` applies to people's specs (model-written code always gets every rule). */
  validate_preset: z.string().min(1).default(RECOMMENDED_PRESET),
});

/** A preset: the rules it leaves off, and options it sets for rules it keeps. `generated` (every rule) needs no entry. */
const PresetEntry = z.strictObject({ off: z.array(z.string().min(1)), options: z.record(z.string().min(1), z.record(z.string(), z.unknown())).optional() });

const ConfiguredSeverity = z.enum(['error', 'warning', 'off']);

const RuleEntry = z.strictObject({
  severity: ConfiguredSeverity,
  reason: z.string().min(1),
  options: z.unknown().optional(),
});

const CustomRuleEntry = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a rule id is lower-case words joined by dashes'),
  severity: ConfiguredSeverity,
  reason: z.string().min(1),
  match: z.enum(CUSTOM_RULE_MATCHES),
  pattern: regexSource,
  flags: z.string().regex(/^[imsu]*$/, 'flags may be i, m, s, u').optional(),
});

const ReviewEntry = z
  .strictObject({
    enabled: z.boolean(),
    prompt: template(['request', 'feature', 'spec'], ['request', 'spec']).optional(),
    temperature: z.number().min(0).max(2).optional(),
  })
  .superRefine((review, ctx) => {
    if (!review.enabled) return;
    for (const key of ['prompt', 'temperature'] as const) {
      if (review[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `the review is enabled, so it needs review.${key}` });
    }
  });

const EstimateEntry = z.strictObject({
  ci_cost_per_minute: z.number().nonnegative(),
});

const CriticFile = z.strictObject({
  version: z.literal(1),
  settings: CriticSettings,
  rules: z.record(z.string(), RuleEntry),
  custom_rules: z.array(CustomRuleEntry).optional(),
  presets: z.record(z.string().min(1), PresetEntry).optional(),
  review: ReviewEntry.optional(),
  estimate: EstimateEntry.optional(),
});

export interface ActiveRule {
  rule: Rule<unknown>;
  severity: 'error' | 'warning';
  reason: string;
  options: unknown;
}

export interface CriticConfig {
  file: string;
  testIdAttribute: string;
  /** The declared credential variables, by what they hold (settings.credentials). */
  credentials: Record<string, string>;
  /** Enabled rules, built-in then custom, in the file's order. */
  rules: ActiveRule[];
  /** The rule set `scribe validate` applies to people's specs, and each preset's rules left off. */
  validatePreset: string;
  presets: Record<string, string[]>;
  /** Each preset's options for the rules it keeps (checked with the rule's own options), by rule id. */
  presetOptions: Record<string, Record<string, Record<string, unknown>>>;
  /** Every rule id the file names with its setting, for prompts and docs (disabled ones included). */
  criteria: Array<{ id: string; severity: 'error' | 'warning' | 'off'; reason: string; options: unknown }>;
  review: { enabled: boolean; prompt?: string; temperature?: number };
  /** The Critic's cost estimate; without it the estimated cost is 0. */
  estimate?: z.infer<typeof EstimateEntry>;
  /** Where each rule stands in the file, for SARIF and error messages. */
  lineOfRule(id: string): number;
}

export function loadCriticConfig(file: string = DEFAULT_CRITIC_PATH): CriticConfig {
  return criticConfigFrom(readYamlFile(file));
}

export function criticConfigFrom(source: YamlSource): CriticConfig {
  const parsed = checkWithSchema(source, CriticFile);
  const byId = new Map(RULES.map((rule) => [rule.id, rule]));
  const problems: ConfigProblem[] = [];
  const rules: ActiveRule[] = [];
  const criteria: CriticConfig['criteria'] = [];

  for (const [id, entry] of Object.entries(parsed.rules)) {
    const rule = byId.get(id);
    if (!rule) {
      problems.push({ file: source.file, key: `rules.${id}`, line: source.lineOf(['rules', id]), message: `unknown rule id${suggest(id, [...byId.keys()])}` });
      continue;
    }
    const options = rule.options.safeParse(entry.options ?? {});
    if (!options.success) {
      for (const issue of options.error.issues) {
        const path = ['rules', id, 'options', ...issue.path];
        problems.push({ file: source.file, key: keyPath(path), line: source.lineOf(path), message: issue.message });
      }
      continue;
    }
    criteria.push({ id, severity: entry.severity, reason: entry.reason, options: options.data });
    if (entry.severity !== 'off') rules.push({ rule, severity: entry.severity, reason: entry.reason, options: options.data });
  }

  (parsed.custom_rules ?? []).forEach((entry, index) => {
    if (byId.has(entry.id) || parsed.custom_rules!.findIndex((c) => c.id === entry.id) !== index) {
      problems.push({ file: source.file, key: `custom_rules[${index}].id`, line: source.lineOf(['custom_rules', index, 'id']), message: `rule id "${entry.id}" is already taken` });
      return;
    }
    criteria.push({ id: entry.id, severity: entry.severity, reason: entry.reason, options: { match: entry.match, pattern: entry.pattern } });
    if (entry.severity !== 'off') rules.push({ rule: customRule(entry), severity: entry.severity, reason: entry.reason, options: {} });
  });

  const presets: Record<string, string[]> = { [GENERATED_PRESET]: [] };
  const presetOptions: CriticConfig['presetOptions'] = { [GENERATED_PRESET]: {} };
  for (const [name, preset] of Object.entries(parsed.presets ?? {})) {
    preset.off.forEach((id, index) => {
      if (!criteria.some((c) => c.id === id)) problems.push({ file: source.file, key: `presets.${name}.off[${index}]`, line: source.lineOf(['presets', name, 'off', index]), message: `unknown rule id${suggest(id, criteria.map((c) => c.id))}` });
    });
    presets[name] = preset.off;
    presetOptions[name] = {};
    for (const [id, override] of Object.entries(preset.options ?? {})) {
      const rule = byId.get(id);
      const checked = rule?.options.safeParse({ ...(parsed.rules[id]?.options ?? {}), ...override });
      if (!rule || !checked) {
        problems.push({ file: source.file, key: `presets.${name}.options.${id}`, line: source.lineOf(['presets', name, 'options', id]), message: `unknown rule id${suggest(id, [...byId.keys()])}` });
      } else if (!checked.success) {
        for (const issue of checked.error.issues) {
          const path = ['presets', name, 'options', id, ...issue.path];
          problems.push({ file: source.file, key: keyPath(path), line: source.lineOf(path), message: issue.message });
        }
      } else {
        presetOptions[name][id] = checked.data as Record<string, unknown>;
      }
    }
  }
  problems.push(...uncheckedContextPaths(source, criteria, presetOptions));
  if (!Object.hasOwn(presets, parsed.settings.validate_preset)) {
    problems.push({ file: source.file, key: 'settings.validate_preset', line: source.lineOf(['settings', 'validate_preset']), message: `no preset "${parsed.settings.validate_preset}" (presets: ${Object.keys(presets).join(', ')})` });
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    file: source.file,
    testIdAttribute: parsed.settings.test_id_attribute,
    credentials: parsed.settings.credentials,
    validatePreset: parsed.settings.validate_preset,
    presets,
    presetOptions,
    rules,
    criteria,
    review: parsed.review ?? { enabled: false },
    estimate: parsed.estimate,
    lineOfRule: (id) => {
      const index = (parsed.custom_rules ?? []).findIndex((c) => c.id === id);
      return index >= 0 ? source.lineOf(['custom_rules', index]) : source.lineOf(['rules', id]);
    },
  };
}

/**
 * Context methods and options allowed-code lets generated code use that allowed-paths does not read for files: a
 * path in their options would go unchecked, so the config is refused. They are two facts (what a spec may call;
 * where a call names files) that must agree, in the rules' own options and in each preset that overrides either.
 */
function uncheckedContextPaths(source: YamlSource, criteria: CriticConfig['criteria'], presetOptions: CriticConfig['presetOptions']): ConfigProblem[] {
  const base = (id: string) => criteria.find((criterion) => criterion.id === id)?.options as Record<string, unknown> | undefined;
  const sets = [
    { prefix: (id: string) => ['rules', id, 'options'], ownCode: true, code: base('allowed-code'), paths: base('allowed-paths') },
    ...Object.entries(presetOptions)
      .filter(([, options]) => options['allowed-code'] || options['allowed-paths'])
      .map(([preset, options]) => ({
        prefix: (id: string) => ['presets', preset, 'options', id],
        ownCode: options['allowed-code'] !== undefined,
        code: options['allowed-code'] ?? base('allowed-code'),
        paths: options['allowed-paths'] ?? base('allowed-paths'),
      })),
  ];
  return sets.flatMap(({ prefix, ownCode, code, paths }) => {
    if (!code || !paths) return [];
    const { context_methods, context_options } = code as AllowedCodeOptions;
    const { option_arguments, option_containers } = paths as AllowedPathsOptions;
    // Said where the set differs: at allowed-code's entry, or at the preset's allowed-paths list that lacks it.
    const problem = (field: string, index: number, name: string, list: string): ConfigProblem => {
      const key = ownCode ? [...prefix('allowed-code'), field, index] : [...prefix('allowed-paths'), list];
      return { file: source.file, key: keyPath(key), line: source.lineOf(key), message: `${name}: allowed-paths' ${list} must list it too, or the files its options name go unchecked` };
    };
    return [
      ...context_methods.flatMap((name, index) => (Object.hasOwn(option_arguments, name) ? [] : [problem('context_methods', index, name, 'option_arguments')])),
      ...context_options.flatMap((name, index) => (option_containers.includes(name) ? [] : [problem('context_options', index, name, 'option_containers')])),
    ];
  });
}

function suggest(name: string, known: string[]): string {
  const close = known.filter((k) => editDistance(k, name) <= Math.max(2, Math.floor(name.length / 4)));
  return close.length > 0 ? ` (did you mean ${close.map((c) => `"${c}"`).join(' or ')}?)` : '';
}

/** The config with a preset's rules left off and its options set; undefined for a preset the config does not have. */
export function withPreset(config: CriticConfig, preset: string): CriticConfig | undefined {
  const off = Object.hasOwn(config.presets, preset) ? config.presets[preset]! : undefined;
  const options = config.presetOptions[preset] ?? {};
  return (
    off && {
      ...config,
      rules: config.rules.filter((active) => !off.includes(active.rule.id)).map((active) => (options[active.rule.id] ? { ...active, options: options[active.rule.id]! } : active)),
    }
  );
}
