import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { statsReporter } from '../../src/agents/reporter.ts';
import { Scribe, NO_CODE_RULE, type Candidate, type ScribeOptions } from '../../src/agents/scribe.ts';
import { loadAgents } from '../../src/config/agents.ts';
import { DEFAULT_CRITIC_PATH, criticConfigFrom, loadCriticConfig } from '../../src/config/critic.ts';
import { parseYaml } from '../../src/config/load.ts';
import type { AgentResult, Issue, PageInventory, ScribeTask } from '../../src/contracts.ts';
import { renderInventory } from '../../src/explore/render.ts';
import { loadProject } from '../../src/project/context.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { assertWritable, provenancePath, Provenance } from '../../src/store/spec-files.ts';
import { SpecStore } from '../../src/store/spec-store.ts';
import { Validator } from '../../src/validate/validator.ts';
import { resolveRequest } from '../../src/workflow/request.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { BAD_SPEC, GOOD_SPEC, chatty, fenced } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

const critic = loadCriticConfig();
// One compiler project for the whole file: type-checking after the first spec is fast.
const validator = new Validator(critic, { typeCheck: true });
const task = { taskDescription: 'search for milk and see it in the results', featureName: 'Search' };

let fake: FakeOpenAI;
let project: ScribeProject;
let stats: StatsLog;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
  stats = new StatsLog(project.home);
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

function scribe(options: Partial<ScribeOptions> = {}): Scribe {
  return new Scribe({ cwd: project.dir, env: project.env(fake.url), config: loadAgents(project.dir).scribe, critic, validator, stats, ...options });
}

type LoopOptions = Partial<ScribeOptions> & { force?: boolean; explore?: (url: string) => Promise<PageInventory> };

/**
 * The attempt loop and the spec store, driven directly (the library's execute runs the whole pipeline
 * instead: test/library.test.ts): the task settled as the pipeline settles it, an existing spec refused
 * before the model is asked, the page explored, the loop, the spec stored, the outcome recorded.
 */
async function generateAndWrite(task: ScribeTask, { force = false, explore, ...options }: LoopOptions = {}): Promise<AgentResult> {
  const context = await loadProject({ cwd: project.dir, env: options.env ?? project.env(fake.url) });
  const settled = resolveRequest({ description: task.taskDescription, feature: task.featureName, outputPath: task.outputPath, url: task.url, complexity: task.complexity }, context);
  if (!settled.ok) return failed('invalid_task', settled.error);
  const request = settled.value;
  try {
    assertWritable(request.file, force);
  } catch (error) {
    return failed('exists', (error as Error).message);
  }
  const inventory = request.url && explore ? await explore(request.url) : undefined;
  const candidate = await scribe({ ...options, inventory }).generate(request);
  const outcome = statsReporter(stats);
  if (!candidate.success) {
    outcome.report({ type: 'give_up', generation: candidate.generation, attempts: candidate.attempts, reason: candidate.failure!, error: candidate.error! });
    return { success: false, error: candidate.error, metadata: { ...metadataOf(candidate), failure: candidate.failure } };
  }
  new SpecStore({ project: context, reporter: outcome, force }).accept(candidate, request, {});
  outcome.report({ type: 'success', generation: candidate.generation, attempts: candidate.attempts });
  return { success: true, data: { testPath: candidate.file, code: candidate.code }, metadata: metadataOf(candidate) };
}

const metadataOf = (candidate: Candidate) => ({ attemptsUsed: candidate.attempts, finalIssues: candidate.issues, autofixed: candidate.autofixed });
const failed = (failure: string, error: string): AgentResult => ({ success: false, error, metadata: { attemptsUsed: 0, finalIssues: [], failure } });

const specFile = () => path.join(project.dir, 'generated-tests', 'search', 'search-for-milk-and-see-it-in-the-results.spec.ts');
const errorRules = (issues: readonly Issue[]) => [...new Set(issues.filter((i) => i.severity === 'error').map((i) => i.rule))];
const lastUserMessage = (n: number) => fake.requests[n]!.body.messages!.at(-1)!;

