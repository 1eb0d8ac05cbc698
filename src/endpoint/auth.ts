/**
 * Bearer-token checks and which hosts count as this machine only. The token is compared through
 * SHA-256 digests with timingSafeEqual: equal lengths always, so neither the comparison nor an early
 * length mismatch tells an attacker how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export type AuthOutcome = 'ok' | 'missing' | 'invalid';

/** The configured token (SCRIBE_API_TOKEN), or undefined when the API is open (loopback only). */
export function apiToken(env: NodeJS.ProcessEnv): string | undefined {
  return env.SCRIBE_API_TOKEN?.trim() || undefined;
}

export function checkBearer(header: string | undefined, token: string | undefined): AuthOutcome {
  if (token === undefined) return 'ok';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!match) return 'missing';
  return timingSafeEqual(digest(match[1]!), digest(token)) ? 'ok' : 'invalid';
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Why an open API (no token) refuses a request, or undefined: a browser's request (any Origin header:
 * a page of any site, the app under test included, may reach 127.0.0.1), or a Host header that does not
 * name this machine (a DNS-rebound name). With a token the bearer check stands in for both.
 */
export function openRequestRefusal(headers: { origin?: string | undefined; host?: string | undefined }, token: string | undefined): string | undefined {
  if (token !== undefined) return undefined;
  if (headers.origin !== undefined) return `without SCRIBE_API_TOKEN the API refuses requests from a browser (Origin ${headers.origin}); set a token to call it from a page`;
  const host = headers.host === undefined || !URL.canParse(`http://${headers.host}`) ? undefined : new URL(`http://${headers.host}`).hostname;
  if (host === undefined || !isLoopbackHost(host)) return `without SCRIBE_API_TOKEN the API answers only requests addressed to this machine (Host ${headers.host ?? 'missing'})`;
  return undefined;
}

/** Whether listening on `host` reaches this machine only: localhost, 127.0.0.0/8, ::1 (IPv4-mapped too). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith('127.');
  if (version === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || bare === '0:0:0:0:0:0:0:1';
  return false;
}
