import { ts } from '../util/typescript.js';
import { z } from 'zod';
import { isFunctionLike, type SpecModel } from '../analysis/model.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const SKIPPING = new Set(['skip', 'fixme']);
const EXPECTED_TO_FAIL = 'fail';

const Options = ruleOptions({
  /** Accept skips with a condition (`test.skip(!process.env.STORAGE_URL, 'needs storage')`), as eslint-plugin-playwright's allowConditional. */
  allow_conditional: z.boolean().default(false),
  /** Also flag test.fail() and testInfo.fail(): a test marked as expected to fail passes when its check fails. */
  expected_to_fail: z.boolean().default(false),
});

export default defineRule({
  id: 'no-skipped-test',
  description: 'Disallows test.skip, test.fixme and test.describe.skip/fixme, as blocks or as annotations inside a test.',
  fixable: false,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    const flagged = options.expected_to_fail ? new Set([...SKIPPING, EXPECTED_TO_FAIL]) : SKIPPING;
    for (const call of model.calls) {
      // Cheap first: a written member must be skip or fixme (or fail); only an alias needs following.
      const callee = model.unwrap(call.expression);
      if (!ts.isIdentifier(callee) && !flagged.has(model.memberName(callee) ?? '')) continue;
      const path = model.playwrightPath(callee);
      const last = path?.slice(path.lastIndexOf('.') + 1);
      if (path?.startsWith('test.') && last === EXPECTED_TO_FAIL && flagged.has(last)) {
        findings.push({ node: call, message: `${path}() marks ${path.startsWith('test.describe') ? 'these tests' : 'this test'} as expected to fail: a check that fails then passes it, so it shows nothing works; remove it and assert what the page must show.` });
        continue;
      }
      if (path?.startsWith('test.') && last && SKIPPING.has(last)) {
        // A block has a title first; `test.skip(({ browserName }) => …, 'reason')` is a condition.
        const isBlock = call.arguments.slice(path.startsWith('test.describe') ? 0 : 1).some(isFunctionLike);
        if (!isBlock && options.allow_conditional && isConditional(call)) continue;
        const what = path.startsWith('test.describe') ? 'every test in this group' : 'this test';
        findings.push({
          node: call,
          message: isBlock
            ? `${path}() ${last === 'fixme' ? 'marks' : 'turns off'} ${what}${last === 'fixme' ? ' as broken and never runs it' : ''}, so it checks nothing; fix the test (or the app) instead, or delete it.`
            : `${path}(…) as an annotation skips ${what} at run time, so it checks nothing; remove the call and make the test pass where it runs.`,
        });
        continue;
      }
      const { name, receiver } = model.callee(call);
      if (name === EXPECTED_TO_FAIL && flagged.has(name) && receiver && isTestInfo(model, receiver)) {
        findings.push({ node: call, message: `${model.text(receiver)}.fail() marks the running test as expected to fail: a check that fails then passes it; remove it and assert what the page must show.` });
        continue;
      }
      if (name && receiver && SKIPPING.has(name) && isTestInfo(model, receiver) && !(options.allow_conditional && isConditional(call))) {
        findings.push({
          node: call,
          message: `${model.text(receiver)}.${name}() skips the running test at run time, so it checks nothing; remove the call and make the test pass where it runs.`,
        });
      }
    }
    return findings;
  },
});

/**
 * An annotation whose first argument is a condition (a value or a callback), not a bare `test.skip()` or a
 * title; or one a condition guards: `if (browserName === 'webkit') test.skip()`.
 */
function isConditional(call: ts.CallExpression): boolean {
  const first = call.arguments[0];
  if (first !== undefined && !ts.isStringLiteralLike(first)) return true;
  let statement: ts.Node = call.parent;
  while (ts.isAwaitExpression(statement) || ts.isParenthesizedExpression(statement)) statement = statement.parent;
  if (!ts.isExpressionStatement(statement)) return false;
  const owner = ts.isBlock(statement.parent) ? statement.parent.parent : statement.parent;
  return ts.isIfStatement(owner) && owner.elseStatement === undefined;
}

/** `test.info()` or the TestInfo a test or hook receives as its second parameter. */
function isTestInfo(model: SpecModel, expr: ts.Expression): boolean {
  const value = model.resolve(expr);
  if (ts.isCallExpression(value)) return model.playwrightPath(value.expression) === 'test.info';
  if (!ts.isIdentifier(value)) return false;
  const declaration = model.declarationOf(value);
  if (!declaration || !ts.isParameter(declaration)) return false;
  const fn = declaration.parent;
  return (
    isFunctionLike(fn) &&
    fn.parameters.indexOf(declaration) === 1 &&
    ts.isCallExpression(fn.parent) &&
    (model.playwrightPath(fn.parent.expression)?.startsWith('test') ?? false)
  );
}
