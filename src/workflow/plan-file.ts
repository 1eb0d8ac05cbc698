/**
 * A test plan: the scenarios `scribe plan` writes and `scribe generate --plan` reads, as YAML or as
 * Markdown (a person's reading; the same fields, one section a scenario). One zod schema for both.
 */
import { createHash } from 'node:crypto';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { ExploreSignIn } from '../contracts.ts';

export const Scenario = z.strictObject({
  /** The plain-language request `generate` is given. */
  request: z.string().trim().min(1),
  /** The page it starts on, a path of the app (`/search`). */
  page: z.string().trim().min(1),
  steps: z.array(z.string().trim().min(1)).default([]),
  expected: z.string().trim().min(1),
  /** The feature folder its spec goes into (default: its page's, /cart → cart, / → home). */
  feature: z.string().trim().min(1).optional(),
});
export type Scenario = z.infer<typeof Scenario>;

export const TestPlan = z.strictObject({
  version: z.literal(1),
  /** The app the plan was made on. */
  app: z.string(),
  /** Who proposed the scenarios: a model's name, or `offline` (read from the pages). */
  planner: z.string(),
  scenarios: z.array(Scenario).min(1),
  /** Pages linked but not explored (bounds, or a login the planner could not pass). */
  unreachable: z.array(z.string()).default([]),
  /** Model tokens the plan cost. */
  tokens: z.number().int().nonnegative().default(0),
  /** How the pages behind a login were explored, or why they were not; absent when the app asked for no sign-in. */
  sign_in: ExploreSignIn.optional(),
});
export type TestPlan = z.infer<typeof TestPlan>;

/** A plan file that cannot be read: what is wrong and where. */
export class PlanFileError extends Error {}

/** The scenario's identity across runs: a hash of its request, page and expected outcome. */
export function scenarioHash(scenario: Scenario): string {
  return createHash('sha256').update(JSON.stringify([scenario.request.trim(), scenario.page.trim(), scenario.expected.trim(), scenario.feature ?? ''])).digest('hex').slice(0, 16);
}

export function isMarkdownPlan(file: string): boolean {
  return /\.(md|markdown)$/i.test(file);
}

export function renderPlan(plan: TestPlan, markdown: boolean): string {
  return markdown ? renderMarkdown(plan) : stringify(TestPlan.parse(plan), { lineWidth: 0 });
}

export function parsePlan(text: string, file: string): TestPlan {
  let data: unknown;
  try {
    data = isMarkdownPlan(file) ? markdownData(text, file) : parse(text);
  } catch (error) {
    if (error instanceof PlanFileError) throw error;
    throw new PlanFileError(`${file}: not a plan: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = TestPlan.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new PlanFileError(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
}

const MD_FIELD = /^- \*\*(Page|Expected|Feature)\*\*: (.*)$/;

function renderMarkdown(plan: TestPlan): string {
  const lines = [`# Test plan for ${plan.app}`, '', `Planner: ${plan.planner} · ${plan.scenarios.length} scenarios · ${plan.tokens} tokens`, ''];
  if (plan.sign_in) lines.push(`Sign-in: ${plan.sign_in.message}`, '');
  plan.scenarios.forEach((scenario, index) => {
    lines.push(`## ${index + 1}. ${scenario.request}`, '', `- **Page**: ${scenario.page}`);
    if (scenario.feature) lines.push(`- **Feature**: ${scenario.feature}`);
    lines.push(`- **Expected**: ${scenario.expected}`);
    if (scenario.steps.length > 0) lines.push('- **Steps**:', ...scenario.steps.map((step, n) => `  ${n + 1}. ${step}`));
    lines.push('');
  });
  lines.push('## Pages not reached', '', ...(plan.unreachable.length > 0 ? plan.unreachable.map((page) => `- ${page}`) : ['(none)']), '');
  return lines.join('\n');
}

/** The Markdown rendering read back: `# Test plan for <app>`, a `## N. <request>` section a scenario. */
function markdownData(text: string, file: string): unknown {
  const lines = text.split(/\r?\n/);
  const app = /^# Test plan for (.+)$/.exec(lines[0] ?? '')?.[1];
  if (!app) throw new PlanFileError(`${file}:1: a Markdown plan starts with "# Test plan for <app URL>"`);
  const planner = /^Planner: ([^·]+)/.exec(lines.find((line) => line.startsWith('Planner: ')) ?? '')?.[1]?.trim() ?? 'unknown';
  const scenarios: Array<Record<string, unknown>> = [];
  const unreachable: string[] = [];
  let section: 'scenario' | 'unreachable' | undefined;
  lines.forEach((line, index) => {
    const heading = /^## (?:(\d+)\. )?(.+)$/.exec(line);
    if (heading) {
      section = heading[1] ? 'scenario' : heading[2] === 'Pages not reached' ? 'unreachable' : undefined;
      if (section === 'scenario') scenarios.push({ request: heading[2], steps: [] });
      return;
    }
    if (section === 'unreachable' && line.startsWith('- ')) unreachable.push(line.slice(2).trim());
    if (section !== 'scenario') return;
    const current = scenarios.at(-1)!;
    const field = MD_FIELD.exec(line);
    if (field) current[field[1]!.toLowerCase()] = field[2]!.trim();
    else if (/^\s+\d+\. /.test(line)) (current.steps as string[]).push(line.replace(/^\s+\d+\. /, '').trim());
    else if (line.trim() && !line.startsWith('- **Steps**')) throw new PlanFileError(`${file}:${index + 1}: unexpected line in scenario ${scenarios.length}: ${line.trim()}`);
  });
  return { version: 1, app, planner, scenarios, unreachable };
}
