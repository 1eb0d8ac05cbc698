import path from 'node:path';
import { ts } from '../../util/typescript.js';
import type { SpecModel, TestBlock } from '../../analysis/model.ts';

/** Fixtures that drive the browser: a step that takes one acts through the UI, and what it does can be checked. */
const BROWSER_FIXTURES = new Set(['page', 'context', 'browser']);
const SETUP_NAME = /^(setup|teardown)$/i;
const SETUP_FILE = /(^|[._-])(global[._-]?)?(setup|teardown)\.([a-z]+\.)?[cm]?[jt]sx?$/i;

/**
 * `import { test as setup }` … `setup('create new database', async () => { … })`: a step of a setup or teardown
 * project, as Playwright's docs write them (declared as `setup`/`teardown`, or in a *.setup.ts file), that takes
 * no browser fixture: it seeds or clears state for the tests, and a failing step fails it, so there is nothing
 * to assert. A setup step that drives the page is still a test of what it does.
 */
export function preparesState(model: SpecModel, test: TestBlock): boolean {
  let root: ts.Expression = test.call.expression;
  while (ts.isPropertyAccessExpression(root) || ts.isCallExpression(root)) root = root.expression;
  const named = (ts.isIdentifier(root) && SETUP_NAME.test(root.text)) || SETUP_FILE.test(path.basename(model.sourceFile.fileName));
  if (!named || !test.body) return false;
  const fixtures = test.body.parameters[0]?.name;
  if (fixtures === undefined) return true;
  if (!ts.isObjectBindingPattern(fixtures)) return false;
  return fixtures.elements.every((element) => {
    const name = element.propertyName ?? element.name;
    return ts.isIdentifier(name) && !BROWSER_FIXTURES.has(name.text);
  });
}
