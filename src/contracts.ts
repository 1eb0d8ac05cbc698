/**
 * Scribe's data contracts (README: the CLI's JSON, the HTTP API, the library), one zod schema each. Every boundary (CLI JSON, HTTP, stage to stage,
 * model answers) parses through these, so a type and its runtime check never drift apart.
 */
import { z } from 'zod';

export const Severity = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof Severity>;

export const Issue = z.object({
  rule: z.string(),
  severity: Severity,
  message: z.string(),
  line: z.number().int().nonnegative(),
  column: z.number().int().nonnegative(),
  fixable: z.boolean(),
});
export type Issue = z.infer<typeof Issue>;

export const FileReport = z.object({
  file: z.string(),
  passed: z.boolean(),
  issues: z.array(Issue),
});
export type FileReport = z.infer<typeof FileReport>;

export const ValidateReport = z.object({
  files: z.array(FileReport),
  summary: z.object({
    files: z.number().int(),
    passed: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
  }),
  /** What the run asks a person to know, beyond each file (a package not installed where the specs are checked, …); absent when nothing. */
  warnings: z.array(z.string()).optional(),
});
export type ValidateReport = z.infer<typeof ValidateReport>;

export const Complexity = z.enum(['easy', 'medium', 'hard']);
export type Complexity = z.infer<typeof Complexity>;

export const AgentResult = z.object({
  success: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
});
export type AgentResult = z.infer<typeof AgentResult>;

export const ScribeTask = z.object({
  taskDescription: z.string().min(1),
  featureName: z.string().min(1),
  outputPath: z.string().optional(),
  url: z.string().optional(),
  complexity: Complexity.optional(),
});
export type ScribeTask = z.infer<typeof ScribeTask>;

export const RunClassification = z.enum(['pass', 'test_bug', 'app_bug', 'environment', 'timeout']);
export type RunClassification = z.infer<typeof RunClassification>;

export const TestResultSegment = z.object({
  type: z.literal('TEST_RESULT'),
  content: z.string(),
  outcome: z.enum(['PASS', 'FAIL']),
});
export type TestResultSegment = z.infer<typeof TestResultSegment>;

/**
 * The proof run's verdict: the spec run once more with its actions under test made no-ops
 * (analysis/neutralise.ts). `proved`: each test that acts failed there on a check after its actions;
 * `unproved`: one still passed; `no_actions`: no test acts after its last navigation; `inconclusive`:
 * it failed elsewhere or did not run, or an action under test is retried inside an assertion (no copy is run).
 */
export const ProofVerdict = z.enum(['proved', 'unproved', 'no_actions', 'inconclusive']);
export type ProofVerdict = z.infer<typeof ProofVerdict>;

export const ProofResult = z.object({
  verdict: ProofVerdict,
  /** What was shown, in words a model can act on. */
  message: z.string(),
  /** The actions made no-ops, as written. */
  actions: z.array(z.string()),
  /** The line of the first of them (else of the test) in the spec. */
  line: z.number().int(),
});
export type ProofResult = z.infer<typeof ProofResult>;

export const RunnerReport = z.object({
  status: z.enum(['pass', 'fail', 'timeout', 'error']),
  classification: RunClassification,
  duration_ms: z.number().nonnegative(),
  error_message: z.string().nullable(),
  error_line: z.number().int().nullable(),
  screenshots: z.array(z.string()),
  /** The run's Playwright trace(s) of the spec's own tests, kept beside its screenshots (`npx playwright show-trace`). */
  traces: z.array(z.string()).optional(),
  console_errors: z.array(z.string()),
  /** Playwright's error context (the page snapshot at failure), kept for the Medic. */
  error_context: z.string().nullable().optional(),
  /** Run-time grounding: the test ids and named elements of the page the test ended on (where a failing step failed). */
  final_page: z.object({ url: z.string(), testIds: z.array(z.string()), roles: z.array(z.string()) }).nullable().optional(),
  segment: TestResultSegment.optional(),
  /** A green run's proof run, when one was asked for. */
  proof: ProofResult.optional(),
  /** Each test of the spec as Playwright ran it (its last try), in report order; absent when no report was read. */
  tests: z.array(z.object({ title: z.string(), line: z.number().int(), status: z.enum(['passed', 'failed', 'timedOut', 'skipped', 'interrupted', 'not run']), duration_ms: z.number().nonnegative() })).optional(),
  /** How an untrusted run was contained: the OS sandbox, the cap on its whole memory, and what was missing or reached. */
  containment: z
    .object({
      os_sandbox: z.boolean(),
      /** Why the run went without the OS sandbox (os_sandbox false): off, not installed, or its probe failed. */
      os_sandbox_unavailable: z.string().optional(),
      memory_cap_mb: z.number().int().positive().nullable(),
      notes: z.array(z.string()),
    })
    .optional(),
});
export type RunnerReport = z.infer<typeof RunnerReport>;

export const CriticVerdict = z.object({
  status: z.enum(['approved', 'rejected']),
  reason: z.string(),
  issues_found: z.array(Issue),
  estimated_cost: z.number().nonnegative(),
  estimated_duration_ms: z.number().nonnegative(),
});
export type CriticVerdict = z.infer<typeof CriticVerdict>;

/** `scribe generate --json`, and the `result` of an HTTP job. */
/**
 * How exploring got past the start URL's sign-in page (or why it did not): `storage_state` the project's
 * state file, `setup_project` the state the config's setup project made (run contained, as in a candidate's
 * run), `login_form` the page's form with the declared credentials, `none` not signed in.
 */
