/**
 * The generate request, once: its fields, what each means and its limits, as one zod schema. The CLI's
 * `generate` options, the body of POST /v1/generate and the MCP tool `generate_test`'s input are all made
 * from it, so a field has one name, one description and one limit on every surface; the limits are
 * agents/server.yaml's (http.max_description_chars, http.max_field_chars) wherever the request comes from.
 *
 * Light on purpose: the HTTP server's own thread loads it.
 */
import { z } from 'zod';
import { Complexity } from '../contracts.ts';
import { PROVIDER_NAMES } from '../llm/provider.ts';

export interface RequestLimits {
  maxDescriptionChars: number;
  /** feature, outputPath and url. */
  maxFieldChars: number;
}

/** zod's own words for a missing field are "expected string, received undefined"; say "is required". */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

/** What each field means, in the words every surface shows (CLI help, HTTP schema, MCP tool schema). */
export const REQUEST_FIELD_DESCRIPTIONS = {
  description: 'what the test should do, in plain language',
  feature: 'the feature it belongs to: the folder under the output folder (a name, not a path; default: from the description)',
  url: "the page to ground the spec in and run it against: an http(s) URL, or a path resolved against the base URL (default: BASE_URL, else the Playwright config's use.baseURL)",
  complexity: 'picks the model tier (agents/scribe.yaml)',
  provider: 'the model provider (default: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)',
  outputPath: 'where to write the spec (HTTP and MCP: inside the output folder; default: <feature>/<request>.spec.ts in <testDir>/generated of the Playwright config, else in generated-tests/)',
  run: 'run the spec against the app once it passes the checks (default: yes; --no-run or false stops before the run)',
  force: 'overwrite an existing spec',
} as const;

export type RequestField = keyof typeof REQUEST_FIELD_DESCRIPTIONS;

/** The request's fields, checked against the limits; every field but the description may be left out. */
export function requestFields({ maxDescriptionChars, maxFieldChars }: RequestLimits) {
  const text = () => z.string(expecting('a string')).max(maxFieldChars, `must be at most ${maxFieldChars} characters`);
  const d = REQUEST_FIELD_DESCRIPTIONS;
  return {
    description: z
      .string(expecting('a string'))
      .max(maxDescriptionChars, `must be at most ${maxDescriptionChars} characters`)
      .refine((value) => value.trim() !== '', 'must say what the test should do')
      .describe(d.description),
    feature: text().optional().describe(d.feature),
    url: text()
      .refine((value) => urlProblem(value) === undefined, { error: (issue) => urlProblem(String(issue.input)) })
      .optional()
      .describe(d.url),
    complexity: Complexity.optional().describe(d.complexity),
    provider: z.enum(PROVIDER_NAMES).optional().describe(d.provider),
    outputPath: text().optional().describe(d.outputPath),
    run: z.boolean(expecting('true or false')).optional().describe(d.run),
    force: z.boolean(expecting('true or false')).optional().describe(d.force),
  } satisfies Record<RequestField, z.ZodType>;
}

/**
 * What is wrong with a request's URL, checked the same way on every surface: an http(s) URL, or a path on
 * the app (`/login`, `./login`, `../x`; not `//host`, which names another host) that is resolved against
 * the base URL as Playwright's page.goto does. Anything else (another scheme, `localhost:3000`, a bare word)
 * is refused before anything is explored or written.
 */
export function urlProblem(text: string): string | undefined {
  const given = text.trim();
  if (isAppPath(given) || isHttpUrl(given)) return undefined;
  return 'must be an http:// or https:// URL, or a path starting with / resolved against the base URL';
}

export function isAppPath(text: string): boolean {
  return /^(\/(?!\/)|\.{1,2}\/)/.test(text);
}

export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The request as every surface checks it. Unknown fields are refused: a misspelt `desciption` is not a missing one. */
export function requestSchema(limits: RequestLimits) {
  return z.strictObject(requestFields(limits), { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) });
}

export type GenerateRequestFields = z.infer<ReturnType<typeof requestSchema>>;

/**
 * The fields an MCP host's model may set. The provider is the host's (sampling) or the server's, and the
 * spec's place and overwriting stay with the person who runs the server.
 */
export const MCP_REQUEST_FIELDS = ['description', 'feature', 'url', 'complexity', 'run'] as const satisfies readonly RequestField[];

/** The MCP tool's input: the contract's fields a host may set. */
export function mcpRequestShape(limits: RequestLimits) {
  const fields = requestFields(limits);
  return Object.fromEntries(MCP_REQUEST_FIELDS.map((name) => [name, fields[name]])) as Pick<ReturnType<typeof requestFields>, (typeof MCP_REQUEST_FIELDS)[number]>;
}

/**
 * A batch (POST /v1/batch, the MCP tool generate_batch): requests of this contract, generated N at once as
 * `generate --plan` does a plan's scenarios. `maxRequests` is the jobs a server lets wait (jobs.max_queued).
 */
export function batchSchema(limits: RequestLimits, maxRequests: number, request: z.ZodType<GenerateRequestFields> = requestSchema(limits)) {
  return z.strictObject(
    {
      requests: z
        .array(request, expecting('a list of requests'))
        .min(1, 'must hold at least one request')
        .max(maxRequests, `must hold at most ${maxRequests} requests`)
        .describe('the requests, each as one generate request; one accepted by an earlier batch (same description, url and feature) is skipped'),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
  );
}

/** The CLI's name for a field where it differs (`--out`, after Playwright's `--output`); the description is the argument. */
export const CLI_OPTION_NAMES: Readonly<Partial<Record<RequestField, string>>> = { outputPath: 'out' };

/** A problem with one field, by its name on the surface that reports it. */
export interface RequestProblem {
  /** A field's name, `body` for the request as a whole. */
  field: string;
  message: string;
}

/** The request, or the problems naming each field at fault. */
export function parseRequest(input: unknown, limits: RequestLimits): { ok: true; value: GenerateRequestFields } | { ok: false; problems: RequestProblem[] } {
  const parsed = requestSchema(limits).safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problems: parsed.error.issues.flatMap(problemsOf) };
}

function problemsOf(issue: z.core.$ZodIssue): RequestProblem[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: key, message: 'is not a field of this request' }));
  return [{ field: issue.path.map(String).join('.') || 'body', message: issue.message }];
}
