/**
 * agents/*.yaml's parse cache: a file read again comes from it, with the same data and the same lines
 * for its problems; an edited file, a damaged entry and values JSON cannot hold are parsed anew.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/config/agents.ts';
import { criticConfigFrom } from '../../src/config/critic.ts';
import { ConfigError, parseYaml, readYamlFile } from '../../src/config/load.ts';
import { cachedYamlData, keepYamlData } from '../../src/config/yaml-cache.ts';

let dir: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-yaml-cache-'));
  cache = path.join(dir, 'cache');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entries = () => readdirSync(cache).filter((name) => name.startsWith('yaml-') && name.endsWith('.json'));

describe("the YAML parse cache", () => {
  it('gives back what a text parsed to, for that text only', () => {
    const text = 'settings:\n  test_id_attribute: data-qa\nrules:\n  - id: a\n    on: true\n';
    expect(cachedYamlData(text, cache)).toBeUndefined();
    keepYamlData(text, parseYaml('a.yaml', text).data, cache);
    expect(entries()).toHaveLength(1);
    expect(cachedYamlData(text, cache)).toEqual({ data: parseYaml('a.yaml', text).data });
    expect(cachedYamlData(`${text}# edited\n`, cache)).toBeUndefined();
  });

  it('parses anew where an entry is damaged, and keeps nothing JSON would change (.inf, .nan)', () => {
    const text = 'limit: 3\n';
    keepYamlData(text, { limit: 3 }, cache);
    writeFileSync(path.join(cache, entries()[0]!), '{"dat');
    expect(cachedYamlData(text, cache)).toBeUndefined();

    const infinite = 'limit: .inf\nratio: .nan\n';
    keepYamlData(infinite, parseYaml('b.yaml', infinite).data, cache);
    expect(cachedYamlData(infinite, cache)).toBeUndefined();
  });
});

describe('a file read from the cache', () => {
  const bundledCritic = path.resolve(import.meta.dirname, '../../agents/critic.yaml');

  it('is the file as parsed: the bundled critic.yaml, once read, comes from the cache with the same data and configuration', () => {
    const text = readFileSync(bundledCritic, 'utf8');
    const parsed = parseYaml(bundledCritic, text);
    readYamlFile(bundledCritic);
    expect(cachedYamlData(text)).toEqual({ data: parsed.data });
    expect(readYamlFile(bundledCritic).data).toEqual(parsed.data);
    // The rules' check functions differ per load; everything the file says is the same.
    expect(JSON.stringify(criticConfigFrom(readYamlFile(bundledCritic)))).toBe(JSON.stringify(criticConfigFrom(parsed)));
  });

  it('still names the line of a problem: the document is parsed when a line is asked for', () => {
    const file = path.join(dir, 'critic.yaml');
    writeFileSync(file, 'settings:\n  validate_preset: recommended\nrules:\n  no-nth-methods:\n    severity: loud\n');
    const problems = () => {
      try {
        loadAgents(dir, { criticFile: file });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems.map((p) => `${p.file}:${p.line}: ${p.key}`);
        throw error;
      }
      return [];
    };
    const first = problems();
    expect(first).toEqual([`${file}:5: rules.no-nth-methods.severity`]);
    // The second read is the cache's: the text parsed cleanly, only the schema refused it.
    expect(cachedYamlData(readFileSync(file, 'utf8'))).toBeDefined();
    expect(problems()).toEqual(first);
  });
});
