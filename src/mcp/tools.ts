/**
 * Scribe's library calls as MCP tools, with zod-described inputs and structured outputs:
 *
 *   generate_test      → the `generate --json` document (+ which model wrote it), progress stage by stage
 *   generate_batch     → the `generate --plan --json` document: requests N at once, resumable, progress per request
 *   validate_spec      → the `validate --json` document
 *   run_spec           → the Runner report
 *   validation_stats   → the `stats --json` document
 *   heal_spec          → the `heal --json` document
 *
 * The HTTP API's rules hold: requests are checked with its schema and limits (agents/server.yaml),
 * nothing is written outside the output folder, nothing is read outside the project folder.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import { runGated } from '../agents/contained-run.ts';
import type { GenerationReporter } from '../agents/reporter.ts';
import { ConfigError } from '../config/load.ts';
import type { ServerConfig } from '../config/server.ts';
import { GenerateToolResult, RunnerReport, ValidateReport, type Issue } from '../contracts.ts';
import { HealSuiteResult } from '../heal/result.ts';
import { healSuite } from '../heal/suite.ts';
import { HttpError } from '../endpoint/errors.ts';
import { checkedProjectPath, checkedSpecTarget } from '../endpoint/paths.ts';
import type { ProviderName } from '../llm/provider.ts';
import { SamplingProvider } from '../llm/sampling.ts';
import { runTarget, type ProjectContext } from '../project/context.ts';
import { readStats, StatsDocument } from '../stats/index.ts';
import { collectSpecFiles } from '../validate/files.ts';
import { validateReport } from '../validate/report.ts';
import { peopleValidator, safetyGate } from '../validate/gate.ts';
import type { Validator } from '../validate/validator.ts';
import { BatchResult, generateBatch, requestItems, type BatchProgress } from '../workflow/batch.ts';
import { generateSpec } from '../workflow/pipeline.ts';
import { progressReporter } from '../workflow/progress-reporter.ts';
import { batchSchema, mcpRequestShape, parseRequest, REQUEST_FIELD_DESCRIPTIONS } from '../workflow/request-contract.ts';
import { settleUrl } from '../workflow/request.ts';
import { abortable } from '../util/abortable.ts';
import { chooseModel } from './model-choice.ts';
import { JobSlots, SlotsFullError } from './slots.ts';

/** What every session of one `scribe mcp` process shares. */
export interface McpContext {
  /** The project, read once when the server starts. */
  project: ProjectContext;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ServerConfig;
  /** `--provider`; undefined: the configured model, else the host's (sampling), else offline. */
  provider?: ProviderName;
  slots: JobSlots;
  /** One validator for every call: its compiler project makes each type-check after the first fast. */
  validator: () => Validator;
  /** The safety gate before run_spec (the model may have written the file), sharing that compiler project. */
  gate: () => Validator;
  /**
   * Settles once the Playwright config's webServer is up (at once without one), or with why it could not start:
   * over stdio the host's handshake is answered while the app starts, and the tools that explore or run wait for it.
   */
  app: Promise<void>;
}

export function createMcpContext(options: { project: ProjectContext; provider?: ProviderName; app?: Promise<void> }): McpContext {
  const { project } = options;
  const config = project.agents.server;
  let validator: Validator | undefined;
  let gate: Validator | undefined;
  const shared = () => (validator ??= peopleValidator(project.agents.critic, { typeCheck: true }));
  return {
    project,
    cwd: project.cwd,
    env: project.env,
    config,
    provider: options.provider,
    slots: new JobSlots({ concurrency: config.jobs.concurrency, maxQueued: config.jobs.max_queued }),
    validator: shared,
    gate: () => (gate ??= safetyGate(project.agents.critic, { projectRoot: project.cwd, from: shared() })),
    app: options.app ?? Promise.resolve(),
  };
}

