/**
 * Loads a YAML file and checks it with a zod schema. Every problem is reported with the file, the key
 * path and the line, because a user editing agents/*.yaml needs to know exactly where to look.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigProblem } from './errors.ts';
import { cachedYamlData, keepYamlData } from './yaml-cache.ts';

export { ConfigError, formatProblem, type ConfigProblem } from './errors.ts';

/** A parsed YAML document that can say on which line a key path stands. */
export interface YamlSource {
  file: string;
  data: unknown;
  lineOf: (path: readonly PropertyKey[]) => number;
  /**
   * The path as the file writes it, where `data` holds a deprecated key under its current name
   * (src/config/renamed-keys.ts), so a problem names the key the user wrote. Absent: the path itself.
   */
  writtenAs?: (path: readonly PropertyKey[]) => readonly PropertyKey[];
}

const require = createRequire(import.meta.url);

/** The YAML library, loaded when a text must be parsed: a run whose files are all in the cache never loads it. */
function yamlLibrary(): typeof Yaml {
  return require('yaml') as typeof Yaml;
}

interface ParsedDocument {
  doc: Yaml.Document;
  lineCounter: Yaml.LineCounter;
}

function parseDocument(file: string, text: string): ParsedDocument {
  const { LineCounter, parseDocument } = yamlLibrary();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => ({
        file,
        key: '',
        line: lineCounter.linePos(e.pos[0]).line,
        message: `invalid YAML: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  return { doc, lineCounter };
}

export function parseYaml(file: string, text: string): YamlSource {
  const parsed = parseDocument(file, text);
  return { file, data: parsed.doc.toJS(), lineOf: (path) => lineOf(parsed, path) };
}

/** A file's data from the parse cache when its text was parsed before; its document is parsed only if a line is asked for. */
function parseYamlCached(file: string, text: string): YamlSource {
  const cached = cachedYamlData(text);
  if (!cached) {
    const source = parseYaml(file, text);
    keepYamlData(text, source.data);
    return source;
  }
  let parsed: ParsedDocument | undefined;
  return { file, data: cached.data, lineOf: (path) => lineOf((parsed ??= parseDocument(file, text)), path) };
}

/** The line of the deepest key along the path that exists (a missing key reports its parent). */
function lineOf({ doc, lineCounter }: ParsedDocument, path: readonly PropertyKey[]): number {
  const { isMap, isNode, isScalar, isSeq } = yamlLibrary();
  const lineAt = (node: { range?: [number, number, number] | null } | null | undefined, fallback: number) =>
    node?.range ? lineCounter.linePos(node.range[0]).line : fallback;
  let node: unknown = doc.contents;
  let line = lineAt(doc.contents, 1);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
      if (!pair) break;
      line = lineAt(isNode(pair.key) ? pair.key : null, line);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (!isNode(item)) break;
      line = lineAt(item, line);
      node = item;
    } else {
      break;
    }
  }
  return line;
}

export function keyPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

/** A problem at a key path of the source, named and placed as the file writes it. */
export function problemAt(source: YamlSource, path: readonly PropertyKey[], message: string): ConfigProblem {
  return { file: source.file, key: keyPath(source.writtenAs?.(path) ?? path), line: source.lineOf(path), message };
}

/** Checks parsed YAML against a schema; zod's issues become ConfigProblems with lines. */
export function checkWithSchema<T>(source: YamlSource, schema: z.ZodType<T>, prefix: readonly PropertyKey[] = [], value: unknown = source.data): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => problemAt(source, [...prefix, ...issue.path], issue.message)));
}

export function readYamlFile(file: string): YamlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ file, key: '', line: 0, message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  return parseYamlCached(file, text);
}
