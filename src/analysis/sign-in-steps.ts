/** Which calls of a flow sign in: the fills of an environment variable (a declared credential) and the submit after them. */
import { ts } from '../util/typescript.js';
import type { SpecModel } from './model.ts';
import { TEXT_INPUTS } from './playwright-api.ts';

const SUBMITS: ReadonlySet<string> = new Set(['click', 'press', 'tap', 'dblclick']);

/**
 * The indexes of `calls` (in the order the flow makes them) that sign in: each fill of an environment variable
 * and the click or key press that submits it. `isAction` says which calls act on the page at all.
 */
export function signInSteps(model: SpecModel, calls: readonly ts.CallExpression[], isAction: (index: number) => boolean): Set<number> {
  const signIn = new Set<number>();
  let pending = false;
  calls.forEach((call, index) => {
    if (!isAction(index)) return;
    const name = model.callee(call).name ?? '';
    if (TEXT_INPUTS.has(name) && call.arguments.some((argument) => readsEnvironment(argument))) {
      signIn.add(index);
      pending = true;
    } else if (pending && SUBMITS.has(name)) {
      signIn.add(index);
      pending = false;
    }
  });
  return signIn;
}

function readsEnvironment(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && node.name.text === 'env') return true;
  return ts.forEachChild(node, readsEnvironment) === true;
}
