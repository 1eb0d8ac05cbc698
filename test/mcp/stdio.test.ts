import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { DEFAULT_SERVER_PATH } from '../../src/config/server.ts';
import path from 'node:path';
import { CreateMessageRequestSchema, type CreateMessageRequest, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenerateToolResult, RunnerReport, ValidateReport } from '../../src/contracts.ts';
import { StatsDocument } from '../../src/stats/aggregate.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { BAD_SPEC, GOOD_SPEC, chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { commandLine, connectStdio, processesIn, DEMO_SEARCH_SPEC, descendants, eventually, filesUnder, recordingProgress, type StdioSession } from './harness.ts';

const DESCRIPTION = 'search for milk and see it in the results';
const LONG = { timeout: 120_000, resetTimeoutOnProgress: true };

let fake: FakeOpenAI;
let app: DemoApp;
let project: ScribeProject;
let session: StdioSession | undefined;

const browserEnv = process.env.SCRIBE_BROWSER ? { SCRIBE_BROWSER: process.env.SCRIBE_BROWSER } : {};
/** No model configured: no OPENAI_* at all. */
const bareEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home, ...browserEnv });

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startDemoApp()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});
beforeEach(() => {
  fake.requests.length = 0;
  // A model call that hangs is given up after 4 s (one test holds a job slot that way).
  project = makeScribeProject({ 'provider.request_timeout_ms': 4000 });
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  expect(fake.pending()).toBe(0);
  project.remove();
});

