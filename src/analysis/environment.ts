/** What a spec reads from its environment. */
import { ts } from '../util/typescript.js';
import { SpecModel } from './model.ts';

/** `process.env.X`, `process.env['X']`, and `const { X } = process.env`. */
export function environmentReads(model: SpecModel): Array<{ node: ts.Node; name: string }> {
  const reads: Array<{ node: ts.Node; name: string }> = [];
  const isProcessEnv = (expr: ts.Expression): boolean => {
    const e = model.unwrap(expr);
    return (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) && model.memberName(e) === 'env' && ts.isIdentifier(model.unwrap(e.expression)) && (model.unwrap(e.expression) as ts.Identifier).text === 'process';
  };
  for (const access of [...model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression), ...model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression)]) {
    if (!isProcessEnv(access.expression)) continue;
    const name = model.memberName(access);
    if (name) reads.push({ node: access, name });
  }
  for (const declaration of model.nodes<ts.VariableDeclaration>(ts.SyntaxKind.VariableDeclaration)) {
    if (!declaration.initializer || !isProcessEnv(declaration.initializer) || !ts.isObjectBindingPattern(declaration.name)) continue;
    for (const element of declaration.name.elements) {
      const key = element.propertyName ?? element.name;
      if (ts.isIdentifier(key) || ts.isStringLiteral(key)) reads.push({ node: element, name: key.text });
    }
  }
  return reads;
}

/** The variables a spec reads, each once, in the order first read. */
export function variablesRead(text: string, fileName = 'spec.ts'): string[] {
  return [...new Set(environmentReads(SpecModel.fromText(fileName, text)).map((read) => read.name))];
}
