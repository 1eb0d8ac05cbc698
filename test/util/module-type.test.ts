/** Node's rule for a file's module type: the nearest package.json at or above its folder, read from the real file system. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifestType, nearestManifest } from '../../src/util/module-type.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'scribe-module-type-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('nearestManifest', () => {
  it('finds the nearest package.json above a folder and reads its type, stopping at the first one', () => {
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(root, 'e2e', 'cjs'), { recursive: true });
    writeFileSync(path.join(root, 'e2e', 'cjs', 'package.json'), '{ "name": "specs" }\n');
    expect(nearestManifest(path.join(root, 'e2e'))).toEqual({ file: path.join(root, 'package.json'), type: 'module' });
    expect(nearestManifest(path.join(root, 'e2e', 'cjs'))).toEqual({ file: path.join(root, 'e2e', 'cjs', 'package.json'), type: 'commonjs' });
  });

  it('says when the nearest package.json cannot be read, and does not look past it', () => {
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(root, 'broken'));
    writeFileSync(path.join(root, 'broken', 'package.json'), '{ "type": ');
    expect(nearestManifest(path.join(root, 'broken'))).toEqual({ file: path.join(root, 'broken', 'package.json'), type: 'unreadable' });
  });

  it('takes a folder named package.json for no manifest', () => {
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(root, 'odd', 'package.json'), { recursive: true });
    expect(nearestManifest(path.join(root, 'odd'))).toEqual({ file: path.join(root, 'package.json'), type: 'module' });
  });
});

describe('manifestType', () => {
  it('is module only for "type": "module", commonjs for any other type or none', () => {
    const file = path.join(root, 'package.json');
    writeFileSync(file, '{ "type": "module" }');
    expect(manifestType(file)).toBe('module');
    writeFileSync(file, '{ "type": "commonjs" }');
    expect(manifestType(file)).toBe('commonjs');
    writeFileSync(file, '{}');
    expect(manifestType(file)).toBe('commonjs');
  });
});
