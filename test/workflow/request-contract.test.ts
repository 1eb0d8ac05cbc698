/**
 * One request contract: `scribe generate --help`, the HTTP API's schema of POST /v1/generate (GET
 * /v1/generate/schema) and the MCP tool generate_test's input schema, each read from the real surface,
 * say the same of every field: its description, its choices, its limit; and each surface enforces the
 * same description limit.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../src/config/server.ts';
import { MCP_REQUEST_FIELDS, REQUEST_FIELD_DESCRIPTIONS, type RequestField } from '../../src/workflow/request-contract.ts';
import { scribe } from '../commands/cli-harness.ts';
import { startTestServer, TOKEN, type TestServer } from '../http/harness.ts';
import { connectStdio, type StdioSession } from '../mcp/harness.ts';

interface JsonSchema {
  properties: Record<string, { description?: string; maxLength?: number; enum?: string[]; type?: string }>;
  required?: string[];
}

const FIELDS = Object.keys(REQUEST_FIELD_DESCRIPTIONS) as RequestField[];
const limits = loadServerConfig().http;
let dir: string;
let server: TestServer;
let session: StdioSession;
let help: string;
let http: JsonSchema;
let mcp: JsonSchema;

/** `generate --help`'s options and argument, each with its description unwrapped and its choices apart. */
function helpEntries(text: string): Map<string, { description: string; choices?: string[] }> {
  const entries = new Map<string, { description: string; choices?: string[] }>();
  let current: { name: string; words: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const joined = current.words.join(' ');
    const choices = /\s*\(choices: (.*)\)$/.exec(joined);
    entries.set(current.name, { description: choices ? joined.slice(0, choices.index) : joined, ...(choices ? { choices: choices[1]!.split(', ').map((c) => JSON.parse(c) as string) } : {}) });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const entry = /^ {2}(\S.*?) {2,}(\S.*)$/.exec(line);
    if (entry) {
      close();
      // The long flag names the option (`-c, --config <file>` is --config); an argument is its name.
      const name = /--[\w-]+/.exec(entry[1]!)?.[0] ?? entry[1]!.trim();
      current = { name, words: [entry[2]!] };
    } else if (current && /^ {6,}\S/.test(line)) current.words.push(line.trim());
    else close();
  }
  close();
  return entries;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-contract-'));
  const env = { ...process.env, SCRIBE_API_TOKEN: TOKEN, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', BASE_URL: '' };
  help = (await scribe(['generate', '--help'], { cwd: dir, env })).stdout;
  server = await startTestServer(dir, env);
  http = (await server.call('GET', '/v1/generate/schema')).json as JsonSchema;
  session = await connectStdio({ cwd: dir, env });
  mcp = (await session.client.listTools()).tools.find((tool) => tool.name === 'generate_test')!.inputSchema as unknown as JsonSchema;
}, 120_000);

afterAll(async () => {
  await session?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the generate request, on every surface', () => {
  it('has one description per field: generate --help, the HTTP schema and the MCP schema', () => {
    const cli = helpEntries(help);
    for (const field of FIELDS) {
      const meaning = REQUEST_FIELD_DESCRIPTIONS[field];
      expect(http.properties[field]?.description, `HTTP ${field}`).toBe(meaning);
      // The description is generate's argument; `run` is on by default, so its flag is --no-run; outputPath is --out.
      const flag = field === 'description' ? 'description' : field === 'run' ? '--no-run' : field === 'outputPath' ? '--out' : `--${field}`;
      expect(cli.get(flag)?.description, `CLI ${flag}`).toBe(meaning);
      if ((MCP_REQUEST_FIELDS as readonly string[]).includes(field)) expect(mcp.properties[field]?.description, `MCP ${field}`).toBe(meaning);
      else expect(mcp.properties[field], `MCP ${field}`).toBeUndefined();
    }
    // Nothing on a surface that the contract lacks (HTTP adds its callback, the CLI its own switches).
    expect(Object.keys(mcp.properties).sort()).toEqual([...MCP_REQUEST_FIELDS].sort());
    expect(Object.keys(http.properties).sort()).toEqual([...FIELDS, 'callback_url'].sort());
  });

  it('has the same choices, types and limits field by field', () => {
    const cli = helpEntries(help);
    expect(cli.get('--complexity')?.choices).toEqual(http.properties.complexity!.enum);
    expect(cli.get('--provider')?.choices).toEqual(http.properties.provider!.enum);
    for (const field of MCP_REQUEST_FIELDS) {
      const { description: _h, ...httpRest } = http.properties[field]!;
      const { description: _m, ...mcpRest } = mcp.properties[field]!;
      expect(mcpRest, field).toEqual(httpRest);
    }
    expect(http.properties.description!.maxLength).toBe(limits.max_description_chars);
    expect(http.properties.feature!.maxLength).toBe(limits.max_field_chars);
    expect(http.required).toEqual(['description']);
    expect(mcp.required).toEqual(['description']);
  });

  it('refuses a description over the limit on every surface, the CLI writing nothing', async () => {
    const long = 'x'.repeat(limits.max_description_chars + 1);
    const cli = await scribe(['generate', long, '--provider', 'offline'], { cwd: dir });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`the description: must be at most ${limits.max_description_chars} characters`);
    expect(readdirSync(dir).filter((name) => name !== '.scribe')).toEqual([]);
    // The size the issue found accepted (a 100 KB description became a 102 KB test title).
    const huge = await scribe(['generate', 'x'.repeat(100_000), '--provider', 'offline'], { cwd: dir });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain(`the description: must be at most ${limits.max_description_chars} characters`);
    expect(readdirSync(dir).filter((name) => name !== '.scribe')).toEqual([]);

    const posted = await server.call('POST', '/v1/generate', { body: { description: long } });
    expect(posted.status).toBe(400);
    expect(posted.json.fields).toEqual([{ field: 'description', message: `must be at most ${limits.max_description_chars} characters` }]);

    const called = await session.client.callTool({ name: 'generate_test', arguments: { description: long } });
    expect(called.isError).toBe(true);
    expect(JSON.stringify(called.content)).toMatch(/description/);
  });
});
