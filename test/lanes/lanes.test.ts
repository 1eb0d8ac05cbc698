/**
 * The suite's lanes (vitest.config.ts): the unit lane starts no child process and no browser. Its setup
 * makes starting one an error (shown here), and its files import nothing that exists to start one.
 */
import childProcess, { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ts } from '../../src/util/typescript.js';
import { E2E } from '../../vitest.config.ts';
import { SLOWEST_FIRST, slowestFirst } from './slowest-first.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a unit-lane test file may not import: modules whose purpose is to start a process or a browser. */
const STARTERS = [/^(node:)?child_process$/, /\/cli-harness\.ts$/, /\/mcp\/harness\.ts$/, /\/agents\/runner\.ts$/, /\/agents\/contained-run\.ts$/, /\/explore\/browser\.ts$/, /\/explore\/inventory\.ts$/, /\/workflow\/pipeline\.ts$/, /\/library\.ts$/];

function unitFiles(): string[] {
  const all = ts.sys.readDirectory(path.join(ROOT, 'test'), ['.test.ts'], undefined, undefined).map((file: string) => path.relative(ROOT, file));
  return all.filter((file: string) => !E2E.some((pattern) => (pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern)));
}

/** The imports of one test file that start processes, by name. */
function starters(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((reference: { fileName: string }) => reference.fileName)
    .filter((specifier: string) => STARTERS.some((pattern) => pattern.test(specifier)));
}

describe('the unit lane', () => {
  it('refuses to start a child process, naming the lane', () => {
    expect(() => spawn('true')).toThrow(/unit-lane test starts no child process/);
    expect(() => childProcess.execFileSync('true')).toThrow(/unit-lane test starts no child process/);
  });

  it('holds no test file that imports a module made to start a process or a browser', () => {
    const files = unitFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((file) => file !== 'test/lanes/lanes.test.ts').flatMap((file) => starters(readFileSync(path.join(ROOT, file), 'utf8')).map((found) => `${file} imports ${found}`))).toEqual([]);
  });

  it('would name a file that imports the CLI harness or child_process', () => {
    expect(starters("import { scribe } from './cli-harness.ts';\nimport { execFile } from 'node:child_process';\nimport { x } from './other.ts';")).toEqual(['./cli-harness.ts', 'node:child_process']);
  });
});

describe('the e2e lane\'s order', () => {
  it('lists only test files of the e2e lane that exist, each once', () => {
    const e2e = (file: string) => E2E.some((pattern) => (pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern));
    expect(SLOWEST_FIRST.filter((file) => !e2e(file) || !existsSync(path.join(ROOT, file)))).toEqual([]);
    expect(new Set(SLOWEST_FIRST).size).toBe(SLOWEST_FIRST.length);
  });

  it('starts the listed files first, slowest first, and keeps the order of the rest', () => {
    const files = ['test/http/auth.test.ts', SLOWEST_FIRST[2]!, 'test/mcp/http.test.ts', SLOWEST_FIRST[0]!, 'test/commands/stats.test.ts'];
    expect(slowestFirst(files, (file) => file)).toEqual([SLOWEST_FIRST[0], SLOWEST_FIRST[2], 'test/http/auth.test.ts', 'test/mcp/http.test.ts', 'test/commands/stats.test.ts']);
  });
});