/** A job's slot, once the app is up: what a tool that explores or runs takes first (a cancelled call stops waiting). */
async function appJobSlot(context: McpContext, signal: AbortSignal): Promise<() => void> {
  await abortable(context.app, signal);
  return context.slots.acquire(signal);
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function registerTools(server: McpServer, context: McpContext): void {
  const { cwd, env, config } = context;
  const outputDir = path.relative(cwd, context.project.outputDir) || '.';
  const limits = { maxDescriptionChars: config.http.max_description_chars, maxFieldChars: config.http.max_field_chars };

  server.registerTool(
    'generate_test',
    {
      title: 'Generate a Playwright test',
      description:
        `Writes a Playwright e2e spec from a plain-language request, checks it (rules, type check, Critic) and, with an app URL, runs it; ` +
        `the accepted spec is written under ${outputDir}/. Reports progress stage by stage; cancellable.`,
      inputSchema: mcpRequestShape(limits),
      outputSchema: GenerateToolResult.shape,
    },
    (args, extra) =>
      guarded(async () => {
        const parsed = parseRequest(args, limits);
        if (!parsed.ok) throw HttpError.invalid(parsed.problems);
        const request = parsed.value;
        const outputPath = checkedSpecTarget(context.project, request);
        const clientSamples = server.server.getClientCapabilities()?.sampling !== undefined;
        const choice = chooseModel(env, context.provider, clientSamples);
        const provider = choice.provider === 'mcp' ? new SamplingProvider({ server: server.server, maxTokens: config.mcp.sampling_max_tokens }) : undefined;
        const release = await appJobSlot(context, extra.signal);
        try {
          const result = await generateSpec(
            { ...request, outputPath, provider: choice.provider === 'mcp' ? undefined : choice.provider },
            { cwd, env, project: context.project, signal: extra.signal, provider, validator: context.validator(), reporters: [mcpProgress(extra, cwd)] },
          );
          const document = GenerateToolResult.parse({ ...result.document, provider: choice.provider, provider_note: choice.note });
          return structured(document, result.exitCode === 2);
        } finally {
          release();
        }
      }),
  );

  const batchInput = batchSchema(limits, config.jobs.max_queued, z.strictObject(mcpRequestShape(limits)));
  server.registerTool(
    'generate_batch',
    {
      title: 'Generate a batch of Playwright tests',
      description:
        `Does generate_test for each request, ${config.jobs.concurrency} at once (one warm type checker per worker); a request accepted by an earlier batch ` +
        `(same description, url and feature, its spec still there) is skipped. Answers with every request's outcome and a summary; the batch is recorded for \`scribe report\`. ` +
        'Reports progress request by request; cancellable.',
      inputSchema: batchInput.shape,
      outputSchema: BatchResult.shape,
    },
    (args, extra) =>
      guarded(async () => {
        const parsed = batchInput.safeParse(args);
        if (!parsed.success) throw HttpError.invalid(parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'requests', message: issue.message })));
        const requests = parsed.data.requests.map((request) => ({ ...request, outputPath: checkedSpecTarget(context.project, request) }));
        const clientSamples = server.server.getClientCapabilities()?.sampling !== undefined;
        const choice = chooseModel(env, context.provider, clientSamples);
        const provider = choice.provider === 'mcp' ? new SamplingProvider({ server: server.server, maxTokens: config.mcp.sampling_max_tokens }) : undefined;
        const items = requestItems(requests.map((request) => ({ ...request, ...(choice.provider === 'mcp' ? {} : { provider: choice.provider }) })));
        // The batch is one job of this server's: its own workers are the generations at once.
        const release = await appJobSlot(context, extra.signal);
        try {
          const result = await generateBatch({ project: context.project, items, source: 'mcp generate_batch', workers: config.jobs.concurrency, provider, signal: extra.signal, onProgress: batchProgress(extra) });
          return structured(result, false);
        } finally {
          release();
        }
      }),
  );

  server.registerTool(
    'validate_spec',
    {
      title: 'Validate Playwright specs',
      description: 'Checks specs against the critic rules (agents/critic.yaml) and the Playwright types. Give a path (file or folder in the project) or the code itself.',
      inputSchema: {
        path: z.string().optional().describe('a spec file or a folder of specs, relative to the project'),
        code: z.string().optional().describe('the spec source itself, instead of a path'),
      },
      outputSchema: ValidateReport.shape,
    },
    (args) =>
      guarded(async () => {
        if ((args.path === undefined) === (args.code === undefined)) throw HttpError.invalid([{ field: 'path', message: 'give either path or code (one of them)' }]);
        const specs = args.code !== undefined ? [inlineSpec(args.code, cwd, outputDir, config.http.max_body_bytes)] : specsAt(cwd, args.path!);
        return structured(validateReport(context.validator().validateMany(specs), cwd), false);
      }),
  );

  server.registerTool(
    'run_spec',
    {
      title: 'Run a Playwright spec',
      description: 'Runs one spec with Playwright against the app and classifies the outcome: pass, test_bug, app_bug, environment, timeout. Cancellable.',
      inputSchema: {
        path: z.string().describe('the spec file, relative to the project'),
        url: z.string().optional().describe(REQUEST_FIELD_DESCRIPTIONS.url),
      },
      outputSchema: RunnerReport.shape,
    },
    (args, extra) =>
      guarded(async () => {
        const file = checkedSpecFile(cwd, args.path);
        // The caller is a model, which may have written the file: it runs only past the safety gate (not the
        // generated-spec policy, so a person's safe spec runs too), and no suppression comment is honoured.
        const settled = settleUrl(args.url, context.project.baseURL);
        if (!settled.ok) throw HttpError.invalid([{ field: 'url', message: settled.error }]);
        if (settled.value === undefined) throw HttpError.invalid([{ field: 'url', message: 'is required when BASE_URL is not set' }]);
        const baseURL = settled.value;
        const release = await appJobSlot(context, extra.signal);
        try {
          const gated = await runGated(context.gate(), file, readFileSync(file, 'utf8'), { baseURL, cwd, env, ...runTarget(context.project), signal: extra.signal });
          if (!gated.ran) return toolError(refusal(args.path, gated.issues));
          const { segment: _segment, ...document } = gated.report;
          return structured(document, false);
        } finally {
          release();
        }
      }),
  );

  server.registerTool(
    'heal_spec',
    {
      title: 'Heal failing Playwright specs',
      description:
        'Runs specs (a file or a folder in the project) against the app and heals each one that failed because the test is wrong (a renamed test id, a strict-mode locator), ' +
        'keeping every assertion; a heal is written only when its rerun is green. App bugs and environment failures are reported, never healed. Cancellable.',
      inputSchema: {
        path: z.string().describe('a spec file or a folder of specs, relative to the project'),
        url: z.string().optional().describe('the app under test (http/https); default BASE_URL'),
        dry_run: z.boolean().optional().describe('return each heal as a diff, write nothing'),
      },
      outputSchema: HealSuiteResult.shape,
    },
    (args, extra) =>
      guarded(async () => {
        const files = specsAt(cwd, args.path).map((spec) => spec.file);
        const settled = settleUrl(args.url, context.project.baseURL);
        if (!settled.ok) throw HttpError.invalid([{ field: 'url', message: settled.error }]);
        if (settled.value === undefined) throw HttpError.invalid([{ field: 'url', message: 'is required when BASE_URL is not set' }]);
        const baseURL = settled.value;
        const clientSamples = server.server.getClientCapabilities()?.sampling !== undefined;
        const choice = chooseModel(env, context.provider, clientSamples);
        const provider = choice.provider === 'mcp' ? new SamplingProvider({ server: server.server, maxTokens: config.mcp.sampling_max_tokens }) : undefined;
        const release = await appJobSlot(context, extra.signal);
        try {
          // The caller is a model, which may have written these specs: they run contained too.
          const result = await healSuite({ project: context.project, files, baseURL, dryRun: args.dry_run === true, containSpecs: true, provider, signal: extra.signal });
          return structured(result, false);
        } finally {
          release();
        }
      }),
  );

  server.registerTool(
    'validation_stats',
    {
      title: 'Generation statistics',
      description: "Scribe's generation statistics (the `stats --json` document): success rate, retries, Critic rejections, runner pass rate, issues by rule, model calls.",
      outputSchema: StatsDocument.shape,
    },
    () => guarded(async () => structured(readStats(env, cwd), false)),
  );
}

