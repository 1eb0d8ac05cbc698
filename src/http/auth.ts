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

/** Whether listening on `host` reaches this machine only: localhost, 127.0.0.0/8, ::1 (IPv4-mapped too). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith('127.');
  if (version === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || bare === '0:0:0:0:0:0:0:1';
  return false;
}
