import { describe, expect, it } from 'vitest';
import { gitignoreWithScribe, mcpConfigWithScribe, parseAgentHosts } from '../../src/project/init-files.ts';

describe('gitignoreWithScribe', () => {
  it('creates the file, appends to one (ending its last line first), and leaves one that already ignores .scribe', () => {
    expect(gitignoreWithScribe(undefined)).toEqual({ status: 'created', text: expect.stringMatching(/^# .*\n\.scribe\/\n$/) as string });
    expect(gitignoreWithScribe('node_modules/')).toEqual({ status: 'updated', text: 'node_modules/\n.scribe/\n' });
    expect(gitignoreWithScribe('node_modules/\n')).toEqual({ status: 'updated', text: 'node_modules/\n.scribe/\n' });
    for (const line of ['.scribe', '.scribe/', '/.scribe/', '  .scribe/  ', '.scribe/**']) expect(gitignoreWithScribe(`dist\n${line}\n`)).toEqual({ status: 'unchanged' });
    // A name that only starts like it, or a comment, is not the folder.
    expect(gitignoreWithScribe('.scribe-old/\n# .scribe/\n').status).toBe('updated');
  });
});

describe('mcpConfigWithScribe', () => {
  it("writes each host's own shape", () => {
    expect(JSON.parse((mcpConfigWithScribe('claude', undefined, false) as { text: string }).text)).toEqual({ mcpServers: { scribe: { command: 'npx', args: ['scribe', 'mcp'] } } });
    expect(JSON.parse((mcpConfigWithScribe('vscode', undefined, false) as { text: string }).text)).toEqual({ servers: { scribe: { type: 'stdio', command: 'npx', args: ['scribe', 'mcp'] } } });
    expect(JSON.parse((mcpConfigWithScribe('cursor', undefined, false) as { text: string }).text)).toEqual({ mcpServers: { scribe: { command: 'npx', args: ['scribe', 'mcp'] } } });
  });

  it("adds the server beside the user's, is idempotent, and never replaces a different scribe entry unless forced", () => {
    const theirs = JSON.stringify({ mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] } }, other: 1 });
    const added = mcpConfigWithScribe('claude', theirs, false);
    expect(added.status).toBe('updated');
    const text = (added as { text: string }).text;
    expect(JSON.parse(text)).toEqual({ mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] }, scribe: { command: 'npx', args: ['scribe', 'mcp'] } }, other: 1 });
    expect(mcpConfigWithScribe('claude', text, false)).toEqual({ status: 'unchanged' });

    const different = JSON.stringify({ mcpServers: { scribe: { command: 'node', args: ['x.js'] } } });
    expect(mcpConfigWithScribe('claude', different, false)).toMatchObject({ status: 'conflict', reason: expect.stringContaining('--force') as string });
    expect(mcpConfigWithScribe('claude', different, true).status).toBe('updated');
  });

  it('refuses a file that is not a JSON object', () => {
    expect(mcpConfigWithScribe('vscode', '{ "servers": ', false)).toMatchObject({ status: 'conflict', reason: expect.stringContaining('not valid JSON') as string });
    expect(mcpConfigWithScribe('vscode', '[]', false)).toMatchObject({ status: 'conflict' });
    expect(mcpConfigWithScribe('vscode', '{"servers": []}', false)).toMatchObject({ status: 'conflict', reason: expect.stringContaining('"servers"') as string });
  });
});

describe('parseAgentHosts', () => {
  it('takes a comma list or all, and names what is not a host', () => {
    expect(parseAgentHosts('claude, vscode')).toEqual({ ok: true, hosts: ['claude', 'vscode'] });
    expect(parseAgentHosts('all')).toEqual({ ok: true, hosts: ['claude', 'vscode', 'cursor'] });
    expect(parseAgentHosts('claude,emacs')).toEqual({ ok: false, unknown: ['emacs'] });
  });
});
