/**
 * `scribe mcp`: Scribe as a Model Context Protocol server, over stdio (one client, the process that
 * started it) or Streamable HTTP on /mcp (one session per client; the bearer-token rules of `scribe
 * serve`: SCRIBE_API_TOKEN, and no address but loopback without it).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { PACKAGE_ROOT } from '../config/paths.ts';
import { apiToken, checkBearer, isLoopbackHost } from '../endpoint/auth.ts';
import { readJsonBody } from '../endpoint/body.ts';
import { HttpError } from '../endpoint/errors.ts';
import type { LogSink } from '../endpoint/log.ts';
import { registerTools, type McpContext } from './tools.ts';

const VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export function createMcpServer(context: McpContext): McpServer {
  const server = new McpServer(
    { name: 'scribe', version: VERSION },
    { instructions: 'Scribe writes Playwright e2e tests from plain language and hands over only tests it has checked (rules, type check, a real run).' },
  );
  registerTools(server, context);
  return server;
}

/** Serves one client on stdin/stdout until it closes the stream, or `stop` fires. */
export async function serveStdio(context: McpContext, stop?: AbortSignal): Promise<void> {
  const server = createMcpServer(context);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The SDK's transport does not end with its input: a host that closes Scribe's stdin is done with it.
  process.stdin.once('end', () => void server.close());
  stop?.addEventListener('abort', () => void server.close(), { once: true });
  await server.connect(new StdioServerTransport());
  await closed;
}

export interface McpHttpOptions {
  host: string;
  port: number;
  context: McpContext;
  log: LogSink;
}

export interface RunningMcpHttp {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The server cannot start as asked: a public address without a token, a port in use (exit 2). */
export class McpSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpSetupError';
  }
}

function hostnameOf(host: string | undefined): string {
  try {
    return new URL(`http://${host ?? ''}`).hostname;
  } catch {
    return '';
  }
}

export async function serveHttp(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const { context, log } = options;
  const token = apiToken(context.env);
  if (token === undefined && !isLoopbackHost(options.host)) {
    throw new McpSetupError(`refusing to listen on ${options.host} without SCRIBE_API_TOKEN: anyone who can reach it could generate and write specs; set a token or listen on 127.0.0.1`);
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const loopbackOnly = isLoopbackHost(options.host);

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A web page whose name was rebound to 127.0.0.1 would reach a loopback server as same-origin: its Host gives it away.
    if (loopbackOnly && !isLoopbackHost(hostnameOf(req.headers.host))) {
      throw new HttpError(403, 'forbidden_host', 'this server listens on loopback only: the Host header must name this machine');
    }
    const outcome = checkBearer(req.headers.authorization, token);
    if (outcome !== 'ok') {
      throw new HttpError(401, 'unauthorized', outcome === 'missing' ? 'send Authorization: Bearer <SCRIBE_API_TOKEN>' : 'the bearer token is not valid', {
        headers: { 'www-authenticate': outcome === 'missing' ? 'Bearer realm="scribe"' : 'Bearer realm="scribe", error="invalid_token"' },
      });
    }
    const body = req.method === 'POST' ? await readJsonBody(req, context.config.http.max_body_bytes) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId !== undefined) throw new HttpError(404, 'session_not_found', 'no such MCP session (it ended, or the server restarted): initialize again');
    if (req.method !== 'POST' || !isInitializeRequest(body)) throw new HttpError(400, 'no_session', 'send an initialize request first (no Mcp-Session-Id header)');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(context).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    const work = path === '/mcp' ? handleMcp(req, res) : Promise.reject(new HttpError(404, 'not_found', `no route ${path}; MCP is served on /mcp`));
    work.catch((error: unknown) => {
      if (res.headersSent) return;
      const failure = error instanceof HttpError ? error : new HttpError(500, 'internal_error', 'the server failed to answer; see its log');
      if (!(error instanceof HttpError)) log({ level: 'error', msg: 'request failed', path, error: error instanceof Error ? error.message : String(error) });
      const text = JSON.stringify(failure.body());
      res.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...failure.headers });
      res.end(text);
    });
  });
  try {
    server.listen({ port: options.port, host: options.host });
    await once(server, 'listening');
  } catch (error) {
    throw new McpSetupError(`cannot listen on ${options.host}:${options.port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/mcp`;
  log({ level: 'info', msg: 'listening', url, transport: 'streamable-http', auth: token === undefined ? 'none' : 'bearer' });
  return {
    url,
    port,
    async stop() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
