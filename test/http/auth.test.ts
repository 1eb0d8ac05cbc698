import { describe, expect, it } from 'vitest';
import { apiToken, checkBearer, isLoopbackHost, openRequestRefusal } from '../../src/endpoint/auth.ts';

describe('bearer tokens', () => {
  it('accepts the exact token only; a missing or malformed header is "missing", any other token "invalid"', () => {
    expect(checkBearer('Bearer s3cret', 's3cret')).toBe('ok');
    expect(checkBearer('bearer s3cret', 's3cret')).toBe('ok');
    expect(checkBearer(undefined, 's3cret')).toBe('missing');
    expect(checkBearer('Basic czNjcmV0', 's3cret')).toBe('missing');
    expect(checkBearer('Bearer', 's3cret')).toBe('missing');
    expect(checkBearer('Bearer s3cre', 's3cret')).toBe('invalid');
    expect(checkBearer('Bearer s3cretX', 's3cret')).toBe('invalid');
    expect(checkBearer('Bearer S3CRET', 's3cret')).toBe('invalid');
    // Without a configured token (loopback only) every request passes.
    expect(checkBearer(undefined, undefined)).toBe('ok');
    expect(apiToken({ SCRIBE_API_TOKEN: '  ' })).toBeUndefined();
    expect(apiToken({ SCRIBE_API_TOKEN: ' t ' })).toBe('t');
  });

  it('knows which hosts reach this machine only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.example.com', '::ffff:10.0.0.1']) expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
  });

  it('an open API (no token) refuses any Origin and a Host not of this machine; with a token it leaves both to the bearer check', () => {
    expect(openRequestRefusal({ host: '127.0.0.1:8080' }, undefined)).toBeUndefined();
    expect(openRequestRefusal({ host: 'localhost:8080' }, undefined)).toBeUndefined();
    expect(openRequestRefusal({ host: '[::1]:8080' }, undefined)).toBeUndefined();
    expect(openRequestRefusal({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:3000' }, undefined)).toContain('Origin http://127.0.0.1:3000');
    expect(openRequestRefusal({ host: '127.0.0.1:8080', origin: 'null' }, undefined)).toContain('from a browser');
    expect(openRequestRefusal({ host: 'attacker.example:8080' }, undefined)).toContain('Host attacker.example:8080');
    expect(openRequestRefusal({}, undefined)).toContain('Host missing');
    expect(openRequestRefusal({ host: 'attacker.example', origin: 'https://attacker.example' }, 'token')).toBeUndefined();
  });
});
