/** The gate's globals policy: which of JavaScript's and Node's globals a spec may read, and process.env.NAME. */
import { ts } from '../../util/typescript.js';
import { isDeclaringName } from '../../analysis/syntax.ts';
import { isValueReference } from '../utils/ast.ts';
import { isPlainData } from '../../analysis/value-origins.ts';
import { LoadTimePolicy } from './load-time-code.ts';
import { isRelative } from './policy.ts';

export class GlobalsPolicy extends LoadTimePolicy {
  protected identifier(id: ts.Identifier): void {
    if (!isValueReference(id) || isDeclaringName(id)) return;
    const { model } = this;
    const declaration = model.declarationOf(id);
    if (declaration && !isAmbient(declaration)) {
      const binding = ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration) ? model.moduleBinding(id) : undefined;
      if (binding && !isRelative(binding.module)) {
        const allowed = this.options.imports[binding.module] ?? [];
        if (!allowed.includes(binding.imported)) {
          this.report(id, `\`${id.text}\` (${binding.imported === '*' ? 'the whole module' : binding.imported} from "${binding.module}") is not allowed in generated code; use only ${allowed.join(', ') || 'its types'}.`);
        }
      }
      return;
    }
    if (id.text === 'process') {
      if (!this.isProcessEnvRead(id)) this.report(id, `\`process\` gives a spec the runner's own process; generated code may only read process.env.NAME for ${this.envList()}.`);
      return;
    }
    if (Object.hasOwn(this.options.globals, id.text)) return;
    this.report(id, `\`${id.text}\` is not a global generated code may use (allowed: ${Object.keys(this.options.globals).join(', ')}); use Playwright's fixtures (page, request, …) and local values instead.`);
  }

  /** `process.env.NAME` or `const { NAME } = process.env`: the name itself is checked as a member. */
  private isProcessEnvRead(id: ts.Identifier): boolean {
    const access = id.parent;
    if (!ts.isPropertyAccessExpression(access) || access.expression !== id || access.name.text !== 'env') return false;
    const use = access.parent;
    if ((ts.isPropertyAccessExpression(use) || ts.isElementAccessExpression(use)) && use.expression === access) return true;
    return ts.isVariableDeclaration(use) && use.initializer === access && ts.isObjectBindingPattern(use.name);
  }

  protected isProcessEnv(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'env') return false;
    const root = this.model.unwrap(e.expression);
    return ts.isIdentifier(root) && root.text === 'process' && !this.model.declarationOf(root);
  }

  /** Object.keys/values/entries list a value's own members: only of plain data, never of Playwright's objects (their internals). */
  protected reflectiveCall(call: ts.CallExpression): void {
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !['keys', 'values', 'entries'].includes(callee.name.text)) return;
    const owner = this.model.unwrap(callee.expression);
    if (!ts.isIdentifier(owner) || owner.text !== 'Object' || this.model.declarationOf(owner)) return;
    const argument = call.arguments[0];
    if (argument && !isPlainData(this.model, argument) && !this.constObject(argument)) {
      this.report(call, `Object.${callee.name.text}() may list only the spec's own data; on other values it reaches their internals.`);
    }
  }

  protected isStringRaw(tag: ts.Expression): boolean {
    const e = this.model.unwrap(tag);
    return ts.isPropertyAccessExpression(e) && e.name.text === 'raw' && ts.isIdentifier(e.expression) && e.expression.text === 'String' && !this.model.declarationOf(e.expression);
  }
}

/** Whether a member is declared `static`. */
export function hasStatic(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
}

/** `declare const require: any` or a function without a body declares nothing at run time: the name is still the global. */
function isAmbient(declaration: ts.Node): boolean {
  if (ts.isFunctionDeclaration(declaration)) return declaration.body === undefined || hasDeclare(declaration);
  if (ts.isClassDeclaration(declaration)) return hasDeclare(declaration);
  if (ts.isVariableDeclaration(declaration) && ts.isVariableDeclarationList(declaration.parent) && ts.isVariableStatement(declaration.parent.parent)) return hasDeclare(declaration.parent.parent);
  return false;
}

function hasDeclare(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
}

