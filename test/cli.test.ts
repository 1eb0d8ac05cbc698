/**
 * The command line loads a command's modules only when that command runs (src/cli.ts): a quick command does not
 * pay for the browser, model, MCP and queue libraries it never uses. Read from the real CLI's process: a
 * preload lists, as the process exits, every package a CommonJS module was loaded from (an ES module, such as
 * the model client's, is not in require.cache, so these checks name CommonJS packages only).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/scribe.js', import.meta.url));

/** MCP's SDK and the shared queue's client (BullMQ on Redis); TypeScript, in the copy ts-morph ships. */
const SERVING = ['@modelcontextprotocol/sdk', 'bullmq', 'ioredis'];
const COMPILER = '@ts-morph/common';

let dir: string;
let recorder: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-cli-startup-'));
  recorder = path.join(dir, 'record-packages.cjs');
  // CommonJS modules, also those an ES module imports, pass through require.cache: every package above is one.
  writeFileSync(
    recorder,
    `process.on('exit', () => {
  const packages = new Set(Object.keys(require.cache).flatMap((file) => { const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file); return m ? [m[1]] : []; }));
  require('node:fs').writeFileSync(process.env.SCRIBE_TEST_PACKAGES, JSON.stringify([...packages]));
});
`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages `scribe <args>` loaded, and its exit code. */
function packagesLoaded(args: string[]): Promise<{ code: number; packages: string[] }> {
  const out = path.join(dir, `${args.join('-').replace(/\W+/g, '_')}.json`);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--require', recorder, BIN, ...args], { cwd: dir, env: { ...process.env, SCRIBE_TEST_PACKAGES: out, SCRIBE_HOME: path.join(dir, '.scribe') } }, (error) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, packages: JSON.parse(readFileSync(out, 'utf8')) as string[] });
    });
  });
}

describe('the command line loads what a command uses', () => {
  it('the recorder sees each package where it is used: the overall help loads every command, validate the compiler', async () => {
    const help = await packagesLoaded(['--help']);
    expect(help.code).toBe(0);
    for (const name of SERVING) expect(help.packages).toContain(name);
    const validate = await packagesLoaded(['validate', '--help']);
    expect(validate.code).toBe(0);
    expect(validate.packages).toContain(COMPILER);
  });

  it.each([
    [['validate', '--help'], SERVING],
    [['generate', '--help'], SERVING],
    // A CI gate on the local log: no project to read, so not even the compiler.
    [['stats', '--json'], [...SERVING, COMPILER]],
  ])('scribe %j loads none of %j', async (args, absent) => {
    const { code, packages } = await packagesLoaded(args);
    expect(code).toBe(0);
    expect(packages).toContain('commander');
    for (const name of absent) expect(packages).not.toContain(name);
  });
});
