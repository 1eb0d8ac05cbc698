import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverConfig, startTestServer, type TestServer } from './harness.ts';

let server: TestServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Trickles `head` then `body` one byte every 100 ms and reports what the server answered and after how
 * many bytes. The client gives up after `budget` bytes: a server that has not closed by then kept a slow
 * client far past its configured timeout.
 */
function trickle(url: string, head: string, body: string, budget: number): Promise<{ answer: string; bytesSent: number; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  const payload = head + body;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= Math.min(budget, payload.length)) {
        clearInterval(timer);
        socket.destroy();
        resolve({ answer, bytesSent: sent, closedByServer: false });
        return;
      }
      socket.write(payload[sent++]!);
    }, 100);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, bytesSent: sent, closedByServer: true });
    });
    socket.on('error', () => undefined);
  });
}

describe('slow clients are cut off at the configured timeouts', () => {
  // 100 ms a byte: 10 bytes a second. Headers timeout 1 s, request timeout 2 s.
  const start = async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'scribe-slow-'));
    server = await startTestServer(dir, { SCRIBE_API_TOKEN: 'x' }, serverConfig({ http: { headers_timeout_ms: 1000, request_timeout_ms: 2000 } }));
    return server;
  };

  it('a client sending its headers slowly gets 408 after headers_timeout_ms, not 30 s later', async () => {
    const { url } = await start();
    const head = `POST /v1/generate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(400)}\r\n\r\n`;
    // 1 s of headers is about 10 bytes; 2 s (the timeout plus a second) about 20.
    const result = await trickle(url, head, '', 20);
    expect(result.closedByServer).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(result.bytesSent).toBeGreaterThanOrEqual(8);
  });

  it('a client sending its body slowly gets 408 after request_timeout_ms', async () => {
    const { url } = await start();
    const body = JSON.stringify({ request: 'x'.repeat(400) });
    const head = `POST /v1/generate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer x\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The head alone takes longer than the headers timeout at this pace: send it at once.
    const { hostname, port } = new URL(url);
    const result = await new Promise<{ answer: string; bodyBytes: number; closedByServer: boolean }>((resolve) => {
      const socket = connect(Number(port), hostname, () => socket.write(head));
      let answer = '';
      let sent = 0;
      const timer = setInterval(() => {
        // 3 s of body (request timeout plus a second) is 30 bytes.
        if (sent >= 30) {
          clearInterval(timer);
          socket.destroy();
          resolve({ answer, bodyBytes: sent, closedByServer: false });
          return;
        }
        socket.write(body[sent++]!);
      }, 100);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ answer, bodyBytes: sent, closedByServer: true });
      });
      socket.on('error', () => undefined);
    });
    expect(result.closedByServer).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(result.bodyBytes).toBeGreaterThanOrEqual(15);
  });
});
