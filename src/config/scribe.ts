/**
 * agents/scribe.yaml: the model settings, the generation limits and the prompt templates of Scribe and
 * of the Medic (which asks the same model to heal a failing spec). Each template declares the
 * placeholders it may use, so a typo such as {{reqest}} is a configuration error with its line, not a
 * prompt that silently lacks the request.
 */
import path from 'node:path';
import { z } from 'zod';
import { Complexity } from '../contracts.ts';
import { ExploreSettings } from '../explore/settings.ts';
import { checkWithSchema, readYamlFile, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';
import { withRenamedKeys, type Renamed, type RenamedKey } from './renamed-keys.ts';

export const DEFAULT_SCRIBE_PATH = path.join(BUNDLED_AGENTS_DIR, 'scribe.yaml');

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** A prompt template that may use only `allowed` placeholders and must use every one of `required`. */
export function template(allowed: readonly string[], required: readonly string[]) {
  return z.string().min(1).superRefine((text, ctx) => {
    const used = new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!));
    for (const name of used) {
      if (!allowed.includes(name)) ctx.addIssue({ code: 'custom', message: `unknown placeholder {{${name}}} (this template may use ${allowed.map((a) => `{{${a}}}`).join(', ')})` });
    }
    for (const name of required) {
      if (!used.has(name)) ctx.addIssue({ code: 'custom', message: `the template must contain {{${name}}}` });
    }
  });
}

const positiveMs = z.number().int().positive();

/**
 * Renamed keys, still read. `max_retries` counted model answers (not retries) and also capped the Critic's
 * rejections: it sets both of the keys that now say so apart.
 */
const RENAMED_KEYS: readonly RenamedKey[] = [
  { old: ['generation', 'max_retries'], current: ['generation', 'max_attempts'], alsoSets: [['generation', 'max_critic_rejections']] },
];

/** agents/scribe.yaml with its deprecated keys under their current names. */
export function renamedScribeKeys(source: YamlSource): Renamed {
  return withRenamedKeys(source, RENAMED_KEYS);
}

export const ScribeFile = z.strictObject({
  version: z.literal(1),
  provider: z.strictObject({
    models: z.strictObject({ easy: z.string().min(1), medium: z.string().min(1), hard: z.string().min(1) }),
    default_complexity: Complexity,
    temperature: z.number().min(0).max(2),
    stream: z.boolean(),
    request_timeout_ms: positiveMs,
    stream_idle_timeout_ms: positiveMs,
    max_tokens: z.number().int().positive(),
    http_retries: z.number().int().min(0).max(10),
    backoff_base_ms: z.number().int().nonnegative(),
    backoff_cap_ms: z.number().int().nonnegative(),
    max_retry_after_ms: z.number().int().nonnegative(),
  }),
  generation: z.strictObject({
    max_attempts: z.number().int().min(1).max(10),
    max_critic_rejections: z.number().int().min(0).max(10),
    output_dir: z.string().min(1),
    quoted_answer_chars: z.number().int().positive(),
    /** A spec of the project's whose setup generated specs follow (like Playwright's seed.spec.ts), relative to the project. */
    seed_spec: z.string().min(1).optional(),
  }),
  explore: ExploreSettings,
  prompts: z.strictObject({
    system: template(['criteria', 'test_id_attribute', 'credentials'], ['criteria']),
    user: template(['request', 'feature', 'complexity', 'inventory', 'project'], ['request', 'inventory']),
    /** The project's fixtures, page objects and seed spec ({{project}} of the user prompt); optional in older files. */
    project: template(['modules', 'seed'], []).optional(),
    project_seed: template(['file', 'seed'], ['seed']).optional(),
    inventory: template(['url', 'title', 'elements'], ['elements']),
    feedback: template(['attempt', 'max_attempts', 'issues', 'autofixed'], ['issues']),
    no_code: template([], []),
    empty_answer: template([], []),
    no_credentials: template([], []),
    critic_rejection: template(['reason'], ['reason']),
  }),
  medic: z.strictObject({
    max_debug_attempts: z.number().int().min(1).max(10),
    prompts: z.strictObject({
      system: template(['criteria', 'test_id_attribute', 'credentials'], ['criteria']),
      fix: template(
        ['request', 'feature', 'spec', 'classification', 'error', 'failing_line', 'snapshot', 'page_elements', 'refusal', 'attempt', 'max_attempts'],
        ['spec', 'error', 'failing_line', 'snapshot', 'refusal'],
      ),
      failing_line: template(['line', 'text'], ['text']),
      snapshot: template(['snapshot'], ['snapshot']),
      /** Run-time grounding: the real test ids of the page where the run ended (optional in older files). */
      page_elements: template(['url', 'test_ids', 'nearest', 'roles'], ['test_ids']).optional(),
      refusal: template(['reasons'], ['reasons']),
      no_error_message: template(['status'], []),
      nearest: template(['test_id', 'test_ids'], ['test_ids']),
      no_test_ids: template([], []),
      no_roles: template([], []),
      unchanged: template([], []),
    }),
  }),
  planner: z.strictObject({
    max_scenarios: z.number().int().min(1).max(100),
    prompts: z.strictObject({
      system: template(['max_scenarios'], []),
      user: template(['inventory', 'unreachable'], ['inventory']),
    }),
  }),
});

type ScribeSettings = z.infer<typeof ScribeFile>;

export type ScribeConfig = Omit<ScribeSettings, 'generation'> & {
  file: string;
  generation: ScribeSettings['generation'] & {
    /** @deprecated the old name of `max_attempts`, kept for library callers that read it. */
    max_retries: number;
  };
};
export type ProviderSettings = ScribeConfig['provider'];

export function loadScribeConfig(file: string = DEFAULT_SCRIBE_PATH): ScribeConfig {
  return scribeConfigFrom(readYamlFile(file));
}

/** A file that still writes a deprecated key is read under the current name (the caller reports it). */
export function scribeConfigFrom(source: YamlSource): ScribeConfig {
  const settings = checkWithSchema(renamedScribeKeys(source).source, ScribeFile);
  return { ...settings, generation: { ...settings.generation, max_retries: settings.generation.max_attempts }, file: source.file };
}

/** The model for a complexity: SCRIBE_MODEL wins, then the configured one. */
export function modelFor(config: ScribeConfig, complexity: Complexity, env: NodeJS.ProcessEnv): string {
  return env.SCRIBE_MODEL?.trim() || config.provider.models[complexity];
}

/** Fills `{{name}}` placeholders; the schema has already checked that every one used is known. */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name] ?? '');
}
