/**
 * The offline generator: Scribe's embedded default when no model is configured. It writes a
 * deterministic, readable spec from the request and the explored page (offline-plan.ts), selecting by
 * test id only, reading credentials from the environment, with a step per stage and a screenshot.
 * When it cannot map the request, it says so and writes a labelled smoke test of the page instead.
 */
import { loadOfflineVocabulary, type OfflineVocabulary } from '../config/offline.ts';
import { planSpec, type FillValue, type Locator, type MappedPlan, type SmokePlan } from './offline-plan.ts';
import type { Completion, CompletionRequest, GenerationTask, ModelProvider } from './types.ts';

export class OfflineProvider implements ModelProvider {
  readonly name = 'offline';
  private readonly vocabulary: OfflineVocabulary;

  constructor(vocabulary: OfflineVocabulary = loadOfflineVocabulary()) {
    this.vocabulary = vocabulary;
  }

  /** Ignores the chat text: without a language model, the structured task is what it can read. */
  async complete(request: CompletionRequest): Promise<Completion> {
    if (!request.task) throw new Error('The offline generator needs the structured request (CompletionRequest.task); the chat text alone is not enough.');
    const { note, spec, substitute } = writeSpec(request.task, this.vocabulary);
    return { text: `${note}\n\n\`\`\`ts\n${spec}\`\`\`\n`, model: this.name, usage: { prompt: 0, completion: 0, total: 0 }, attempts: 1, ...(substitute ? { substitute } : {}) };
  }
}

export interface OfflineSpec {
  /** One paragraph for the user: what was mapped, or why a smoke test was written instead. */
  note: string;
  /** Why the spec does not test the request, when it is a smoke test standing in for it. */
  substitute?: string;
  spec: string;
}

export function writeSpec(task: GenerationTask, vocabulary: OfflineVocabulary): OfflineSpec {
  const plan = planSpec(task, vocabulary);
  return plan.kind === 'mapped' ? mappedSpec(task, plan, vocabulary) : smokeSpec(task, plan);
}

function mappedSpec(task: GenerationTask, plan: MappedPlan, vocabulary: OfflineVocabulary): OfflineSpec {
  // The project's declared credential variables win over the vocabulary's defaults.
  const userVariable = task.credentials?.username ?? vocabulary.credentials.username_env;
  const passwordVariable = task.credentials?.password ?? vocabulary.credentials.password_env;
  const kinds = new Set(plan.fills.map((f) => f.value.kind));
  const preamble: string[] = [];
  if (kinds.has('username') || kinds.has('password') || kinds.has('wrong-password')) {
    const needed = [kinds.has('username') ? userVariable : undefined, passwordVariable].filter(Boolean).join(' and ');
    preamble.push(`// Credentials come from the environment: set ${needed} before running.`);
  }
  if (kinds.has('username')) preamble.push(`const username = process.env.${userVariable} ?? '';`);
  if (kinds.has('password')) preamble.push(`const password = process.env.${passwordVariable} ?? '';`);
  if (kinds.has('wrong-password')) {
    preamble.push('// Not the right password: the real one with something added, so no password is written here.');
    preamble.push(`const wrongPassword = \`\${process.env.${passwordVariable} ?? ''}-wrong\`;`);
  }

  const steps: string[][] = [[`await page.goto(${literal(plan.path)});`]];
  const titles = [`open ${plan.path}`];
  if (plan.fills.length > 0) {
    titles.push(`fill in ${plan.fills.map((f) => f.name).join(' and ')}`);
    steps.push(plan.fills.map((f) => `await ${locatorCode(f.locator)}.fill(${valueExpression(f.value)});`));
  }
  if (plan.click) {
    titles.push(`click ${quote(plan.click.name)}`);
    steps.push([`await ${locatorCode(plan.click.locator)}.click();`]);
  } else if (plan.submitWithEnter) {
    titles.push(`submit ${quote(plan.submitWithEnter.name)} with Enter`);
    steps.push([`await ${locatorCode(plan.submitWithEnter.locator)}.press('Enter');`]);
  }
  titles.push(`see ${quote(plan.outcome.name)}`);
  steps.push([...outcomeChecks(plan), SCREENSHOT]);

  const did = [
    plan.fills.length > 0 ? `fills ${plan.fills.map((f) => describe(f.locator)).join(', ')}` : undefined,
    plan.click ? `clicks ${describe(plan.click.locator)}` : plan.submitWithEnter ? `presses Enter in ${describe(plan.submitWithEnter.locator)}` : undefined,
    `checks ${describe(plan.outcome.locator)}`,
  ].filter(Boolean);
  const header = [`// Written by Scribe's offline generator (no language model) from the request and the page at ${plan.path}.`, ...preamble];
  return {
    note: `Offline generator (no language model): mapped the request onto ${plan.path}; the spec opens it, ${did.join(', ')}.`,
    spec: specFile(header, task.feature, task.description, titles, steps),
  };
}

