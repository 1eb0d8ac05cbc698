/**
 * `scribe validate --cache`, like eslint's: each file's report is kept in <home>/validate-cache.json and
 * reused while the file's text, the project files its check read (what it imports, its tsconfig.json, the
 * declaration files and global-declaring sources its type check loaded) and the key
 * (Scribe's version, the rule configuration's sources, the flags) are unchanged. Reading it loads no
 * compiler, so a warm run over unchanged files costs little more than reading and hashing them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Issue } from '../contracts.ts';
import { readTextIfPresent, writeFileAtomic } from '../util/fs.ts';
import { INTERNAL_ERROR_RULE, type FileValidation } from './validator.ts';

export const CACHE_FILE = 'validate-cache.json';
/** Bumped when the cache file's shape changes. */
const FORMAT = 2;

interface Entry {
  /** sha256 of the file's text. */
  text: string;
  /** Project files its check read (see ValidationCache.store), with the sha256 of each. */
  reads: Record<string, string>;
  passed: boolean;
  issues: Issue[];
}

interface CacheFile {
  format: number;
  key: string;
  /** The warnings the project gave with these results (they depend only on what the key covers). */
  warnings: string[];
  entries: Record<string, Entry>;
}

/** What the results depend on beyond each file: hashed into the key, so any change empties the cache. */
export interface CacheKeyInputs {
  version: string;
  /** Files whose content decides the rule configuration: critic.yaml (bundled and the project's), the Playwright config, tsconfig.json. */
  configFiles: readonly string[];
  /** The options that change what is checked (preset, type check, untrusted). */
  options: Record<string, unknown>;
}

export function cacheKey(inputs: CacheKeyInputs): string {
  const hash = createHash('sha256').update(JSON.stringify({ version: inputs.version, options: inputs.options }));
  for (const file of inputs.configFiles) hash.update(`\0${file}\0${hashOfFile(file) ?? 'absent'}`);
  return hash.digest('hex');
}

export class ValidationCache {
  private readonly fileHashes = new Map<string, string | undefined>();

  private constructor(
    readonly location: string,
    private readonly data: CacheFile,
  ) {}

  /** The cache at this location for this key: empty when there is none, it is unreadable, or its key differs. */
  static open(location: string, key: string): ValidationCache {
    const empty: CacheFile = { format: FORMAT, key, warnings: [], entries: {} };
    try {
      const stored = JSON.parse(readFileSync(location, 'utf8')) as CacheFile;
      return new ValidationCache(location, stored.format === FORMAT && stored.key === key && typeof stored.entries === 'object' ? stored : empty);
    } catch {
      return new ValidationCache(location, empty);
    }
  }

  get warnings(): readonly string[] {
    return this.data.warnings;
  }

  /** The stored result for this file and text, if nothing it depends on changed. */
  lookup(file: string, text: string): FileValidation | undefined {
    const entry = this.data.entries[path.resolve(file)];
    if (!entry || entry.text !== hashOf(text)) return undefined;
    if (Object.entries(entry.reads).some(([read, hash]) => this.hashOfFile(read) !== hash)) return undefined;
    return { file, text, passed: entry.passed, issues: entry.issues };
  }

  /**
   * Keeps a result with the project files its check read: the files it imports, directly or not, and those its
   * type check loaded (validate/own-project.ts typeCheckReads). A file Scribe could not analyse is not kept: that is
   * Scribe's failure, and the next run should try again.
   */
  store(result: FileValidation, reads: readonly string[]): void {
    if (result.issues.some((issue) => issue.rule === INTERNAL_ERROR_RULE)) return;
    const hashes = Object.fromEntries(reads.map((file) => [file, this.hashOfFile(file)]).filter((e): e is [string, string] => e[1] !== undefined));
    this.data.entries[path.resolve(result.file)] = { text: hashOf(result.text), reads: hashes, passed: result.passed, issues: result.issues };
  }

  save(warnings: readonly string[]): void {
    writeFileAtomic(this.location, JSON.stringify({ ...this.data, warnings }));
  }

  private hashOfFile(file: string): string | undefined {
    if (!this.fileHashes.has(file)) this.fileHashes.set(file, hashOfFile(file));
    return this.fileHashes.get(file);
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hashOfFile(file: string): string | undefined {
  const text = readTextIfPresent(file);
  return text === undefined ? undefined : hashOf(text);
}