describe("Scribe's attempt loop, its spec written", () => {
  it('bad then good: two attempts, the second prompt carries the first attempt’s problems, the spec is written', async () => {
    fake.reply({ text: chatty(BAD_SPEC) }, { text: chatty(GOOD_SPEC) });
    const result = await generateAndWrite(task);

    expect(result.success).toBe(true);
    expect(result.metadata.attemptsUsed).toBe(2);
    expect(result.metadata.finalIssues).toEqual([]);
    expect(result.data?.testPath).toBe(specFile());
    expect(readFileSync(specFile(), 'utf8')).toBe(GOOD_SPEC);

    // Scribe validates a model's answer as untrusted code: the allow-list gate's findings come too.
    const firstErrors = errorRules(validator.forUntrustedCode(project.dir).validateText(specFile(), BAD_SPEC).issues);
    expect(firstErrors).toContain('type-check');
    const feedback = lastUserMessage(1);
    expect(feedback.role).toBe('user');
    for (const rule of firstErrors) expect(feedback.content).toContain(`[${rule}]`);
    expect(feedback.content).toContain("> await page.clickOn('search-submit');");
    expect(feedback.content).toMatch(/Attempt 2 of 3/);
    const previous = fake.requests[1]!.body.messages!.at(-2)!;
    expect(previous).toEqual({ role: 'assistant', content: fenced(BAD_SPEC) });

    const provenance = Provenance.parse(JSON.parse(readFileSync(provenancePath(specFile()), 'utf8')));
    expect(provenance).toMatchObject({ request: task.taskDescription, feature: 'Search', provider: 'openai', model: 'gpt-4o-mini', attempts: 2, rules: { passed: true, issues: [] } });
    expect(provenance.prompt_sha256).toMatch(/^[0-9a-f]{64}$/);

    const events = stats.read();
    expect(events.map((e) => e.type)).toEqual(['model_call', 'validation', 'retry', 'model_call', 'validation', 'success']);
    expect(events[1]).toMatchObject({ type: 'validation', attempt: 1, passed: false });
    expect(new Set((events[1] as { errors: string[] }).errors)).toEqual(new Set(firstErrors));
    expect(events[4]).toMatchObject({ type: 'validation', attempt: 2, passed: true, errors: [] });
    expect(events[0]).toMatchObject({ type: 'model_call', attempts: 1, tokens: { prompt: 100, completion: 50, total: 150 }, error: null });
  });

  it('streams the answer when the config says so', async () => {
    fake.reply({ text: chatty(GOOD_SPEC), chunkSize: 7 });
    const result = await generateAndWrite(task, { stream: true });
    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 1 } });
    expect(fake.requests[0]!.body.stream).toBe(true);
    expect(readFileSync(specFile(), 'utf8')).toBe(GOOD_SPEC);
  });

  it('always bad: gives up after max_retries attempts and writes nothing', async () => {
    fake.reply({ text: chatty(BAD_SPEC) }, { text: fenced(BAD_SPEC) }, { text: chatty(BAD_SPEC) });
    const result = await generateAndWrite(task);

    expect(result.success).toBe(false);
    expect(result.metadata).toMatchObject({ attemptsUsed: 3, failure: 'max_retries' });
    expect(result.error).toMatch(/gave up after 3 attempts.*type-check/);
    expect(errorRules(result.metadata.finalIssues as Issue[])).toContain('type-check');
    expect(fake.requests).toHaveLength(3);
    expect(existsSync(specFile())).toBe(false);
    expect(existsSync(path.dirname(specFile()))).toBe(false);
    expect(stats.read().map((e) => e.type)).toEqual(['model_call', 'validation', 'retry', 'model_call', 'validation', 'retry', 'model_call', 'validation', 'give_up']);
  });

  it('an answer with no code block is a failed attempt with feedback, not a crash', async () => {
    const prose = 'To test search, open the page, type a product name and check the results list.';
    fake.reply({ text: prose }, { text: chatty(GOOD_SPEC) });
    const result = await generateAndWrite(task, { stream: true });

    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 2 } });
    expect(fake.requests[1]!.body.messages!.at(-2)).toEqual({ role: 'assistant', content: prose });
    expect(lastUserMessage(1).content).toContain(`[${NO_CODE_RULE}]`);
    expect(stats.read().find((e) => e.type === 'validation')).toMatchObject({ passed: false, errors: [NO_CODE_RULE] });
  });

  it('an answer with prose around two blocks: the block with the test is taken', async () => {
    const helper = 'export const searchTerm = (product: string) => product.toLowerCase();\n';
    fake.reply({ text: `A helper you may like:\n\n${fenced(helper, 'ts')}\n\nAnd the spec:\n\n${fenced(GOOD_SPEC)}\n\nRun it with npx playwright test.` });
    const result = await generateAndWrite(task);
    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 1 } });
    expect(readFileSync(specFile(), 'utf8')).toBe(GOOD_SPEC);
  });

  it('429 then OK: one attempt, two HTTP attempts recorded', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '0' } }, { text: chatty(GOOD_SPEC) });
    const result = await generateAndWrite(task);
    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 1 } });
    expect(stats.read()[0]).toMatchObject({ type: 'model_call', attempts: 2, error: null });
  });

  it('500s until the client gives up: the generation fails cleanly, nothing written', async () => {
    fake.reply({ status: 500 }, { status: 500 }, { status: 500 });
    const result = await generateAndWrite(task);
    expect(result).toMatchObject({ success: false, metadata: { attemptsUsed: 1, failure: 'model_error' } });
    expect(result.error).toContain('HTTP 500');
    expect(fake.requests).toHaveLength(3);
    expect(existsSync(specFile())).toBe(false);
    const events = stats.read();
    expect(events.map((e) => e.type)).toEqual(['model_call', 'give_up']);
    expect(events[0]).toMatchObject({ attempts: 3, error: expect.stringContaining('HTTP 500') });
    expect(events[1]).toMatchObject({ reason: 'model_error' });
  });

  it('a 401 is a configuration failure naming OPENAI_API_KEY', async () => {
    fake.reply({ status: 401 });
    const result = await generateAndWrite(task);
    expect(result).toMatchObject({ success: false, metadata: { failure: 'model_config' } });
    expect(result.error).toContain('OPENAI_API_KEY');
  });

  it('autofix repairs what it safely can, saving a model call', async () => {
    const sloppy = GOOD_SPEC.replace("    await page.goto('/search');", "    await page.goto('/search');\n    await page.waitForTimeout(1000);");
    fake.reply({ text: chatty(sloppy) });
    const result = await generateAndWrite(task);
    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 1 } });
    expect(result.metadata.autofixed).toEqual([expect.objectContaining({ rule: 'no-wait-for-timeout', before: 'await page.waitForTimeout(1000);' })]);
    expect(readFileSync(specFile(), 'utf8')).toBe(GOOD_SPEC);
    expect(stats.read()[1]).toMatchObject({ type: 'validation', passed: true, errors: [], autofixed: ['no-wait-for-timeout'] });
  });

  it('warnings never cause a retry', async () => {
    const lenient = criticWith({ 'rules.require-screenshot.severity': 'warning' });
    const noScreenshot = GOOD_SPEC.replace("    await page.screenshot({ path: 'test-results/search-results.png' });\n", '');
    fake.reply({ text: chatty(noScreenshot) });
    const result = await generateAndWrite(task, { critic: lenient, validator: undefined });
    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 1 } });
    expect(result.metadata.finalIssues).toEqual([expect.objectContaining({ rule: 'require-screenshot', severity: 'warning' })]);
  });

  it('never overwrites an existing spec without force, and asks the model nothing', async () => {
    mkdirSync(path.dirname(specFile()), { recursive: true });
    writeFileSync(specFile(), '// mine\n');
    const refused = await generateAndWrite(task);
    expect(refused).toMatchObject({ success: false, metadata: { failure: 'exists' } });
    expect(refused.error).toContain('--force');
    expect(fake.requests).toHaveLength(0);
    expect(readFileSync(specFile(), 'utf8')).toBe('// mine\n');

    fake.reply({ text: chatty(GOOD_SPEC) });
    expect(await generateAndWrite(task, { force: true })).toMatchObject({ success: true });
    expect(readFileSync(specFile(), 'utf8')).toBe(GOOD_SPEC);
  });

  it('writes to outputPath, relative to cwd', async () => {
    fake.reply({ text: chatty(GOOD_SPEC) });
    const result = await generateAndWrite({ ...task, outputPath: 'e2e/search.spec.ts' });
    expect(result.data?.testPath).toBe(path.join(project.dir, 'e2e', 'search.spec.ts'));
    expect(existsSync(path.join(project.dir, 'e2e', 'search.provenance.json'))).toBe(true);
  });

  it('rejects an invalid task without calling the model', async () => {
    const result = await generateAndWrite({ taskDescription: '', featureName: 'x' });
    expect(result).toMatchObject({ success: false, metadata: { failure: 'invalid_task' } });
    expect(result.error).toContain('taskDescription');
  });
});

