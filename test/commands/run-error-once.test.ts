/**
 * A failing run's error is long (Playwright's expected/received and its call log): the progress output
 * shows it once, on the run's own line; the kept spec's line and the last line refer to it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scribe } from './cli-harness.ts';

let dir: string;
let app: Server;
let url: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-run-error-'));
  // The page explored says "Welcome"; every later visit (the run) says "Goodbye": the spec's assertion fails.
  let served = 0;
  app = createServer((_, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>Shop</title><h1 data-testid="title">${served++ === 0 ? 'Welcome' : 'Goodbye'}</h1>`);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  await new Promise((resolve) => app.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a run error in the progress output', () => {
  it('is printed once, in full, on the run line; the kept spec and the last line refer to it', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(dir, '.scribe'), OPENAI_API_KEY: '', OPENAI_BASE_URL: '', BASE_URL: '' };
    const run = await scribe(['generate', 'see the title "Welcome"', '--url', url], { cwd: dir, env });
    expect(run.code).toBe(1);
    const output = `${run.stdout}${run.stderr}`;
    const kept = /kept for review: (\S+\.needs-review\.ts)/.exec(output)?.[1];
    expect(kept).toBeDefined();
    const record = JSON.parse(readFileSync(path.join(dir, kept!.replace(/\.ts$/, '.provenance.json')), 'utf8')) as { runner: { error_message: string } };
    const error = record.runner.error_message;
    expect(error).toContain('Received string:    "Goodbye"');
    expect(output.split(error).length - 1).toBe(1);
    expect(output.split('Received string:').length - 1).toBe(1);
    expect(output).toMatch(/kept for review: \S+ \(possible regression: an assertion on an element that exists failed at line \d+: the run's error above\)/);
    expect(run.stderr).toMatch(/^scribe: possible regression: .*the run's error above$/m);
  }, 240_000);
});
