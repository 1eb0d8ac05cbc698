import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInside, writeFileAtomic } from '../../src/util/fs.ts';

describe('writeFileAtomic', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scribe-fs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file whole, creating its folder, and leaves no temporary file', () => {
    const file = path.join(dir, 'a', 'spec.ts');
    writeFileAtomic(file, 'one');
    writeFileAtomic(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(path.dirname(file))).toEqual(['spec.ts']);
  });

  it('exclusive: writes a new name, and refuses a taken one with EEXIST, leaving it and no temporary file', () => {
    const file = path.join(dir, 'b.spec.ts');
    writeFileAtomic(file, 'mine', { exclusive: true });
    expect(readFileSync(file, 'utf8')).toBe('mine');
    writeFileSync(file, 'theirs');
    expect(() => writeFileAtomic(file, 'mine again', { exclusive: true })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(file, 'utf8')).toBe('theirs');
    expect(readdirSync(dir).filter((name) => name.startsWith('b.spec.ts'))).toEqual(['b.spec.ts']);
  });
});

describe('isInside', () => {
  it('is true of a path below the folder, absolute or relative to it, and not of the folder, its parent or a sibling', () => {
    expect(isInside('/run', '/run/work/report.json')).toBe(true);
    expect(isInside('/run', 'work/report.json')).toBe(true);
    expect(isInside('/run', '/run/..hidden')).toBe(true);
    expect(isInside('/run', '/run')).toBe(false);
    expect(isInside('/run', '/run/..')).toBe(false);
    expect(isInside('/run', '../other/file')).toBe(false);
    expect(isInside('/run', '/run-2/file')).toBe(false);
  });
});
