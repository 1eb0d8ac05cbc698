/**
 * The values a name may hold that following its declaration cannot give: a helper's parameter takes the
 * arguments its calls in this file pass (`expectCartTotal(page, 'Total: $8')`), and a name bound by a
 * `for…of` over an array of object literals takes each row's property (`for (const { after } of ROWS)`).
 */
import { ts } from '../util/typescript.js';
import type { SpecModel } from './model.ts';

export function boundValues(model: SpecModel, name: ts.Identifier): ts.Expression[] {
  const declaration = model.declarationOf(name);
  if (!declaration) return [];
  if (ts.isParameter(declaration) && ts.isIdentifier(declaration.name)) return argumentsFor(model, declaration);
  if (ts.isBindingElement(declaration)) return rowValues(model, declaration);
  return [];
}

/** What the file's calls of the parameter's function pass in its place. */
function argumentsFor(model: SpecModel, parameter: ts.ParameterDeclaration): ts.Expression[] {
  const fn = parameter.parent;
  const index = fn.parameters.indexOf(parameter);
  return model.calls.filter((call) => model.localFunction(call) === fn).flatMap((call) => call.arguments[index] ?? []);
}

/** `for (const { after } of [{ after: '1 item left' }, …])`: each row's `after`. */
function rowValues(model: SpecModel, element: ts.BindingElement): ts.Expression[] {
  const pattern = element.parent;
  const declaration = pattern.parent;
  const key = element.propertyName ?? element.name;
  if (!ts.isObjectBindingPattern(pattern) || !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(key)) return [];
  const loop = declaration.parent.parent;
  if (!ts.isForOfStatement(loop)) return [];
  const rows = model.resolve(loop.expression);
  if (!ts.isArrayLiteralExpression(rows)) return [];
  return rows.elements.flatMap((row) => {
    const object = model.resolve(row);
    if (!ts.isObjectLiteralExpression(object)) return [];
    const property = object.properties.find((p) => model.propertyName(p) === key.text);
    return property && ts.isPropertyAssignment(property) ? [property.initializer] : property && ts.isShorthandPropertyAssignment(property) ? [property.name] : [];
  });
}
