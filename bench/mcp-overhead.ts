/**
 * `scribe mcp` against a bare CLI run of the same request: the time from `tools/call generate_test` to
 * its result (the SDK's client on stdio, the server already started, as a host keeps it) and the time of
 * `scribe generate --json` as a process, both with the same scripted model (test/fixtures/fake-openai.ts)
 * and a real run against the demo app. Also the size of the tool list a host puts in its model's context,
 * in tokens estimated as characters / 4.
 *
 *   node --import tsx bench/mcp-overhead.ts [runs]     (median of `runs`, default 3)
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { GenerateResult } from '../src/contracts.ts';
import { startDemoApp } from '../src/demo-app/server.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { chatty } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { CLI, connectStdio, DEMO_SEARCH_SPEC } from '../test/mcp/harness.ts';

const runs = Number(process.argv[2] ?? 3);
const [fake, app] = await Promise.all([startFakeOpenAI(), startDemoApp()]);
const project = makeScribeProject();
const env = project.env(fake.url, process.env.SCRIBE_BROWSER ? { SCRIBE_BROWSER: process.env.SCRIBE_BROWSER } : {});
const request = (i: number, via: string) => ({ description: 'search for locators and see the guide', feature: `bench-${via}-${i}`, url: `${app.url}/search` });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

try {
  const session = await connectStdio({ cwd: project.dir, env });
  const { tools } = await session.client.listTools();
  const toolListChars = JSON.stringify(tools).length;
  // What most hosts show their model: name, description and input schema (output schemas validate results).
  const promptChars = JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length;

  const mcp: number[] = [];
  for (let i = 0; i < runs; i++) {
    fake.reply({ text: chatty(DEMO_SEARCH_SPEC) });
    const start = performance.now();
    const result = await session.client.callTool({ name: 'generate_test', arguments: request(i, 'mcp') }, undefined, { timeout: 300_000 });
    mcp.push(performance.now() - start);
    const document = GenerateResult.parse(result.structuredContent);
    if (!document.success) throw new Error(`generate_test failed: ${document.error}`);
  }
  await session.close();

  const cli: number[] = [];
  for (let i = 0; i < runs; i++) {
    fake.reply({ text: chatty(DEMO_SEARCH_SPEC) });
    const r = request(i, 'cli');
    const start = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'generate', r.description, '--feature', r.feature, '--url', r.url, '--json'], { cwd: project.dir, env });
    cli.push(performance.now() - start);
    const document = GenerateResult.parse(JSON.parse(stdout));
    if (!document.success) throw new Error(`scribe generate failed: ${document.error}`);
  }

  console.log(`generate_test over MCP (stdio, server running):  median ${seconds(median(mcp))}  (runs: ${mcp.map(seconds).join(', ')}; the first includes the validator's cold start)`);
  console.log(`scribe generate --json (a process per request):  median ${seconds(median(cli))}  (runs: ${cli.map(seconds).join(', ')})`);
  console.log(`MCP / CLI: ${(median(mcp) / median(cli)).toFixed(2)}`);
  console.log(`tool list (tools/list result as JSON): ${toolListChars} characters ≈ ${Math.round(toolListChars / 4)} tokens (characters / 4), ${tools.length} tools`);
  console.log(`  names, descriptions and input schemas only: ${promptChars} characters ≈ ${Math.round(promptChars / 4)} tokens`);
  console.log(`(project: ${path.basename(project.dir)}, ${runs} runs each, scripted model, real run against the demo app)`);
} finally {
  await Promise.all([fake.close(), app.close()]);
  project.remove();
}
