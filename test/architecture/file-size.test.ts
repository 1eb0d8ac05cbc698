/**
 * No file in src/validate/, src/analysis/ or src/rules/ over 400 lines: a file that long answers more than one
 * question (issue 29).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const FOLDERS = ['validate', 'analysis', 'rules'];
const MAX_LINES = 400;

function linesPerFile(): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const folder of FOLDERS) {
    for (const file of readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|mts|cts|js|mjs|cjs)$/.test(file)) continue;
      const text = readFileSync(path.join(SRC, folder, file), 'utf8');
      sizes.set(path.posix.join(folder, file.split(path.sep).join('/')), text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
    }
  }
  return sizes;
}

describe('file size in src/validate, src/analysis and src/rules', () => {
  const sizes = linesPerFile();

  it('finds the files it measures', () => {
    expect(sizes.size).toBeGreaterThan(40);
  });

  it(`keeps every file at ${MAX_LINES} lines or fewer`, () => {
    const over = [...sizes].filter(([, lines]) => lines > MAX_LINES).map(([file, lines]) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
