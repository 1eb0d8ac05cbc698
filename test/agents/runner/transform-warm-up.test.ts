/**
 * The warm-up of Playwright's TypeScript transform in a contained run (src/agents/runner/transform-warm-up.cjs):
 * the installed Playwright's Babel really transforms the warm-up spec, each parameter list read gets the
 * arguments of its release, and a transform whose parameters are not read (older releases are minified) is
 * never called.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { warmUpTransform } = require('../../../src/agents/runner/transform-warm-up.cjs') as {
  warmUpTransform: (babelTransform: (...args: unknown[]) => { code?: string } | null, folder: string) => string | undefined;
};

/** A transform with this parameter list that records its arguments and returns code. */
function recording(parameters: string): { transform: (...args: unknown[]) => { code: string }; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const transform = new Function('calls', `return function babelTransform(${parameters}) { calls.push([...arguments]); return { code: 'made' }; }`)(calls) as (...args: unknown[]) => { code: string };
  return { transform, calls };
}

describe('warmUpTransform', () => {
  it("has the installed Playwright's Babel transform the warm-up spec to CommonJS without its types", () => {
    const testPackage = path.dirname(require.resolve('@playwright/test/package.json'));
    const { babelTransform } = require(require.resolve('playwright/lib/transform/babelBundle', { paths: [testPackage] })) as {
      babelTransform: (...args: unknown[]) => { code?: string } | null;
    };
    const code = warmUpTransform(babelTransform, '/run');
    expect(code).toContain('require("@playwright/test")');
    expect(code).toContain('const title = `t${1}`;');
    expect(code).not.toMatch(/: string/);
  });

  it.each([
    ['code, filename, isModule, pluginsPrologue, pluginsEpilogue, jsxImportSource', [false, [], [], undefined]],
    ['code, filename, isModule, pluginsEpilogue, jsx', [false, [], undefined]],
    ['code, filename,\n  isModule, pluginsEpilogue, useDefineForClassFields, jsx', [false, [], true, undefined]],
  ])('calls a transform of parameters (%s) with its release’s arguments, as a TypeScript spec in the run folder', (parameters, rest) => {
    const { transform, calls } = recording(parameters);
    expect(warmUpTransform(transform, '/runs/one')).toBe('made');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(1)).toEqual(['/runs/one/warm-up.spec.ts', ...rest]);
    expect(calls[0]![0]).toContain("import { test, expect } from '@playwright/test';");
  });

  it('never calls a transform whose parameters it has not read (a minified release, a changed signature)', () => {
    for (const parameters of ['e, t, r, n, s', 'code, filename, isModule, options', '']) {
      const { transform, calls } = recording(parameters);
      expect(warmUpTransform(transform, '/run')).toBeUndefined();
      expect(calls).toEqual([]);
    }
  });
});
