/**
 * What `scribe init` adds to a project besides its agents/ override, as pure edits of a file's text:
 * `.scribe/` in .gitignore, and the `scribe mcp` server in an agent host's MCP config (the files
 * Playwright's `init-agents` writes for its own server). An edit keeps everything already in the file.
 */

/** The agent hosts whose MCP config init can write, and the file each one reads (relative to the project). */
export const AGENT_HOSTS = {
  claude: { file: '.mcp.json', serversKey: 'mcpServers', entry: { command: 'npx', args: ['scribe', 'mcp'] } },
  vscode: { file: '.vscode/mcp.json', serversKey: 'servers', entry: { type: 'stdio', command: 'npx', args: ['scribe', 'mcp'] } },
  cursor: { file: '.cursor/mcp.json', serversKey: 'mcpServers', entry: { command: 'npx', args: ['scribe', 'mcp'] } },
} as const;
export type AgentHost = keyof typeof AGENT_HOSTS;

/** The name the server is listed under in every host's config. */
export const MCP_SERVER_NAME = 'scribe';

/** The edit to make, or why it is not made. */
export type FileEdit = { status: 'unchanged' } | { status: 'created' | 'updated'; text: string } | { status: 'conflict'; reason: string };

/** .gitignore with `.scribe/` (Scribe's statistics, caches, runs and eval specs); unchanged when it already ignores it. */
export function gitignoreWithScribe(existing: string | undefined): FileEdit {
  if (existing === undefined) return { status: 'created', text: '# Scribe: statistics, caches, runs, eval specs\n.scribe/\n' };
  const ignored = existing.split(/\r?\n/).some((line) => /^\/?\.scribe\/?(\*\*)?$/.test(line.trim()));
  if (ignored) return { status: 'unchanged' };
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  return { status: 'updated', text: `${existing}${separator}.scribe/\n` };
}

/**
 * The host's MCP config with the scribe server listed; unchanged when it already is, a conflict when the
 * file is not a JSON object or lists a different `scribe` server (replaced only when forced).
 */
export function mcpConfigWithScribe(host: AgentHost, existing: string | undefined, force: boolean): FileEdit {
  const { serversKey, entry } = AGENT_HOSTS[host];
  if (existing === undefined) return { status: 'created', text: `${JSON.stringify({ [serversKey]: { [MCP_SERVER_NAME]: entry } }, null, 2)}\n` };
  let config: unknown;
  try {
    config = JSON.parse(existing);
  } catch (error) {
    return { status: 'conflict', reason: `is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or add the server by hand` };
  }
  if (!isObject(config)) return { status: 'conflict', reason: 'is not a JSON object' };
  const servers = config[serversKey] ?? {};
  if (!isObject(servers)) return { status: 'conflict', reason: `its "${serversKey}" is not an object` };
  const listed = servers[MCP_SERVER_NAME];
  if (listed !== undefined && JSON.stringify(listed) === JSON.stringify(entry)) return { status: 'unchanged' };
  if (listed !== undefined && !force) return { status: 'conflict', reason: `already lists a different "${MCP_SERVER_NAME}" server; pass --force to replace it` };
  return { status: 'updated', text: `${JSON.stringify({ ...config, [serversKey]: { ...servers, [MCP_SERVER_NAME]: entry } }, null, 2)}\n` };
}

/** `claude,vscode` → the hosts, or the names that are not hosts. */
export function parseAgentHosts(list: string): { ok: true; hosts: AgentHost[] } | { ok: false; unknown: string[] } {
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const all = Object.keys(AGENT_HOSTS) as AgentHost[];
  if (names.includes('all')) return { ok: true, hosts: all };
  const unknown = names.filter((name) => !(all as string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) return { ok: false, unknown: names.length === 0 ? [list] : unknown };
  return { ok: true, hosts: [...new Set(names as AgentHost[])] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