describe('scribe mcp over stdio (the SDK client, the real CLI)', { timeout: 120_000 }, () => {
  it('lists the six tools with described inputs and output schemas; validates a bad spec; reads stats', async () => {
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url) });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['generate_batch', 'generate_test', 'heal_spec', 'run_spec', 'validate_spec', 'validation_stats']);
    const generate = tools.find((t) => t.name === 'generate_test')!;
    expect(generate.inputSchema.required).toEqual(['description']);
    expect(Object.keys(generate.inputSchema.properties ?? {}).sort()).toEqual(['complexity', 'description', 'feature', 'run', 'url']);
    expect((generate.inputSchema.properties as Record<string, { description?: string }>).feature!.description).toMatch(/the feature it belongs to/);
    expect(generate.outputSchema?.properties).toHaveProperty('provider');

    const bad = await session.client.callTool({ name: 'validate_spec', arguments: { code: BAD_SPEC } });
    const report = ValidateReport.parse(bad.structuredContent);
    expect(report.summary).toMatchObject({ files: 1, passed: 0 });
    expect(report.summary.errors).toBeGreaterThan(0);
    expect(report.files[0]!.issues.map((i) => i.rule)).toEqual(expect.arrayContaining(['type-check', 'no-generated-css-class', 'expect-expect']));

    const good = await session.client.callTool({ name: 'validate_spec', arguments: { code: GOOD_SPEC } });
    expect(ValidateReport.parse(good.structuredContent).summary).toMatchObject({ files: 1, passed: 1, errors: 0 });

    const both = await session.client.callTool({ name: 'validate_spec', arguments: {} });
    expect(both.isError).toBe(true);
    expect(JSON.stringify(both.content)).toContain('give either path or code');

    const stats = await session.client.callTool({ name: 'validation_stats', arguments: {} });
    expect(StatsDocument.parse(stats.structuredContent)).toMatchObject({ agent: 'scribe', validation_attempts: 0 });
  });

  it('generates with the scripted model, reporting progress in order; the spec is written and a run_spec of it passes', async () => {
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url, browserEnv) });
    fake.reply({ text: chatty(DEMO_SEARCH_SPEC) });
    const progress: Progress[] = [];
    const result = await session.client.callTool(
      { name: 'generate_test', arguments: { description: DESCRIPTION, feature: 'Search', url: `${app.url}/search` } },
      undefined,
      recordingProgress(session.client, progress, LONG.timeout),
    );
    const document = GenerateToolResult.parse(result.structuredContent);
    expect(document).toMatchObject({ success: true, provider: 'openai', testPath: 'generated-tests/search/search-for-milk-and-see-it-in-the-results.spec.ts', error: null });
    expect(document.runner).toMatchObject({ status: 'pass' });
    expect(readFileSync(path.join(project.dir, document.testPath!), 'utf8')).toBe(DEMO_SEARCH_SPEC);

    // Numbered 1, 2, 3… and in the pipeline's order: explore, Scribe, Critic, run, write.
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    const stages = progress.map((p) => p.message!.split(':')[0]);
    const at = (stage: string) => stages.indexOf(stage);
    for (const stage of ['explore started', 'explore done', 'scribe started', 'scribe done', 'critic started', 'critic done', 'run started', 'run done', 'write done']) expect(stages).toContain(stage);
    expect(at('explore done')).toBeLessThan(at('scribe started'));
    expect(at('scribe done')).toBeLessThan(at('critic started'));
    expect(at('critic done')).toBeLessThan(at('run started'));
    expect(at('run done')).toBeLessThan(at('write done'));

    const run = await session.client.callTool({ name: 'run_spec', arguments: { path: document.testPath!, url: app.url } }, undefined, LONG);
    expect(RunnerReport.parse(run.structuredContent)).toMatchObject({ status: 'pass', classification: 'pass' });
  });

  it('asks the host model through sampling when no model is configured, and says so', async () => {
    const asked: CreateMessageRequest['params'][] = [];
    session = await connectStdio({
      cwd: project.dir,
      env: bareEnv(),
      capabilities: { sampling: {} },
      setup: (client) =>
        client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
          asked.push(request.params);
          return { model: 'host-model-1', role: 'assistant', content: { type: 'text', text: chatty(GOOD_SPEC) } };
        }),
    });
    const result = await session.client.callTool({ name: 'generate_test', arguments: { description: DESCRIPTION, feature: 'Search', run: false } }, undefined, LONG);
    const document = GenerateToolResult.parse(result.structuredContent);
    expect(document).toMatchObject({ success: true, provider: 'mcp', attempts: 1 });
    expect(document.provider_note).toMatch(/host's model, through sampling/);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.systemPrompt).toContain('data-testid');
    expect(asked[0]!.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: expect.stringContaining(DESCRIPTION) } });
    expect(existsSync(path.join(project.dir, document.testPath!))).toBe(true);
    // The provenance record names the host's model.
    const provenance = JSON.parse(readFileSync(path.join(project.dir, document.testPath!.replace('.spec.ts', '.provenance.json')), 'utf8'));
    expect(provenance).toMatchObject({ provider: 'mcp', model: 'host-model-1' });
  });

  it('--provider mcp with a client that cannot sample falls back to the configured model and says which', async () => {
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url), args: ['--provider', 'mcp'] });
    fake.reply({ text: chatty(GOOD_SPEC) });
    const result = await session.client.callTool({ name: 'generate_test', arguments: { description: DESCRIPTION, run: false } }, undefined, LONG);
    const document = GenerateToolResult.parse(result.structuredContent);
    expect(document).toMatchObject({ success: true, provider: 'openai' });
    expect(document.provider_note).toMatch(/does not support sampling: used the configured OpenAI-compatible model/);
  });

  it('refuses path escapes with a tool error naming the field, writing and reading nothing outside', async () => {
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url) });
    const escapes = [
      { name: 'generate_test', arguments: { description: DESCRIPTION, feature: '../../outside' }, field: 'feature' },
      { name: 'validate_spec', arguments: { path: '../../etc/passwd' }, field: 'path' },
      { name: 'run_spec', arguments: { path: '/etc/hosts', url: app.url }, field: 'path' },
    ];
    for (const escape of escapes) {
      const result = await session.client.callTool({ name: escape.name, arguments: escape.arguments });
      expect(result.isError, escape.name).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(new RegExp(`^invalid request: ${escape.field}: `));
    }
    expect(fake.requests).toHaveLength(0);
    expect(filesUnder(path.join(project.dir, 'generated-tests'))).toEqual([]);

    // Inside the project, but not a spec: not read as one.
    const notSpec = await session.client.callTool({ name: 'validate_spec', arguments: { path: 'agents/scribe.yaml' } });
    expect((notSpec.content as Array<{ text: string }>)[0]!.text).toBe('invalid request: path: must name a spec file (*.spec.ts, *.test.ts)');
    // A spec that breaks the rules is not run: the caller is a model, and what runs is gated.
    writeFileSync(path.join(project.dir, 'bad.spec.ts'), BAD_SPEC);
    const refused = await session.client.callTool({ name: 'run_spec', arguments: { path: 'bad.spec.ts', url: app.url } });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]!.text).toMatch(/^refused to run bad\.spec\.ts: it breaks .*type-check/);
  });

  it("keeps agents/server.yaml's limits: field sizes, and concurrent jobs (one more is a tool error)", async () => {
    const server = parseDocument(readFileSync(DEFAULT_SERVER_PATH, 'utf8'));
    server.setIn(['jobs', 'concurrency'], 1);
    server.setIn(['jobs', 'max_queued'], 0);
    server.setIn(['http', 'max_description_chars'], 200);
    writeFileSync(path.join(project.dir, 'agents', 'server.yaml'), server.toString());
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url) });

    const long = await session.client.callTool({ name: 'generate_test', arguments: { description: 'x'.repeat(201) } });
    expect(long.isError).toBe(true);
    // The limit is in the tool's input schema (the request contract's): the SDK refuses the call before it runs.
    expect((long.content as Array<{ text: string }>)[0]!.text).toMatch(/must be at most 200 characters at description/);

    // The first model call hangs until the client's timeout (4 s here), so the first job holds the one slot.
    fake.reply({ hang: true }, { text: chatty(GOOD_SPEC) });
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = session.client.callTool({ name: 'generate_test', arguments: { description: DESCRIPTION, run: false } }, undefined, { ...LONG, onprogress: () => firstStarted() });
    await started;
    const second = await session.client.callTool({ name: 'generate_test', arguments: { description: 'search for bread', run: false } });
    expect(second.isError).toBe(true);
    expect((second.content as Array<{ text: string }>)[0]!.text).toBe('0 jobs are already waiting; try again later');
    expect(GenerateToolResult.parse((await first).structuredContent)).toMatchObject({ success: true });
  });

  it('a cancelled generation stops its run: no browser or Playwright process left, no file written', async () => {
    session = await connectStdio({ cwd: project.dir, env: project.env(fake.url, browserEnv) });
    fake.reply({ text: chatty(DEMO_SEARCH_SPEC) });
    const controller = new AbortController();
    let runStarted!: () => void;
    const started = new Promise<void>((resolve) => (runStarted = resolve));
    const call = session.client.callTool(
      { name: 'generate_test', arguments: { description: DESCRIPTION, feature: 'Search', url: `${app.url}/search` } },
      undefined,
      { ...LONG, signal: controller.signal, onprogress: (p) => p.message?.startsWith('run started') && runStarted() },
    );
    await started;
    const pid = session.pid;
    const browsers = () => processesIn(project.dir, pid).filter((p) => p.command.includes('chrom'));
    await eventually(() => browsers().length > 0, 'the run has a browser up');
    controller.abort(new Error('the user changed their mind'));
    await expect(call).rejects.toThrow(/changed their mind/);
    await eventually(() => descendants(pid).length === 0 && processesIn(project.dir, pid).length === 0, 'the run\'s process tree is gone', () => [descendants(pid).map(commandLine), processesIn(project.dir, pid)]);
    // Still serving, and nothing was written.
    expect((await session.client.listTools()).tools).toHaveLength(6);
    expect(filesUnder(path.join(project.dir, 'generated-tests'))).toEqual([]);
  });
});
