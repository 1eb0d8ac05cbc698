/** Which package layouts a run refuses up front: Yarn's Plug'n'Play, told by its .pnp.cjs, unless a node_modules with @playwright/test is nearer. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { packageLayoutProblem } from '../../../src/agents/runner/package-layout.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'scribe-package-layout-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), '{}');
};

it("names Plug'n'Play's .pnp.cjs and the fix, from the project or a folder below it", () => {
  write('shop/.pnp.cjs');
  mkdirSync(path.join(root, 'shop', 'e2e', 'generated'), { recursive: true });
  for (const dir of ['shop', 'shop/e2e/generated', 'shop/not/made/yet']) {
    const problem = packageLayoutProblem(path.join(root, dir));
    expect(problem).toContain(path.join(root, 'shop', '.pnp.cjs'));
    expect(problem).toContain('nodeLinker: node-modules');
  }
});

it('lets a node_modules layout run: npm, pnpm, a node-modules linker that left a .pnp.cjs behind, a nearer node_modules', () => {
  write('npm/node_modules/@playwright/test/package.json');
  write('switched/.pnp.cjs');
  write('switched/node_modules/@playwright/test/package.json');
  write('monorepo/.pnp.cjs');
  write('monorepo/packages/e2e/node_modules/@playwright/test/package.json');
  for (const dir of ['npm', 'npm/tests', 'switched', 'monorepo/packages/e2e/tests', 'nothing/installed']) expect(packageLayoutProblem(path.join(root, dir))).toBeUndefined();
});
