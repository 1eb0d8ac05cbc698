/**
 * In a Yarn Plug'n'Play project (its .pnp.cjs, no node_modules), where a run cannot link Playwright's folder:
 * generate still explores and validates, and the run's failure names the layout and the fix, exit 1, the spec
 * kept for review, instead of an internal error from inside the run.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { scribe } from './cli-harness.ts';

let dir: string;
let app: Server;
let url: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-pnp-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "shop-e2e", "private": true, "packageManager": "yarn@4.5.3" }\n');
  writeFileSync(path.join(dir, '.pnp.cjs'), '// Yarn Plug\'n\'Play runtime\n');
  app = createServer((_, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Shop</title><h1 data-testid="title">Welcome</h1>');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  await new Promise((resolve) => app.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it("generate explores and validates, then says the run needs node_modules, not an internal error", async () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(dir, '.scribe'), OPENAI_API_KEY: '', OPENAI_BASE_URL: '', BASE_URL: '' };
  const run = await scribe(['generate', 'see the title "Welcome"', '--url', url], { cwd: dir, env });
  const output = `${run.stdout}${run.stderr}`;
  expect(output).not.toContain('internal error');
  expect(output).toContain('passed every rule');
  expect(output).toContain(`Yarn Plug'n'Play (${path.join(dir, '.pnp.cjs')})`);
  expect(output).toContain('add `nodeLinker: node-modules` to .yarnrc.yml');
  expect(run.code).toBe(1);
  const kept = readdirSync(path.join(dir, 'generated-tests'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.not-run.ts'));
  expect(kept).toHaveLength(1);
  // Nothing of the run is left in the project: its folder went with it.
  expect(existsSync(path.join(dir, '.scribe', 'tmp')) ? readdirSync(path.join(dir, '.scribe', 'tmp')) : []).toEqual([]);
}, 120_000);
