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
    max_retries: z.number().int().min(1).max(10),
    output_dir: z.string().min(1),
    quoted_answer_chars: z.number().int().positive(),
  }),
  explore: ExploreSettings,
  prompts: z.strictObject({
    system: template(['criteria', 'test_id_attribute', 'credentials'], ['criteria']),
    user: template(['request', 'feature', 'complexity', 'inventory'], ['request', 'inventory']),
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
});

export type ScribeConfig = z.infer<typeof ScribeFile> & { file: string };
export type ProviderSettings = ScribeConfig['provider'];

export function loadScribeConfig(file: string = DEFAULT_SCRIBE_PATH): ScribeConfig {
  return scribeConfigFrom(readYamlFile(file));
}

export function scribeConfigFrom(source: YamlSource): ScribeConfig {
  return { ...checkWithSchema(source, ScribeFile), file: source.file };
}

/** The model for a complexity: SCRIBE_MODEL wins, then the configured one. */
export function modelFor(config: ScribeConfig, complexity: Complexity, env: NodeJS.ProcessEnv): string {
  return env.SCRIBE_MODEL?.trim() || config.provider.models[complexity];
}

/** Fills `{{name}}` placeholders; the schema has already checked that every one used is known. */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name] ?? '');
}
