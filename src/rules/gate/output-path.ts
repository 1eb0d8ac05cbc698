/**
 * allowed-paths' rule for `testInfo.outputPath()`: its path names the test's output folder, which is another
 * folder in the proof's copy of the spec (agents/runner/proof.ts). A spec that read the path (compared it, took
 * its length, stored it, passed it on) could fail in the copy alone and so look proved; as the path a call
 * writes or reads a file at, it is the same file to the test in both.
 */
import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { isValueReference } from '../utils/ast.ts';
import { constValue, valueSite } from '../../analysis/syntax.ts';
import type { Finding } from '../types.ts';

const WHY = "its path differs in the proof's copy of the spec, so a test that reads it could fail there alone and look proved";
const ADVICE = "use it only as the path a call writes or reads a file at: page.screenshot({ path: testInfo.outputPath('home.png') }), download.saveAs(testInfo.outputPath('report.csv'))";

/**
 * Every use of `outputPath` that is not a file path allowed-paths checked (`pathPositions`): the method read
 * without a call (`const p = testInfo.outputPath`), destructured, or its result used as a value anywhere but
 * in such a position, directly or through a `const` used only there.
 */
export function outputPathReads(model: SpecModel, pathPositions: ReadonlySet<ts.Node>): Finding[] {
  const found: Finding[] = [];
  for (const element of model.nodes<ts.BindingElement>(ts.SyntaxKind.BindingElement)) {
    const key = element.propertyName ?? element.name;
    if (ts.isObjectBindingPattern(element.parent) && (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) && key.text === 'outputPath') {
      found.push({ node: element, message: `outputPath may not be destructured: ${WHY}; ${ADVICE}.` });
    }
  }
  const accesses = [...model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression), ...model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression)];
  for (const access of accesses) {
    if (model.memberName(access) !== 'outputPath') continue;
    const call = calledAt(model, access);
    if (!call) {
      found.push({ node: access, message: `\`${model.text(access)}\` may only be called where a file's path goes, not read as a value: ${WHY}; ${ADVICE}.` });
      continue;
    }
    const misuse = valueUse(model, call, pathPositions);
    if (misuse) found.push({ node: misuse, message: `testInfo.outputPath() is used here as a value, not as a file's path: ${WHY}; ${ADVICE}.` });
  }
  return found;
}

/** The call that calls the member directly (`testInfo.outputPath(…)`, `testInfo?.outputPath(…)`), if any. */
function calledAt(model: SpecModel, access: ts.Expression): ts.CallExpression | undefined {
  const node = valueSite(access);
  const parent = node.parent;
  return ts.isCallExpression(parent) && parent.expression === node && model.unwrap(parent.expression) === access ? parent : undefined;
}

/** Where the call's value is used other than as a checked file path, or undefined when it is only such a path. */
function valueUse(model: SpecModel, call: ts.CallExpression, pathPositions: ReadonlySet<ts.Node>): ts.Node | undefined {
  const top = transparentParent(call, pathPositions);
  if (pathPositions.has(top)) return undefined;
  const declaration = top.parent;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer === top && constValue(declaration) === top) {
    const references = model.referencesTo(declaration).filter(isValueReference);
    const misused = references.find((reference) => !pathPositions.has(transparentParent(reference, pathPositions)));
    return misused;
  }
  return top;
}

/** The expression around a node that carries its value unchanged (parentheses, casts, `!`, a branch of ?:), up to a checked path. */
function transparentParent(node: ts.Expression, pathPositions: ReadonlySet<ts.Node>): ts.Expression {
  let current = node;
  for (;;) {
    if (pathPositions.has(current)) return current;
    const parent = current.parent;
    const carries =
      ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isTypeAssertionExpression(parent) || (ts.isConditionalExpression(parent) && parent.condition !== current);
    if (!carries) return current;
    current = parent;
  }
}
