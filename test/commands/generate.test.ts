import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenerateResult, ValidateReport } from '../../src/contracts.ts';
import { StatsDocument } from '../../src/stats/aggregate.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { serveDirectory } from '../../src/demo-app/static-server.ts';
import { BAD_SPEC, GOOD_SPEC, chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { runCli } from './harness.ts';

const DESCRIPTION = 'search for milk and see it in the results';

let fake: FakeOpenAI;
let project: ScribeProject;
const cli = (args: string[], env: NodeJS.ProcessEnv = project.env(fake.url)) => runCli(args, { env, cwd: project.dir });

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('scribe generate', () => {
  it('acceptance: bad-then-good exits 0 with a spec that validate passes; always-bad exits 1 writing nothing; stats follow the formulas', async () => {
    fake.reply({ text: chatty(BAD_SPEC) }, { text: chatty(GOOD_SPEC) });
    const good = await cli(['generate', DESCRIPTION, '--feature', 'Search', '--json']);
    expect(good.code).toBe(0);
    const goodResult = GenerateResult.parse(JSON.parse(good.stdout));
    expect(goodResult).toMatchObject({ success: true, testPath: 'generated-tests/search/search-for-milk-and-see-it-in-the-results.spec.ts', attempts: 2, issues: [], runner: null, error: null });
    // No app URL: the Critic approves it and it is not run.
    expect(goodResult.critic).toMatchObject({ status: 'approved', issues_found: [] });
    expect(good.stderr).toBe('');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages!.at(-1)!.content).toContain('[type-check]');

    const validate = await cli(['validate', goodResult.testPath!, '--json']);
    expect(validate.code).toBe(0);
    expect(ValidateReport.parse(JSON.parse(validate.stdout)).summary).toMatchObject({ files: 1, passed: 1, errors: 0 });

    fake.requests.length = 0;
    fake.reply({ text: chatty(BAD_SPEC) }, { text: chatty(BAD_SPEC) }, { text: chatty(BAD_SPEC) });
    const bad = await cli(['generate', 'search for bread', '--feature', 'Search', '--json']);
    expect(bad.code).toBe(1);
    const badResult = GenerateResult.parse(JSON.parse(bad.stdout));
    expect(badResult).toMatchObject({ success: false, testPath: null, attempts: 3, critic: null, runner: null });
    expect(badResult.error).toMatch(/gave up after 3 attempts/);
    expect(badResult.issues.map((i) => i.rule)).toContain('type-check');
    expect(fake.requests).toHaveLength(3);
    expect(readdirSync(path.join(project.dir, 'generated-tests', 'search'))).toEqual([
      'search-for-milk-and-see-it-in-the-results.provenance.json',
      'search-for-milk-and-see-it-in-the-results.spec.ts',
    ]);

    const stats = await cli(['stats', '--json']);
    expect(stats.code).toBe(0);
    expect(StatsDocument.parse(JSON.parse(stats.stdout))).toMatchObject({
      agent: 'scribe',
      validation_attempts: 5,
      validation_failures: 4,
      success_rate: 0.2,
      total_retries_used: 3,
      avg_retries_per_success: 1,
      first_attempt_pass_rate: 0,
      max_retries_hit_rate: 0.5,
      llm_calls: 5,
      tokens: { prompt: 500, completion: 250, total: 750 },
    });

    const gate = await cli(['stats', '--json', '--fail-under', 'success_rate=0.8']);
    expect(gate.code).toBe(1);
    expect(gate.stderr).toContain('success_rate is 0.2, below 0.8');
    expect(JSON.parse(gate.stdout).success_rate).toBe(0.2);
    expect((await cli(['stats', '--fail-under', 'success_rate=0.2', 'validation_attempts=5'])).code).toBe(0);
  });

  it('shows progress on stderr and the path on stdout without --json', async () => {
    fake.reply({ text: chatty(BAD_SPEC) }, { status: 503 }, { text: chatty(GOOD_SPEC) });
    const run = await cli(['generate', DESCRIPTION]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('generated-tests/search-for-milk-and-see-it-in-the-results/search-for-milk-and-see-it-in-the-results.spec.ts\n');
    expect(run.stderr).toContain('attempt 1/3: asking gpt-4o-mini');
    expect(run.stderr).toMatch(/attempt 1: retrying because of .*type-check/);
    expect(run.stderr).toContain('model call failed (HTTP 503');
    expect(run.stderr).toContain('attempt 2/3');
    expect(run.stderr).toContain('attempt 2: passed every rule');
  });

  it('says why it gave up, exit 1', async () => {
    fake.reply({ text: 'no code today' }, { text: 'still none' }, { text: 'sorry' });
    const run = await cli(['generate', DESCRIPTION, '--out', 'e2e/x.spec.ts']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('scribe: gave up after 3 attempts: errors remain (no-code-block)');
    expect(existsSync(path.join(project.dir, 'e2e'))).toBe(false);
  });

  it('refuses to overwrite an existing spec without --force (exit 2), overwrites with it', async () => {
    const file = path.join(project.dir, 'e2e', 'search.spec.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '// mine\n');
    const refused = await cli(['generate', DESCRIPTION, '--out', 'e2e/search.spec.ts']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(file, 'utf8')).toBe('// mine\n');

    fake.reply({ text: chatty(GOOD_SPEC) });
    expect((await cli(['generate', DESCRIPTION, '--out', 'e2e/search.spec.ts', '--force', '--no-run'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(GOOD_SPEC);
  });

  it('a rejected API key is a configuration error naming OPENAI_API_KEY (exit 2), still one JSON document', async () => {
    fake.reply({ status: 401 });
    const run = await cli(['generate', DESCRIPTION, '--json']);
    expect(run.code).toBe(2);
    const result = GenerateResult.parse(JSON.parse(run.stdout));
    expect(result.error).toContain('OPENAI_API_KEY');
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['generate', DESCRIPTION, '--complexity', 'extreme'])).code).toBe(2);
    expect((await cli(['generate', DESCRIPTION, '--provider', 'anthropic'])).code).toBe(2);
    expect((await cli(['generate', '  '])).code).toBe(2);
    const noModel = await cli(['generate', DESCRIPTION, '--provider', 'openai'], { PATH: process.env.PATH, SCRIBE_HOME: project.home });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL/);
    expect(fake.requests).toHaveLength(0);
  });

  it('picks the model by --complexity', async () => {
    fake.reply({ text: chatty(GOOD_SPEC) });
    expect((await cli(['generate', DESCRIPTION, '--complexity', 'hard'])).code).toBe(0);
    expect(fake.requests[0]!.body.model).toBe('gpt-4o');
  });

  it('a bad agents/scribe.yaml is a configuration error naming the file and key (exit 2)', async () => {
    const file = path.join(project.dir, 'agents', 'scribe.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('temperature: 0.2', 'temperature: hot'));
    const run = await cli(['generate', DESCRIPTION]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/scribe\.yaml:\d+: provider\.temperature/);
  });
});

describe('scribe generate: grounding and the provider', () => {
  it('--url explores the page: the prompt carries its real test ids, and an invented one is sent back', async () => {
    writeFileSync(path.join(project.dir, 'search.html'), `<!doctype html><title>Shop search</title>
      <input data-testid="search-input" aria-label="Search products" placeholder="Milk, eggs">
      <button data-testid="search-submit">Search</button><ul data-testid="search-results"></ul>`);
    const site = await serveDirectory(project.dir);
    try {
      const invented = GOOD_SPEC.replace("getByTestId('search-submit')", "getByTestId('search-button')");
      fake.reply({ text: chatty(invented) }, { text: chatty(GOOD_SPEC) });
      // The page only has markup, no behaviour: grounding is under test here, not a run.
      const run = await cli(['generate', DESCRIPTION, '--url', `${site.url}/search`, '--no-run', '--json']);
      expect(GenerateResult.parse(JSON.parse(run.stdout))).toMatchObject({ success: true, attempts: 2 });
      const prompt = fake.requests[0]!.body.messages![1]!.content;
      for (const testId of ['search-input', 'search-submit', 'search-results']) expect(prompt).toContain(`- ${testId}`);
      expect(fake.requests[1]!.body.messages!.at(-1)!.content).toContain('[no-unknown-testid]');
    } finally {
      await site.close();
    }
  });

  it('without a key or a base URL, the offline generator answers and no server is asked; its smoke test is kept for review, not reported as the request (exit 1)', async () => {
    const run = await cli(['generate', DESCRIPTION, '--feature', 'Search'], { PATH: process.env.PATH, SCRIBE_HOME: project.home });
    // No page was explored, so the offline generator can only write a smoke test: never the requested test.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('asking the offline generator');
    expect(run.stderr).toContain('not the requested test');
    expect(existsSync(path.join(project.dir, 'generated-tests', 'search', 'search-for-milk-and-see-it-in-the-results.spec.ts'))).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('scribe (child process)', () => {
  it('streams through the real binary and prints nothing but the JSON document on stdout', async () => {
    const streaming = makeScribeProject({ 'provider.stream': true });
    try {
      fake.reply({ text: chatty(GOOD_SPEC), chunkSize: 5 });
      const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('bin/scribe.js'), 'generate', DESCRIPTION, '--feature', 'Search', '--json'], {
        cwd: streaming.dir,
        env: streaming.env(fake.url),
      });
      expect(GenerateResult.parse(JSON.parse(stdout))).toMatchObject({ success: true, attempts: 1 });
      expect(fake.requests[0]!.body.stream).toBe(true);
    } finally {
      streaming.remove();
    }
  });
});
