/** Where a name comes from: the module it is imported or required from, and what counts as a module loader. */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { MemoKey } from './parsed-spec.ts';
import { KindModel } from './value-kinds.ts';

export interface ModuleBinding {
  module: string;
  /** The exported name: a named import's name, `default`, or `*` for a namespace or a whole `require`. */
  imported: string;
}

const MODULE_BINDING = new MemoKey<ModuleBinding | undefined>('the module an identifier is imported from');

export class ModuleModel extends KindModel {
  /** The module an identifier was imported or required from. */
  moduleBinding(identifier: ts.Identifier): ModuleBinding | undefined {
    return this.memo(MODULE_BINDING, identifier, () => this.computeModuleBinding(identifier));
  }

  private computeModuleBinding(identifier: ts.Identifier): ModuleBinding | undefined {
    const declaration = this.declarationOf(identifier);
    if (!declaration) return undefined;
    if (ts.isImportSpecifier(declaration)) {
      return { module: moduleText(declaration.parent.parent.parent), imported: (declaration.propertyName ?? declaration.name).text };
    }
    if (ts.isImportClause(declaration)) return { module: moduleText(declaration.parent), imported: 'default' };
    if (ts.isNamespaceImport(declaration)) return { module: moduleText(declaration.parent.parent), imported: '*' };
    if (ts.isImportEqualsDeclaration(declaration) && ts.isExternalModuleReference(declaration.moduleReference)) {
      const module = this.stringValue(declaration.moduleReference.expression);
      return module === undefined ? undefined : { module, imported: '*' };
    }
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const required = this.requiredModule(declaration.initializer);
      if (required !== undefined) return { module: required, imported: '*' };
      const init = this.unwrap(declaration.initializer);
      if (ts.isIdentifier(init)) return this.moduleBinding(init);
      if ((ts.isPropertyAccessExpression(init) || ts.isElementAccessExpression(init)) && ts.isIdentifier(this.unwrap(init.expression))) {
        const base = this.moduleBinding(this.unwrap(init.expression) as ts.Identifier);
        const member = this.memberName(init);
        if (base && member) return { module: base.module, imported: base.imported === '*' ? member : `${base.imported}.${member}` };
      }
    }
    if (ts.isBindingElement(declaration)) {
      let root: ts.Node = declaration.parent;
      while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
      if (ts.isVariableDeclaration(root) && root.initializer) {
        const key = declaration.propertyName ?? declaration.name;
        const imported = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : '*';
        const required = this.requiredModule(root.initializer);
        if (required !== undefined) return { module: required, imported };
        const init = this.unwrap(root.initializer);
        if (ts.isIdentifier(init)) {
          const base = this.moduleBinding(init);
          if (base) return { module: base.module, imported };
        }
      }
    }
    return undefined;
  }

  /** The module named by `require('x')` or `await import('x')` (or another loader, see isModuleLoader), when the expression is one. */
  requiredModule(expr: ts.Expression): string | undefined {
    let e = this.unwrap(expr);
    if (ts.isAwaitExpression(e)) e = this.unwrap(e.expression);
    if (!ts.isCallExpression(e) || !e.arguments[0] || !this.isModuleLoader(e.expression)) return undefined;
    return this.stringValue(e.arguments[0], '?');
  }

  /** `require`, `import`, `module.require`, a function made by `createRequire`, or an alias of one. */
  isModuleLoader(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    const callee = this.unwrap(expr);
    if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
    if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) return this.memberName(callee) === 'require';
    if (ts.isCallExpression(callee)) return this.callee(callee).name === 'createRequire';
    if (!ts.isIdentifier(callee)) return false;
    if (callee.text === 'require') return true;
    const resolved = this.resolve(callee);
    return resolved !== callee && this.isModuleLoader(resolved, depth + 1);
  }

  /** The module the name at the start of an access chain (`prisma.user.count()`, `a.b().c`) comes from, if imported or required. */
  chainModule(expr: ts.Expression): string | undefined {
    let root = this.unwrap(expr);
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root) || ts.isCallExpression(root)) root = this.unwrap(root.expression);
    return ts.isIdentifier(root) ? this.moduleBinding(root)?.module : undefined;
  }

  /** Whether an access chain (`a.b().c`) starts at a name imported or required from a module. */
  protected importedRoot(expr: ts.Expression): boolean {
    return this.chainModule(expr) !== undefined;
  }
}

function moduleText(declaration: ts.Node): string {
  return ts.isImportDeclaration(declaration) && ts.isStringLiteralLike(declaration.moduleSpecifier) ? declaration.moduleSpecifier.text : '';
}
