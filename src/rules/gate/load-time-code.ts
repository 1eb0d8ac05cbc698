/** The gate's load-time policy: what may run when the spec file is loaded (declarations and the test structure). */
import { ts } from '../../util/typescript.js';
import { isLoadTimeValue, loadTimePatternProblem } from '../utils/load-time.ts';
import { OwnObjectPolicy } from './own-objects.ts';

/** Calls that are a spec's structure and may stand at the top level or in a describe block. */
const STRUCTURE_CALLS = new Set([
  'test', 'test.only', 'test.skip', 'test.fixme', 'test.fail', 'test.slow', 'test.setTimeout', 'test.use',
  'test.beforeEach', 'test.afterEach', 'test.beforeAll', 'test.afterAll',
  'test.describe', 'test.describe.only', 'test.describe.skip', 'test.describe.fixme', 'test.describe.serial',
  'test.describe.parallel', 'test.describe.configure', 'test.describe.serial.only', 'test.describe.parallel.only',
  'expect.extend',
]);
/** Matchers of Playwright's that are not on the members list (snapshot matchers). */
const DESCRIBE_CALLS = new Set([...STRUCTURE_CALLS].filter((call) => call.startsWith('test.describe') && call !== 'test.describe.configure'));

export class LoadTimePolicy extends OwnObjectPolicy {
  /** Statements at the top level or in a describe block: declarations and the test structure only. */
  protected structure(statements: ts.NodeArray<ts.Statement>, where: string): void {
    for (const statement of statements) {
      if (ts.isImportDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
      if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEmptyStatement(statement)) continue;
      if (ts.isImportEqualsDeclaration(statement) || ts.isExportDeclaration(statement)) continue; // reported by imports()
      if (ts.isVariableStatement(statement)) {
        if ((statement.declarationList.flags & ts.NodeFlags.Using) !== 0) {
          this.report(statement, `\`using\` runs a dispose method ${where} when the file has loaded; declare data with const.`);
          continue;
        }
        for (const declaration of statement.declarationList.declarations) {
          const destructured = !ts.isIdentifier(declaration.name);
          if (declaration.initializer && !this.isLoadTimeValue(declaration.initializer, destructured)) {
            this.report(declaration.initializer, `This value is computed ${where}, when the file is loaded (even when tests are only listed); compute it inside a test or a hook, or write it as plain data.`);
            continue;
          }
          const problem = loadTimePatternProblem(this.model, declaration.name, undefined);
          if (problem) this.report(declaration.name, `This destructuring runs code ${where}, when the file is loaded: ${problem}; destructure inside a test or a hook, without defaults or computed keys.`);
        }
        continue;
      }
      if (ts.isForOfStatement(statement) && this.isLoadTimeValue(statement.expression, true)) {
        // `for (const user of USERS) test(...)`: one test per row of the spec's data.
        const declared = ts.isVariableDeclarationList(statement.initializer) ? statement.initializer.declarations[0]?.name : undefined;
        const problem = declared && loadTimePatternProblem(this.model, declared, undefined);
        if (problem) this.report(declared, `This loop's destructuring runs code ${where}, when the file is loaded: ${problem}; destructure inside the test.`);
        this.structure(ts.isBlock(statement.statement) ? statement.statement.statements : ts.factory.createNodeArray([statement.statement]), where);
        continue;
      }
      if (ts.isExpressionStatement(statement)) {
        const call = this.model.unwrap(statement.expression);
        const path = ts.isCallExpression(call) ? this.model.playwrightPath(call.expression) : undefined;
        if (path && STRUCTURE_CALLS.has(path)) {
          // A title, test.use's options or a condition is evaluated now, when the file is loaded.
          for (const argument of (call as ts.CallExpression).arguments) {
            if (!this.isLoadTimeValue(argument, true)) this.report(argument, `This argument of ${path} is evaluated ${where}, when the file is loaded; write it as literal text or data (no calls, getters or values converted with their own toString).`);
          }
          if (DESCRIBE_CALLS.has(path)) this.describeBody(call as ts.CallExpression);
          continue;
        }
      }
      this.report(statement, `Code ${where} runs when the file is loaded, outside any test; generated code may only declare data, functions and classes there and call test, test.describe, hooks and test.use.`);
    }
  }

  private describeBody(call: ts.CallExpression): void {
    const body = call.arguments.find((a): a is ts.ArrowFunction | ts.FunctionExpression => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
    if (body && ts.isBlock(body.body)) this.structure(body.body.statements, 'in a describe block');
    else if (body) this.report(body.body, 'A describe block runs when the file is loaded; give it a block of tests and hooks.');
  }

  /** Values fine to compute at load time: data, functions, classes, `test.extend(...)`, `process.env.NAME` (see utils/load-time.ts). */
  protected isLoadTimeValue(expr: ts.Expression, converted = false): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isCallExpression(e)) return isLoadTimeValue(this.model, e, converted);
    const path = this.model.playwrightPath(e.expression);
    if (path === undefined || !/^(test|expect)\.(extend|configure)$/.test(path)) return false;
    // test.extend reads every fixture of its object (a getter there would run now).
    const callee = this.model.unwrap(e.expression);
    const receiver = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? callee.expression : undefined;
    return (receiver === undefined || this.isLoadTimeValue(receiver)) && e.arguments.every((argument) => this.isLoadTimeValue(argument, true));
  }

  /** `class A extends B`: the expression is evaluated when the class is defined, so it is a name, never a call. */
  protected heritage(clause: ts.HeritageClause): void {
    for (const type of clause.types) {
      let e = this.model.unwrap(type.expression);
      while (ts.isPropertyAccessExpression(e)) e = this.model.unwrap(e.expression);
      if (!ts.isIdentifier(e) || !this.isLoadTimeValue(type.expression)) this.report(type, 'A class extends an expression evaluated when the class is defined; extend a class by its name.');
    }
  }
}
