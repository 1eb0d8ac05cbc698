/**
 * `scribe plan`: what should be tested here? The site is explored as `generate` explores it (signed in
 * as explore-signed-in.ts signs in: the storage state, the setup project or the login form), then a model proposes scenarios from the site's inventory
 * (agents/scribe.yaml `planner`); without a model, the scenarios are read off what the pages show: each
 * page's heading, its lists, the errors it displays. Each scenario is one request `generate` can take.
 * Bounded: the inventory by explore.max_tokens, the scenarios by planner.max_scenarios.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'yaml';
import { z } from 'zod';
import { completeRecorded, isFailedCall } from '../agents/model-call.ts';
import { stageReporter } from '../agents/reporter.ts';
import { renderTemplate, modelFor } from '../config/scribe.ts';
import type { ExploreSignIn, PageInventory } from '../contracts.ts';
import { renderSite } from '../explore/render.ts';
import { pathKey } from '../explore/site.ts';
import { fencedBlocks } from '../llm/extract.ts';
import { createProvider } from '../llm/provider.ts';
import { secretsOf, shownTexts } from '../llm/redact.ts';
import type { ModelProvider } from '../llm/types.ts';
import type { ProjectContext } from '../project/context.ts';
import type { StatsSink } from '../stats/log.ts';
import type { SignedInExploration } from './explore-signed-in.ts';
import { Scenario, TestPlan } from './plan-file.ts';

export interface PlanOptions {
  project: ProjectContext;
  url: string;
  /** A model provider made by the caller; default: the project's (offline without a model). */
  provider?: ModelProvider;
  stats?: StatsSink | false;
  onProgress?: (message: string) => void;
  /** What was done to explore behind a login (or that it was not), once it is known. */
  onSignIn?: (signIn: ExploreSignIn) => void;
  signal?: AbortSignal;
}

export async function planTests(options: PlanOptions): Promise<TestPlan> {
  const { project, url } = options;
  const { scribe, critic } = project.agents;
  options.onProgress?.(`exploring ${url}`);
  const { inventory: site, signIn } = await exploreSigningIn(options).catch((error: unknown) => {
    // The start page is the plan's whole input: without it there is nothing to plan from. (By name: the
    // explorer's module, which loads Playwright, is loaded only on demand.)
    if (error instanceof Error && error.name === 'ExploreError') throw new PlanError(`${error.message} (is the app running there? --url, BASE_URL or the Playwright config's use.baseURL names it, and its webServer starts it)`);
    throw error;
  });
  if (signIn) options.onSignIn?.(signIn);
  const pages = [site, ...(site.pages ?? [])];
  options.onProgress?.(`explored ${pages.length} page${pages.length === 1 ? '' : 's'}; ${site.unexplored?.length ?? 0} not reached`);
  const unreachable = [...(site.unexplored ?? [])];
  const provider = options.provider ?? (await createProvider({ env: project.env, settings: scribe.provider, explicit: project.provider, offline: project.agents.offline }));
  const max = scribe.planner.max_scenarios;
  if (provider.name === 'offline') {
    return TestPlan.parse({ version: 1, app: url, planner: 'offline', scenarios: offlineScenarios(pages).slice(0, max), unreachable, tokens: 0, sign_in: signIn });
  }

  options.onProgress?.('asking the model for scenarios');
  const prompts = scribe.planner.prompts;
  const generation = randomUUID();
  const answer = await completeRecorded(
    provider,
    {
      messages: [
        { role: 'system', content: renderTemplate(prompts.system, { max_scenarios: String(max) }).trim() },
        { role: 'user', content: renderTemplate(prompts.user, { inventory: renderSite(site), unreachable: unreachable.length > 0 ? `Linked but not reached: ${unreachable.join(', ')}` : '' }).trim() },
      ],
      model: modelFor(scribe, scribe.provider.default_complexity, project.env),
      temperature: scribe.provider.temperature,
      stream: scribe.provider.stream,
    },
    generation,
    stageReporter({ stats: options.stats }, project.env, project.cwd),
    // The page's own words (a field labelled like a password's value) stay in the prompt that presents it.
    { secrets: secretsOf(critic.credentials, project.env), keep: [], shown: { texts: shownTexts(site), messages: 2 } },
  );
  if (isFailedCall(answer)) throw new PlanError(`the model could not be reached: ${answer.error}`);
  const scenarios = modelScenarios(answer.text);
  if (typeof scenarios === 'string') throw new PlanError(`the model's plan cannot be used: ${scenarios}`);
  return TestPlan.parse({ version: 1, app: url, planner: answer.model, scenarios: dedupe(scenarios).slice(0, max), unreachable, tokens: answer.usage.total, sign_in: signIn });
}