/**
 * The generation's reporter of MCP progress notifications: each stage line, numbered in order, when the caller
 * asked for progress (none otherwise).
 */
function mcpProgress(extra: Extra, cwd: string): GenerationReporter | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let step = 0;
  return progressReporter(
    cwd,
    (event) => {
      step += 1;
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message: `${event.stage} ${event.status}: ${event.message}` } }).catch(() => undefined);
    },
    'MCP progress notifications',
  );
}

/** Each request's start and end as an MCP progress notification, when the caller asked for progress. */
function batchProgress(extra: Extra): (event: BatchProgress) => void {
  const token = extra._meta?.progressToken;
  let step = 0;
  return (event) => {
    if (token === undefined || event.type === 'stage') return;
    step += 1;
    const message = event.type === 'started' ? `request ${event.index}/${event.total} started: ${event.request}` : `request ${event.outcome.index}/${event.total} ${event.outcome.status} (${event.done} of ${event.total} done)`;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
  };
}

function structured(document: object, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(document, null, 2) }], structuredContent: document as Record<string, unknown>, isError };
}

/** A request at fault (field named) or a configuration error: a tool error the model can read; anything else propagates. */
async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) return toolError(`invalid request: ${error.message}`);
    if (error instanceof SlotsFullError || error instanceof ConfigError) return toolError(error.message);
    throw error;
  }
}