describe('Scribe.generate', () => {
  it('starts from a spec a later stage sent back, with its reasons, and writes nothing', async () => {
    const rejected: Issue = { rule: 'no-unknown-testid', severity: 'error', message: 'Test id "search-button" is not on the page; did you mean "search-submit"?', line: 9, column: 5, fixable: false };
    const previous = GOOD_SPEC.replace("getByTestId('search-submit')", "getByTestId('search-button')");
    fake.reply({ text: chatty(GOOD_SPEC) });
    const candidate = await scribe().generate({ description: task.taskDescription, feature: 'Search', complexity: 'medium', file: specFile() }, { code: previous, issues: [rejected] });
    expect(candidate).toMatchObject({ success: true, attempts: 1, code: GOOD_SPEC, provider: 'openai' });
    const messages = fake.requests[0]!.body.messages!;
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: fenced(previous) });
    expect(messages.at(-1)!.content).toContain(`- [no-unknown-testid] line 9: ${rejected.message}\n    > await page.getByTestId('search-button').click();`);
    expect(existsSync(specFile())).toBe(false);
  });
});

describe('Scribe prompts', () => {
  it('render the criteria of the loaded critic config, not a copy', async () => {
    const custom = criticWith({ 'rules.max-steps.options.max': 7, 'rules.no-page-pause.severity': 'off', 'rules.no-nth-methods.reason': 'Do not pick by position here.' });
    fake.reply({ text: chatty(GOOD_SPEC) });
    await generateAndWrite({ ...task, complexity: 'hard' }, { critic: custom, validator: undefined, typeCheck: false });

    const [system, user] = fake.requests[0]!.body.messages!;
    for (const criterion of custom.criteria.filter((c) => c.severity !== 'off')) {
      expect(system!.content).toContain(`- ${criterion.id} (${criterion.severity}): ${criterion.reason}`);
    }
    expect(system!.content).toContain('- max-steps (error): Keep a test focused; split long journeys into several tests. [max: 7]');
    expect(system!.content).toContain('Do not pick by position here.');
    expect(system!.content).not.toContain('no-page-pause');
    expect(user!.content).toContain(`Request: ${task.taskDescription}`);
    expect(user!.content).toContain('Feature: Search');
    expect(user!.content).toContain('Complexity: hard');
    expect(fake.requests[0]!.body.model).toBe('gpt-4o');
  });

  it('carry the page inventory: the real test ids, fields and roles', async () => {
    fake.reply({ text: chatty(GOOD_SPEC) });
    const explored: string[] = [];
    const result = await generateAndWrite({ ...task, url: 'http://127.0.0.1:4000/search' }, { explore: async (url) => (explored.push(url), INVENTORY), typeCheck: false });
    expect(result.success).toBe(true);
    expect(explored).toEqual(['http://127.0.0.1:4000/search']);
    const user = fake.requests[0]!.body.messages![1]!.content;
    expect(user).toContain(`The site was explored from its start page. Use the test ids listed for the page the test is on;`);
    expect(user).toContain(`locator ladder: getByRole with its accessible name, then getByLabel, getByPlaceholder, getByText.\n<app-content>\n${renderInventory(INVENTORY)}\n</app-content>`);
    for (const testId of INVENTORY.testIds) expect(user).toContain(testId.testId);
    expect(user).toContain('Milk, eggs…');
  });

  it('uses SCRIBE_MODEL over the configured model', async () => {
    fake.reply({ text: chatty(GOOD_SPEC) });
    await generateAndWrite(task, { env: project.env(fake.url, { SCRIBE_MODEL: 'qwen2.5-coder:7b' }) });
    expect(fake.requests[0]!.body.model).toBe('qwen2.5-coder:7b');
    expect(Provenance.parse(JSON.parse(readFileSync(provenancePath(specFile()), 'utf8'))).model).toBe('qwen2.5-coder:7b');
  });
});

