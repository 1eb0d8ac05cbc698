/**
 * The value analysis every rule shares. Rules ask what a value *is* (a Page, a Locator, a string, an
 * options object, Playwright's `test`) rather than what it is called, so an alias of `page`, a popup,
 * a selector held in a variable or built by a template, or `page['waitForTimeout']` are all still seen.
 *
 * It works on the compiler's syntax tree of one file (through ts-morph's `ts`), without a type checker,
 * so it stays fast enough to run on every model answer and on thousands of files.
 */
import { ts } from '../util/typescript.js';
import { MAX_DEPTH } from './depth.ts';
import { LocalFunctionModel } from './local-functions.ts';

export type { ValueKind } from './playwright-api.ts';
export { MemoKey, type Position } from './parsed-spec.ts';
export type { PropertyHit } from './values.ts';
export type { ModuleBinding } from './modules.ts';
export type { Expectation, TestBlock } from './test-api.ts';
export { isFunctionLike, scriptKindOf } from './syntax.ts';

const PROMISE_CHAIN = new Set(['then', 'catch', 'finally']);

/**
 * One spec file and every question the rules ask of it, answered once per node. Each layer it extends answers
 * one kind of question and reads only the layers below it: the parsed file and its scopes (parsed-spec.ts),
 * values (values.ts), Playwright kinds (value-kinds.ts), modules (modules.ts), `test` and `expect`
 * (test-api.ts), local functions (local-functions.ts); this one adds promises and, with a type checker,
 * declarations in other files.
 */
export class SpecModel extends LocalFunctionModel {
  static fromText(fileName: string, text: string): SpecModel {
    return new SpecModel(SpecModel.parse(fileName, text));
  }

  /**
   * Where a called name is declared in another file of the program (a helper or page-object method
   * imported from the project); nothing without a type check, or for names declared in this file.
   */
  declarationsElsewhere(call: ts.CallExpression): readonly ts.Declaration[] {
    if (!this.checkerOf || !this.mayBeDeclaredElsewhere(call)) return [];
    const checker = this.checkerOf();
    const callee = this.unwrap(call.expression);
    const at = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
    let symbol = at && checker.getSymbolAtLocation(at);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).filter((d) => d.getSourceFile() !== this.sourceFile && !d.getSourceFile().isDeclarationFile);
  }

  /**
   * Whether the checker could find the callee declared in another of the project's files. It cannot for a
   * Playwright object's method (declared in Playwright's types), a name declared here, or a global: asking
   * it only for the rest spares building a JavaScript program where the native checker type-checks.
   */
  private mayBeDeclaredElsewhere(call: ts.CallExpression): boolean {
    const callee = this.unwrap(call.expression);
    if (this.playwrightPath(callee) !== undefined || this.localFunction(call) !== undefined) return false;
    if (ts.isIdentifier(callee)) {
      const declaration = this.declarationOf(callee);
      return declaration !== undefined && this.moduleBinding(callee) !== undefined;
    }
    if (ts.isPropertyAccessExpression(callee)) return this.kindOf(callee.expression) === 'unknown';
    return false;
  }

  // --- promises ----------------------------------------------------------------------------------

  /**
   * Whether the promise an expression makes is awaited: directly, returned, passed to Promise.all and
   * friends or to expect, chained with then/catch/finally that is itself awaited, or stored in a
   * variable that is awaited later.
   */
  isAwaited(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return true;
    let node: ts.Node = expr;
    for (;;) {
      const parent: ts.Node = node.parent;
      if (
        ts.isParenthesizedExpression(parent) ||
        ts.isAsExpression(parent) ||
        ts.isNonNullExpression(parent) ||
        ts.isSatisfiesExpression(parent)
      ) {
        node = parent;
        continue;
      }
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node && PROMISE_CHAIN.has(parent.name.text) && ts.isCallExpression(parent.parent)) {
        node = parent.parent;
        continue;
      }
      if (ts.isAwaitExpression(parent) || ts.isReturnStatement(parent)) return true;
      if (ts.isArrowFunction(parent)) return parent.body === node;
      if (ts.isArrayLiteralExpression(parent)) {
        node = parent;
        continue;
      }
      if (ts.isCallExpression(parent)) {
        // Promise.all([...]) hands the promise on; any other callee (expect, a helper) takes it over.
        return this.isPromiseCombinator(parent) ? this.isAwaited(parent, depth + 1) : true;
      }
      if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
        if (!ts.isIdentifier(parent.name)) return true;
        return this.referencesTo(parent).some((ref) => this.isAwaited(ref, depth + 1));
      }
      if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return false;
      if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken) return false;
      return true;
    }
  }
}
