import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ts as morphCompiler } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { ts } from '../../src/util/typescript.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const loader = pathToFileURL(path.join(root, 'src/util/typescript.js')).href;

/** A fresh Node process that loads the compiler through Scribe's loader and parses a spec with it. */
function parseInChild(): Promise<{ stdout: string }> {
  const script = `import { ts } from ${JSON.stringify(loader)};\nconst sf = ts.createSourceFile('a.spec.ts', 'test("a", async () => {});', ts.ScriptTarget.ES2022, true);\nconsole.log(sf.statements.length);`;
  return run(process.execPath, ['--input-type=module', '-e', script]);
}

describe("the compiler's loader", () => {
  it("is ts-morph's compiler: one copy in the process, whoever loads it first", () => {
    // The same functions (the test runner may wrap ts-morph's export in a namespace of its own).
    expect(ts.createSourceFile).toBe(morphCompiler.createSourceFile);
    expect(ts.SyntaxKind).toBe(morphCompiler.SyntaxKind);
    expect(ts.createSourceFile('a.ts', 'let a = 1;', ts.ScriptTarget.ES2022).statements).toHaveLength(1);
  });

  // Node 22 and later keep their own compile cache; Scribe's is for Node 20.
  it.skipIf(typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function')(
    'keeps V8’s code cache beside the package, and a damaged one is refused by V8 and written anew',
    async () => {
      const cacheDir = path.join(root, 'node_modules', '.cache', 'scribe');
      // Named without a heap limit, as the processes that type-check have none.
      const ours = () => readdirSync(cacheDir).filter((name) => new RegExp(`^typescript-${process.version}-${process.arch}-[0-9a-f]+-\\d+\\.v8-cache$`).test(name));
      expect((await parseInChild()).stdout.trim()).toBe('1');
      expect(ours()).toHaveLength(1);
      const cacheFile = path.join(cacheDir, ours()[0]!);
      expect(statSync(cacheFile).size).toBeGreaterThan(100_000);

      writeFileSync(cacheFile, 'not a code cache');
      expect((await parseInChild()).stdout.trim()).toBe('1');
      expect(readFileSync(cacheFile, 'utf8').startsWith('not a code cache')).toBe(false);
      expect(statSync(cacheFile).size).toBeGreaterThan(100_000);
    },
    60_000,
  );
});