function smokeSpec(task: GenerationTask, plan: SmokePlan): OfflineSpec {
  const key = plan.key;
  const check =
    key === undefined
      ? [`await expect(page).toHaveURL(${new RegExp(escapeRegExp(plan.path)).toString()});`]
      : 'locator' in key
        ? [`await expect(${locatorCode(key.locator)}).toBeVisible();`]
        : [`await expect(page).toHaveTitle(${literal(key.title)});`];
  const seen = key === undefined ? 'the page' : 'locator' in key ? quote(key.name) : `the title ${quote(key.title)}`;
  const header = [
    `// Scribe's offline generator could not map this request to the page: ${oneLine(plan.reason)}.`,
    `// Request: ${oneLine(task.description)}`,
    `// This is a SMOKE TEST of ${plan.path} instead: the page loads and ${seen} is visible. Write the real test,`,
    '// or configure a model (OPENAI_API_KEY or OPENAI_BASE_URL) and generate again.',
  ];
  return {
    note: `Could not map the request to the page: ${plan.reason}. Wrote a smoke test of ${plan.path} instead (the page loads and ${seen} is visible).`,
    substitute: `a smoke test of ${plan.path}, not the requested test: the offline generator could not map the request to the page (${oneLine(plan.reason)})`,
    spec: specFile(header, task.feature, `smoke test (request not mapped): ${plan.path} loads`, [`open ${plan.path}`, `see ${seen}`], [
      [`await page.goto(${literal(plan.path)});`],
      [...check, SCREENSHOT],
    ]),
  };
}

const SCREENSHOT = "await page.screenshot({ path: test.info().outputPath('outcome.png'), fullPage: true });";

function outcomeChecks(plan: MappedPlan): string[] {
  const { outcome } = plan;
  const locator = locatorCode(outcome.locator);
  if (outcome.several) {
    // Several elements carry this test id: narrow by what was typed, or check that some are there.
    return outcome.text === undefined
      ? [`await expect(${locator}).not.toHaveCount(0);`]
      : [`await expect(${locator}.filter({ hasText: ${literal(outcome.text)} })).toBeVisible();`];
  }
  const checks = [`await expect(${locator}).toBeVisible();`];
  if (outcome.text !== undefined) checks.push(`await expect(${locator}).toContainText(${literal(outcome.text)}, { ignoreCase: true });`);
  return checks;
}

function valueExpression(value: FillValue): string {
  switch (value.kind) {
    case 'username':
      return 'username';
    case 'password':
      return 'password';
    case 'wrong-password':
      return 'wrongPassword';
    case 'text':
      return literal(value.text);
  }
}

function specFile(header: string[], feature: string, title: string, stepTitles: string[], steps: string[][]): string {
  const body = steps.flatMap((statements, i) => [
    `    await test.step(${literal(stepTitles[i]!)}, async () => {`,
    ...statements.map((s) => `      ${s}`),
    '    });',
  ]);
  return [
    "import { test, expect } from '@playwright/test';",
    '',
    ...header,
    '',
    `test.describe(${literal(feature)}, () => {`,
    `  test(${literal(title)}, async ({ page }) => {`,
    ...body,
    '  });',
    '});',
    '',
  ].join('\n');
}

/** Playwright's locator for the element: its test id, else role and name, label or placeholder (exact). */
function locatorCode(locator: Locator): string {
  if ('testId' in locator) return `page.getByTestId(${literal(locator.testId)})`;
  if ('role' in locator) return `page.getByRole(${literal(locator.role)}, { name: ${literal(locator.name)}, exact: true })`;
  if ('label' in locator) return `page.getByLabel(${literal(locator.label)}, { exact: true })`;
  return `page.getByPlaceholder(${literal(locator.placeholder)}, { exact: true })`;
}

function describe(locator: Locator): string {
  if ('testId' in locator) return locator.testId;
  if ('role' in locator) return `the ${locator.role} ${quote(locator.name)}`;
  return 'label' in locator ? `the field labelled ${quote(locator.label)}` : `the field ${quote(locator.placeholder)}`;
}

/** A TypeScript string literal. */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, '\\n')}'`;
}

function quote(text: string): string {
  return `"${oneLine(text)}"`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
