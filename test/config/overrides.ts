/** Helpers for tests of a project's agents/*.yaml overrides. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type ConfigProblem } from '../../src/config/errors.ts';

/** Writes the project's agents/<name> override and returns its path. */
export function writeOverride(dir: string, name: string, text: string): string {
  mkdirSync(path.join(dir, 'agents'), { recursive: true });
  const file = path.join(dir, 'agents', name);
  writeFileSync(file, text);
  return file;
}

/** The problems of the ConfigError `load` throws; it must throw one. */
export function configProblems(load: () => unknown): ConfigProblem[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
