/**
 * What agents/*.yaml parse to, kept as JSON: loading the YAML library and parsing the bundled files is
 * about a tenth of a quick `scribe validate`, and they change only with a release or a user's edit. An
 * entry is named by a hash of the text and the library's version, so an edited file is simply parsed
 * anew. It lives beside the compiler's code cache (node_modules/.cache/scribe); a read-only install has
 * none, and a damaged entry is parsed anew.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeFileAtomic } from '../util/fs.ts';

const require = createRequire(import.meta.url);
const { cacheFolderFor } = require('../util/code-cache.cjs') as { cacheFolderFor: (file: string) => string | undefined };

/** The data a text parsed to before, when the cache has it. */
export function cachedYamlData(text: string, folder = defaultFolder()): { data: unknown } | undefined {
  if (folder === undefined) return undefined;
  try {
    const entry = JSON.parse(readFileSync(entryFile(folder, text), 'utf8')) as { data?: unknown };
    return 'data' in entry ? { data: entry.data } : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps what a text parsed to, when JSON holds it exactly (YAML's .inf and .nan it does not); never fails the run. */
export function keepYamlData(text: string, data: unknown, folder = defaultFolder()): void {
  if (folder === undefined || !isJsonExact(data)) return;
  try {
    writeFileAtomic(entryFile(folder, text), JSON.stringify({ data }));
  } catch {
    // no cache here: the next run parses again
  }
}

function entryFile(folder: string, text: string): string {
  const key = createHash('sha256').update(yamlVersion()).update('\0').update(text).digest('hex').slice(0, 32);
  return path.join(folder, `yaml-${key}.json`);
}

function yamlVersion(): string {
  return (require('yaml/package.json') as { version: string }).version;
}

/** The cache folder of the node_modules that holds Scribe's dependencies, where the compiler's code cache is too. */
function defaultFolder(): string | undefined {
  return cacheFolderFor(require.resolve('yaml'));
}

function isJsonExact(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isJsonExact);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every(isJsonExact);
  return false;
}
