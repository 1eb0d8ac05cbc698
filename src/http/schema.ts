/**
 * The body of POST /v1/generate, checked with zod. Unknown fields are refused (a misspelt
 * `desciption` should not become a silently missing one), and every problem names its field.
 * The request text is used as sent: a voice router's loose phrasing is the model's to read.
 */
import { z } from 'zod';
import { Complexity } from '../contracts.ts';
import { PROVIDER_NAMES } from '../llm/provider.ts';
import type { GenerateRequest } from '../workflow/pipeline.ts';
import { HttpError, type FieldProblem } from './errors.ts';

/** zod's own words for a missing field are "expected string, received undefined"; say "is required". */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

export interface BodyLimits {
  maxDescriptionChars: number;
  /** feature, outputPath and url. */
  maxFieldChars: number;
}

export function generateBodySchema({ maxDescriptionChars, maxFieldChars }: BodyLimits) {
  const field = () => z.string(expecting('a string')).max(maxFieldChars, `must be at most ${maxFieldChars} characters`);
  return z.strictObject(
    {
      description: z
        .string(expecting('a string'))
        .max(maxDescriptionChars, `must be at most ${maxDescriptionChars} characters`)
        .refine((text) => text.trim() !== '', 'must say what the test should do'),
      feature: field().optional(),
      url: field().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
      complexity: Complexity.optional(),
      outputPath: field().optional(),
      run: z.boolean(expecting('true or false')).optional(),
      force: z.boolean(expecting('true or false')).optional(),
      provider: z.enum(PROVIDER_NAMES).optional(),
      /** Where the finished job is POSTed (checked against the allow-list by the app, not here). */
      callback_url: field().optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
  );
}

/** A POST /v1/generate body: the pipeline's request, and where to send the result. */
export type GenerateBody = GenerateRequest & { callback_url?: string };

/** The request as the pipeline takes it, or a 400 naming every field at fault. */
export function parseGenerateBody(body: unknown, limits: BodyLimits): GenerateBody {
  const parsed = generateBodySchema(limits).safeParse(body);
  if (parsed.success) return parsed.data;
  throw HttpError.invalid(parsed.error.issues.flatMap(fieldProblems));
}

function fieldProblems(issue: z.core.$ZodIssue): FieldProblem[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: key, message: 'is not a field of this request' }));
  return [{ field: issue.path.map(String).join('.') || 'body', message: issue.message }];
}

/** An http:// or https:// URL: what an app under test, or a callback, may be. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