/** Why run_spec refused a spec: the rules it breaks, then each error where it is. */
function refusal(spec: string, issues: Issue[]): string {
  const rules = [...new Set(issues.map((issue) => issue.rule))].join(', ');
  const lines = issues.map((issue) => `  ${spec}:${issue.line}:${issue.column}  ${issue.rule}  ${issue.message}`);
  return [`refused to run ${spec}: it breaks ${rules} (the safety gate for code a model may have written; nothing ran)`, ...lines].join('\n');
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

const SPEC_FILE = /\.(spec|test)\.(c|m)?[jt]sx?$/;

/** A spec file inside the project: nothing else is read as one. */
function checkedSpecFile(cwd: string, value: string): string {
  const file = checkedProjectPath(cwd, value, 'path');
  if (!SPEC_FILE.test(file) || !statSync(file).isFile()) throw HttpError.invalid([{ field: 'path', message: 'must name a spec file (*.spec.ts, *.test.ts)' }]);
  return file;
}

function specsAt(cwd: string, value: string): Array<{ file: string; text: string }> {
  const found = checkedProjectPath(cwd, value, 'path');
  const target = statSync(found).isDirectory() ? found : checkedSpecFile(cwd, value);
  const files = collectSpecFiles([target], cwd);
  if (files.length === 0) throw HttpError.invalid([{ field: 'path', message: `no spec files (*.spec.ts, *.test.ts) under ${value}` }]);
  return files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

/** Code sent inline is checked as if it were a spec in the output folder (its relative imports resolve from there); nothing is written. */
function inlineSpec(code: string, cwd: string, outputDir: string, maxBytes: number): { file: string; text: string } {
  if (Buffer.byteLength(code) > maxBytes) throw HttpError.invalid([{ field: 'code', message: `must be at most ${maxBytes} bytes` }]);
  return { file: path.resolve(cwd, outputDir, 'inline.spec.ts'), text: code };
}
