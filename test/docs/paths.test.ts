/**
 * Nothing the documentation names is missing: every repository path that README.md, docs/**\/*.md and
 * agents/*.yaml cite (under src/, test/, docs/, agents/, bench/, bin/, scripts/, .ci/) exists. A path with
 * a placeholder (`src/rules/<id>.ts`) or a wildcard stands for many and is not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CITED = /(?<![\w./-])(?:src|test|docs|agents|bench|bin|scripts|\.ci)\/[\w./<>*@{}-]*[\w/]/g;

/** The repository paths one document cites, without placeholders or wildcards. */
export function citedPaths(text: string): string[] {
  return [...new Set(text.match(CITED) ?? [])].filter((cited) => !/[<>*{}]/.test(cited));
}

function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => path.join('docs', file));
  const agents = readdirSync(path.join(ROOT, 'agents')).filter((file) => file.endsWith('.yaml')).map((file) => path.join('agents', file));
  return ['README.md', ...docs, ...agents];
}

describe('paths the documentation cites', () => {
  it('all exist', () => {
    const cited = documents().flatMap((document) => citedPaths(readFileSync(path.join(ROOT, document), 'utf8')).map((file) => ({ document, file })));
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter(({ file }) => !existsSync(path.join(ROOT, file))).map(({ document, file }) => `${document} cites ${file}`)).toEqual([]);
  });

  it('are read from prose, code and comments; placeholders are left alone', () => {
    const text = "see src/validate/gate.ts, (`test/mcp/harness.ts`) and src/rules/<id>.ts; my-src/x.ts is not one; agents/*.yaml neither.\n# walks src/workflow/orchestrator.ts.";
    expect(citedPaths(text)).toEqual(['src/validate/gate.ts', 'test/mcp/harness.ts', 'src/workflow/orchestrator.ts']);
  });
});
