/**
 * One trust boundary (src/validate/gate.ts): validators are made only in src/validate/ (its factories say
 * which code is trusted), and a run of model-written code goes through runContained, which takes only a
 * spec the gate passed. Checked on the syntax of every module of src/, and shown to fail on a module that
 * breaks either rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from '../../src/util/typescript.js';
import { describe, expect, it } from 'vitest';
import { moduleFiles } from './import-graph.ts';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
/** The one module that asks the Runner for a contained run. */
const CONTAINED_RUN = 'agents/contained-run.ts';
/** The Runner's calls that start a run: runSpec, and startRun (a run started before its spec), which runSpec itself calls. */
const RUN_CALLS: Record<string, string> = { runSpec: CONTAINED_RUN, startRun: 'agents/runner.ts' };

/** Each place in one module that crosses the boundary outside its door, as `file:line what`. */
function boundaryBreaches(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`src/${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && node.expression.getText() === 'Validator' && !file.startsWith('validate/')) at(node, 'new Validator( outside src/validate/ (use its factories in validate/gate.ts)');
    const call = ts.isCallExpression(node) ? node.expression.getText() : '';
    if (ts.isCallExpression(node) && Object.hasOwn(RUN_CALLS, call) && file !== CONTAINED_RUN && file !== RUN_CALLS[call]) {
      const [options] = node.arguments;
      const literal = options && ts.isObjectLiteralExpression(options) ? options : undefined;
      if (!literal) at(node, `${call}( with options that are not an object literal (the untrusted flag cannot be seen)`);
      else if (literal.properties.some((p) => ts.isSpreadAssignment(p) ? !p.expression.getText().startsWith('runTarget(') : p.name?.getText() === 'untrusted')) at(node, `${call}( that may ask for an untrusted run (use runContained with a GatedSpec)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the trust boundary', () => {
  it('holds in src/: validators are made in src/validate/, contained runs only through runContained', () => {
    const files = moduleFiles(src).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => boundaryBreaches(file, readFileSync(path.join(src, file), 'utf8')))).toEqual([]);
  });

  it('names a module that builds its own validator or asks the Runner for an untrusted run', () => {
    const breaking = [
      "const validator = new Validator(critic, { typeCheck: true });",
      "await runSpec({ specText: code, baseURL, untrusted: true });",
      "await runSpec({ ...options, baseURL });",
      "await runSpec(options);",
      "startRun({ ...options, fileName, sourceDir, untrusted: true });",
    ].join('\n');
    expect(boundaryBreaches('mcp/tools.ts', breaking)).toEqual([
      'src/mcp/tools.ts:1 new Validator( outside src/validate/ (use its factories in validate/gate.ts)',
      'src/mcp/tools.ts:2 runSpec( that may ask for an untrusted run (use runContained with a GatedSpec)',
      'src/mcp/tools.ts:3 runSpec( that may ask for an untrusted run (use runContained with a GatedSpec)',
      'src/mcp/tools.ts:4 runSpec( with options that are not an object literal (the untrusted flag cannot be seen)',
      'src/mcp/tools.ts:5 startRun( that may ask for an untrusted run (use runContained with a GatedSpec)',
    ]);
    expect(boundaryBreaches('validate/gate.ts', "new Validator(critic, {});")).toEqual([]);
    expect(boundaryBreaches('commands/run.ts', "runSpec({ specPath: spec, baseURL: url, ...runTarget(project) });")).toEqual([]);
  });
});