export const ExploreSignIn = z.object({
  method: z.enum(['storage_state', 'setup_project', 'login_form', 'none']),
  /** Whether the pages behind the login were explored (the start URL no longer landed on a sign-in page). */
  explored_behind_login: z.boolean(),
  /** What was done, as the terminal shows it. */
  message: z.string(),
});
export type ExploreSignIn = z.infer<typeof ExploreSignIn>;

export const GenerateResult = z.object({
  success: z.boolean(),
  testPath: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  issues: z.array(Issue),
  critic: CriticVerdict.nullable(),
  runner: RunnerReport.nullable(),
  error: z.string().nullable(),
  /** What the project's setup asks a person to know (a safety rule switched off, …); absent when nothing. */
  warnings: z.array(z.string()).optional(),
  /** Wall time per stage (explore, scribe, critic, run, medic) and `total`, in ms; absent when the request was refused. */
  timings_ms: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** How the explorer signed in; absent when the start page asked for no sign-in, or nothing was explored. */
  sign_in: ExploreSignIn.optional(),
});
export type GenerateResult = z.infer<typeof GenerateResult>;

/** One step of a generation as the terminal, an HTTP job's `stages` and its event stream show it. */
export const PipelineEvent = z.object({
  stage: z.string(),
  status: z.enum(['started', 'done', 'failed', 'info']),
  message: z.string(),
  at: z.string(),
});
export type PipelineEvent = z.infer<typeof PipelineEvent>;

export const JobStatus = z.enum(['queued', 'running', 'done', 'failed']);
export type JobStatus = z.infer<typeof JobStatus>;

/** An HTTP job (GET /v1/jobs/:id, docs/http-api.md), and what <home>/jobs/<id>.json keeps of it. */
export const JobView = z.object({
  id: z.string().uuid(),
  status: JobStatus,
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Jobs ahead of this one while it waits (0: next to start). */
  queue_position: z.number().int().nonnegative().optional(),
  stages: z.array(PipelineEvent),
  /** The `generate --json` document, once the pipeline has produced one. */
  result: GenerateResult.optional(),
  /** The pipeline's exit code (0 success, 1 the work failed, 2 the request or setup must be fixed). */
  exit_code: z.number().int().optional(),
  /** Why a failed job failed. */
  error: z.string().optional(),
  /** The server stopped (a restart, a shutdown past its grace period) before the job could finish. */
  interrupted: z.literal(true).optional(),
});
export type JobView = z.infer<typeof JobView>;

/** `generate_test`'s result under `scribe mcp`: the `generate --json` document, and which model wrote the spec and why. */
export const GenerateToolResult = GenerateResult.extend({
  provider: z.string().describe('the model that wrote the spec: mcp (the host, through sampling), openai or offline'),
  provider_note: z.string().describe('why that model was used'),
});
export type GenerateToolResult = z.infer<typeof GenerateToolResult>;

/** A compact inventory of a live page (src/explore), carried into prompts and the grounding rule. */
const OnePageInventory = z.object({
  url: z.string(),
  title: z.string(),
  testIdAttribute: z.string(),
  testIds: z.array(
    z.object({
      testId: z.string(),
      tag: z.string(),
      role: z.string().nullable(),
      text: z.string().nullable(),
      label: z.string().nullable(),
      count: z.number().int().positive(),
      /** Whether the first element carrying it was visible when explored (hidden ones are often outcomes: errors, results). */
      visible: z.boolean().optional(),
    }),
  ),
  roles: z.array(z.object({ role: z.string(), name: z.string(), count: z.number().int().positive() })),
  fields: z.array(
    z.object({
      type: z.string(),
      label: z.string().nullable(),
      placeholder: z.string().nullable(),
      name: z.string().nullable(),
      testId: z.string().nullable(),
    }),
  ),
  headings: z.array(z.object({ level: z.number().int(), text: z.string() })),
  links: z.array(z.object({ text: z.string(), href: z.string(), testId: z.string().nullable() })),
  /** What the size cap left out, in words ("42 links", "310 test ids"). */
  truncated: z.array(z.string()),
  estimatedTokens: z.number().int().nonnegative(),
});
/**
 * The start page's inventory; after a site exploration it also holds the other same-origin pages
 * explored from it (`pages`) and the same-origin paths seen in links but left unexplored by the bounds.
 */
export const PageInventory = OnePageInventory.extend({
  pages: z.array(OnePageInventory).optional(),
  unexplored: z.array(z.string()).optional(),
  /** How many of `pages` the prompt carries (the rest were cut for size, and the prompt names them). */
  promptPages: z.number().int().nonnegative().optional(),
});
export type PageInventory = z.infer<typeof PageInventory>;

/**
 * The project's own test code a generated spec may use: its fixtures modules (a `test.extend` exported) and
 * page objects (an exported class built from a `Page`), each with its exported members; and the seed spec
 * the user points to (agents/scribe.yaml generation.seed_spec), whose setup a spec follows.
 */
export interface ProjectStyle {
  /** `file` is absolute: the prompt names it by its import path from the spec's folder. */
  modules: Array<{ file: string; kind: 'fixtures' | 'page object'; members: string[] }>;
  /** The seed spec: its path as agents/scribe.yaml names it (relative to the project), and its text. */
  seed: { file: string; text: string } | null;
}