/** The site, explored in a browser of its own, signed in as `generate` signs in (explore-signed-in.ts). */
async function exploreSigningIn({ project, url, signal, onProgress }: PlanOptions): Promise<SignedInExploration> {
  // Loaded on demand, as the pipeline loads it: exploring needs Playwright.
  const { exploreInOwnBrowser } = await import('./explore-signed-in.ts');
  const { scribe, critic } = project.agents;
  return exploreInOwnBrowser(url, { project, testIdAttribute: critic.testIdAttribute, settings: scribe.explore, env: project.env, signal, onProgress: (message) => onProgress?.(message) });
}

/** The plan could not be made (the model failed or answered no usable plan). */
export class PlanError extends Error {}

const ModelAnswer = z.object({ scenarios: z.array(Scenario).min(1) });

/** The scenarios of the model's YAML block, or what is wrong with it. */
function modelScenarios(text: string): Scenario[] | string {
  const block = fencedBlocks(text).find((b) => b.language === 'yaml' || b.language === 'yml') ?? fencedBlocks(text)[0];
  let data: unknown;
  try {
    data = parse(block?.code ?? text);
  } catch (error) {
    return `not YAML (${(error as Error).message.split('\n')[0]})`;
  }
  const parsed = ModelAnswer.safeParse(data);
  if (parsed.success) return parsed.data.scenarios;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.') || 'the answer'}: ${issue.message}`;
}

function dedupe(scenarios: readonly Scenario[]): Scenario[] {
  const seen = new Set<string>();
  return scenarios.filter((scenario) => {
    const key = scenario.request.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Scenarios read off the pages, phrased as the offline generator understands them (an outcome after
 * "see", a page to open and nothing to type): each page shows its heading; each visible list shows its
 * items; an error a page displays is shown; then, after every page's, the first text each page shows.
 * A text that holds a quote mark is left out: the request could not quote it whole.
 */
export function offlineScenarios(pages: readonly PageInventory[]): Scenario[] {
  const shown = (page: PageInventory, what: string, text: string): Scenario => {
    const path = pathKey(page.url);
    return { request: `open ${path} and see ${what}"${text}"`, page: path, steps: [`open ${path}`], expected: `${what}"${text}" is shown` };
  };
  const perPage = pages.flatMap((page) => {
    const path = pathKey(page.url);
    const scenarios: Scenario[] = [];
    const heading = page.headings.find((h) => h.level === 1) ?? page.headings[0];
    if (heading && quotable(heading.text)) scenarios.push(shown(page, 'the heading ', heading.text));
    // A list without items (search results before a search) has nothing to see.
    for (const list of page.testIds.filter((entry) => LIST_TAGS.has(entry.tag) && entry.count === 1 && entry.visible !== false && entry.text?.trim())) {
      const name = list.testId.replace(/[-_]+/g, ' ');
      scenarios.push({ request: `open ${path} and see the ${name}`, page: path, steps: [`open ${path}`], expected: `the ${name} is visible with its items` });
    }
    for (const error of page.testIds.filter((entry) => entry.visible !== false && (entry.role === 'alert' || /error/i.test(entry.testId)) && entry.text && quotable(entry.text))) {
      scenarios.push(shown(page, 'the error ', error.text!));
    }
    return scenarios;
  });
  const texts = pages.flatMap((page) => {
    const text = page.testIds.find((entry) => entry.tag === 'p' && entry.count === 1 && entry.visible !== false && entry.role !== 'alert' && entry.text && quotable(entry.text));
    return text ? [shown(page, '', text.text!.trim())] : [];
  });
  return dedupe([...perPage, ...texts]);
}

function quotable(text: string): boolean {
  return text.trim() !== '' && text.length <= 80 && !/["“”'‘’]/.test(text);
}

const LIST_TAGS = new Set(['ul', 'ol', 'table', 'tbody']);