describe("a project's agents/scribe.yaml under an old key", () => {
  it('generation.max_retries still caps the attempts, as generation.max_attempts', async () => {
    writeFileSync(path.join(project.dir, 'agents', 'scribe.yaml'), 'generation:\n  max_retries: 1\n');
    fake.reply({ text: chatty(BAD_SPEC) });
    const result = await generateAndWrite(task);

    expect(result.metadata).toMatchObject({ attemptsUsed: 1, failure: 'max_retries' });
    expect(result.error).toMatch(/gave up after 1 attempt:/);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("prompts of the project's agents/scribe.yaml", () => {
  it('an override of the texts Scribe sends after an empty answer reaches the next model request', async () => {
    writeFileSync(
      path.join(project.dir, 'agents', 'scribe.yaml'),
      'prompts:\n  no_code: Nothing to check; put the whole spec in one fenced typescript block.\n  empty_answer: (you said nothing)\n',
    );
    fake.reply({ text: '' }, { text: chatty(GOOD_SPEC) });
    const result = await generateAndWrite(task);

    expect(result).toMatchObject({ success: true, metadata: { attemptsUsed: 2 } });
    const messages = fake.requests[1]!.body.messages!;
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: '(you said nothing)' });
    expect(messages.at(-1)!.content).toContain(`- [${NO_CODE_RULE}]: Nothing to check; put the whole spec in one fenced typescript block.`);
  });
});

const INVENTORY: PageInventory = {
  url: 'http://127.0.0.1:4000/search',
  title: 'Shop search',
  testIdAttribute: 'data-testid',
  testIds: [
    { testId: 'search-input', tag: 'input', role: 'searchbox', text: null, label: 'Search products', count: 1 },
    { testId: 'search-submit', tag: 'button', role: 'button', text: 'Search', label: null, count: 1 },
    { testId: 'search-results', tag: 'ul', role: 'list', text: null, label: null, count: 1 },
    { testId: 'result-item', tag: 'li', role: 'listitem', text: 'Milk', label: null, count: 3 },
  ],
  roles: [{ role: 'button', name: 'Search', count: 1 }],
  fields: [{ type: 'search', label: 'Search products', placeholder: 'Milk, eggs…', name: 'q', testId: 'search-input' }],
  headings: [{ level: 1, text: 'Search' }],
  links: [{ text: 'Home', href: '/', testId: null }],
  truncated: ['12 links'],
  estimatedTokens: 180,
};

/** The bundled critic.yaml with some values changed, loaded the real way. */
function criticWith(changes: Record<string, unknown>) {
  const doc = parseDocument(readFileSync(DEFAULT_CRITIC_PATH, 'utf8'));
  for (const [key, value] of Object.entries(changes)) doc.setIn(key.split('.'), value);
  return criticConfigFrom(parseYaml('critic.yaml', doc.toString()));
}
