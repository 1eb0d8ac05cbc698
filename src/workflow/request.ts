/**
 * A caller's request settled once: feature, complexity, spec path and URL filled in from the project.
 * The pipeline settles every request here, and the HTTP API and the MCP tool settle theirs here to check
 * the spec's path before they queue the work, so the spec path is computed in one place.
 *
 * Light on purpose: the HTTP server's own thread loads it, and the pipeline's stages stay out of that thread.
 */
import type { ResolvedRequest } from '../agents/request.ts';
import { ScribeTask, type Complexity } from '../contracts.ts';
import type { ProjectContext } from '../project/context.ts';
import { specPath } from '../store/spec-files.ts';
import { isAppPath, isHttpUrl, urlProblem } from './request-contract.ts';

/** What a caller asks for, before its defaults are settled. */
export interface RequestInput {
  description: string;
  /** Default: the description. */
  feature?: string;
  /** Where the spec goes, relative to the project; default: <output folder>/<feature>/<request>.spec.ts. */
  outputPath?: string;
  /** Default: the project's base URL. */
  url?: string;
  /** Default: agents/scribe.yaml's provider.default_complexity. */
  complexity?: Complexity;
}

/** A value settled, or why it cannot be (naming the request's field at fault, when one is). */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: string; field?: string };

/**
 * The app URL of a request: an http(s) URL as given; a path resolved against the base URL; without one,
 * the base URL. What is refused is the contract's urlProblem, on every surface.
 */
export function settleUrl(url: string | undefined, baseURL: string | undefined): Settled<string | undefined> {
  const given = url?.trim();
  if (!given) {
    if (baseURL === undefined) return { ok: true, value: undefined };
    return isHttpUrl(baseURL) ? { ok: true, value: baseURL } : { ok: false, field: 'url', error: `the base URL must be an http:// or https:// URL: ${baseURL} (BASE_URL or the Playwright config's use.baseURL)` };
  }
  const problem = urlProblem(given);
  if (problem) return { ok: false, field: 'url', error: `${problem}: ${given}` };
  if (!isAppPath(given)) return { ok: true, value: given };
  if (baseURL === undefined || !isHttpUrl(baseURL)) return { ok: false, field: 'url', error: `${given} is a path: it needs a base URL to resolve against (BASE_URL, or use.baseURL in the Playwright config), or give the whole http(s) URL` };
  return { ok: true, value: new URL(given, baseURL).href };
}

/** The request with its defaults settled, or why it cannot be done (a usage problem: exit 2). */
export function resolveRequest(input: RequestInput, project: ProjectContext): Settled<ResolvedRequest> {
  const settledUrl = settleUrl(input.url, project.baseURL);
  if (!settledUrl.ok) return settledUrl;
  // Checked as the library's ScribeTask, so a problem is named as the library names its fields.
  const parsed = ScribeTask.safeParse({
    taskDescription: input.description,
    featureName: input.feature?.trim() || input.description,
    outputPath: input.outputPath,
    url: settledUrl.value,
    complexity: input.complexity,
  });
  if (!parsed.success) {
    return { ok: false, error: `invalid request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')}` };
  }
  const { taskDescription, featureName, outputPath, url, complexity } = parsed.data;
  return {
    ok: true,
    value: {
      description: taskDescription,
      feature: featureName,
      complexity: complexity ?? project.agents.scribe.provider.default_complexity,
      file: specPath(project.cwd, project.outputDir, featureName, taskDescription, outputPath),
      url,
    },
  };
}
