/**
 * The body of POST /v1/generate: the request contract's fields and a callback URL, checked with zod. Unknown fields are refused (a misspelt
 * `desciption` should not become a silently missing one), and every problem names its field.
 * The request text is used as sent: a voice router's loose phrasing is the model's to read.
 */
import { z } from 'zod';
import type { GenerateRequest } from '../workflow/pipeline.ts';
import { batchSchema, requestFields, type GenerateRequestFields, type RequestLimits, type RequestProblem } from '../workflow/request-contract.ts';
import { HttpError } from '../endpoint/errors.ts';

/** The request contract's fields (workflow/request-contract.ts), and where the finished job is POSTed. */
export function generateBodySchema(limits: RequestLimits) {
  return z.strictObject(
    {
      ...requestFields(limits),
      /** Checked against the allow-list by the app, not here. */
      callback_url: z.string().max(limits.maxFieldChars, `must be at most ${limits.maxFieldChars} characters`).optional().describe('where the finished job is POSTed (an allowed http(s) URL; needs SCRIBE_CALLBACK_SECRET)'),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
  );
}

/** GET /v1/generate/schema: the body's JSON Schema, descriptions and limits included. */
export function generateBodyJsonSchema(limits: RequestLimits): Record<string, unknown> {
  return z.toJSONSchema(generateBodySchema(limits), { io: 'input' });
}

/** A POST /v1/generate body: the pipeline's request, and where to send the result. */
export type GenerateBody = GenerateRequest & { callback_url?: string };

/** The request as the pipeline takes it, or a 400 naming every field at fault. */
export function parseGenerateBody(body: unknown, limits: RequestLimits): GenerateBody {
  const parsed = generateBodySchema(limits).safeParse(body);
  if (parsed.success) return parsed.data;
  throw HttpError.invalid(parsed.error.issues.flatMap(fieldProblems));
}

/** A POST /v1/batch body: requests of the contract, or a 400 naming every field at fault (`requests.2.url`). */
export function parseBatchBody(body: unknown, limits: RequestLimits, maxRequests: number): { requests: GenerateRequestFields[] } {
  const parsed = batchSchema(limits, maxRequests).safeParse(body);
  if (parsed.success) return parsed.data;
  throw HttpError.invalid(parsed.error.issues.flatMap(fieldProblems));
}

function fieldProblems(issue: z.core.$ZodIssue): RequestProblem[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: [...issue.path.map(String), key].join('.'), message: 'is not a field of this request' }));
  return [{ field: issue.path.map(String).join('.') || 'body', message: issue.message }];
}
