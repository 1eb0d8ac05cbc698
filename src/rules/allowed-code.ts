/**
 * The allow-list gate for model-written code: every identifier a spec reads and every member it reaches
 * must be on a list in agents/critic.yaml (or be the spec's own code or data). Anything else — another
 * global, a computed key, `constructor`, a private Playwright member, code run at load time — is refused,
 * because JavaScript has too many ways to reach the same dangerous function for a list of bad names.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ts } from '../util/typescript.js';
import { z } from 'zod';
import { MemoKey, type SpecModel } from '../analysis/model.ts';
import { PLAYWRIGHT_BUILTIN_FIXTURES } from '../analysis/playwright-api.ts';
import { parseDirectives } from '../analysis/suppressions.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding, type RuleEnvironment } from './types.ts';
import { isValueReference } from './utils/ast.ts';
import { credentialLeaks } from './utils/credential-flow.ts';
import { isLoadTimeValue, loadTimePatternProblem } from './utils/load-time.ts';
import { extendedFixtureNames, extendedFixtureValue, isExtendArgument, isFixtureCallback, isFixtureRooted, isPlainData } from './utils/untrusted-values.ts';

const Options = ruleOptions({
  /** Packages a spec may import from, each with the names it may use as values (types are always fine). */
  imports: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Whether the project's own modules (a fixtures file, page objects) may be imported: resolved inside the project, never into node_modules. */
  relative_imports: z.boolean(),
  /** Playwright fixtures a test may ask for (`{ page, request }`); fixtures the spec or its fixtures module defines are fine too. */
  fixtures: z.array(z.string().min(1)),
  /** The environment variables a spec may read besides the declared credentials, always as `process.env.NAME`. */
  env: z.array(z.string().min(1)),
  /** Globals a spec may use, each with the members it may reach on it (`Math: [floor, random]`). */
  globals: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Member names a spec may use on Playwright's objects and on ordinary values (strings, arrays, promises, dates). */
  members: z.array(z.string().min(1)),
  /** Options `test.use({...})` may set; the browser's executable and arguments are not among them. */
  use_options: z.array(z.string().min(1)),
  /** Methods that make a browser context or page (`browser.newContext({...})`): their options come from use_options and these. */
  context_methods: z.array(z.string().min(1)),
  /** Options a new context may set besides use_options (its recordings, whose paths allowed-paths checks). */
  context_options: z.array(z.string().min(1)),
  /** Methods whose function argument runs in the browser page, not in Node (`page.evaluate(() => document.title)`). */
  page_functions: z.array(z.string().min(1)),
});
type Options = z.infer<typeof Options>;

const MAX_DEPTH = 12;
/** What a project module may be: code. Data (.json, .env), a native addon (.node) or anything else would reach the model as text or run unread. */
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** What Node would load for an import without extension when no code module matches. */
const DATA_EXTENSIONS = ['.json', '.node'];
/** What every object and function inherits: a value's own keys are fine, these reach its prototype and constructor. */
const INHERITED = new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype']);
/** Calls that are a spec's structure and may stand at the top level or in a describe block. */
const STRUCTURE_CALLS = new Set([
  'test', 'test.only', 'test.skip', 'test.fixme', 'test.fail', 'test.slow', 'test.setTimeout', 'test.use',
  'test.beforeEach', 'test.afterEach', 'test.beforeAll', 'test.afterAll',
  'test.describe', 'test.describe.only', 'test.describe.skip', 'test.describe.fixme', 'test.describe.serial',
  'test.describe.parallel', 'test.describe.configure', 'test.describe.serial.only', 'test.describe.parallel.only',
  'expect.extend',
]);
/** Matchers of Playwright's that are not on the members list (snapshot matchers). */
const BUILT_IN_MATCHERS = /^to(Match|Have)(Snapshot|Screenshot|InlineSnapshot)$|^toThrowErrorMatching/;
const DESCRIBE_CALLS = new Set([...STRUCTURE_CALLS].filter((call) => call.startsWith('test.describe') && call !== 'test.describe.configure'));

export default defineRule({
  id: 'allowed-code',
  description: 'Model-written code may use only listed imports, globals, fixtures, members and environment variables; nothing runs outside tests and hooks.',
  fixable: false,
  untrustedOnly: true,
  options: Options,
  check(model, options, env) {
    return new Gate(model, options, env).findings();
  },
});

class Gate {
  private readonly found: Finding[] = [];
  private readonly members: ReadonlySet<string>;
  /** The spec's own matchers (`expect.extend({ toHaveCartTotal })`), usable on expect(...). */
  private readonly matcherNames: ReadonlySet<string>;
  private readonly fixtures: ReadonlySet<string>;
  private readonly env: ReadonlySet<string>;

  constructor(
    private readonly model: SpecModel,
    private readonly options: Options,
    private readonly environment: RuleEnvironment,
  ) {
    this.members = new Set(options.members);
    this.matcherNames = customMatcherNames(model);
    this.fixtures = new Set([...options.fixtures, ...extendedFixtureNames(model)]);
    // The declared credential variables (critic.yaml settings.credentials) are always readable: one list, not two.
    this.env = new Set([...options.env, ...Object.values(environment.credentials ?? {})]);
  }

  findings(): Finding[] {
    // The rules judge model-written code; it does not get to switch them off.
    for (const directive of parseDirectives(this.model.sourceFile)) {
      this.found.push({ node: directive.pos, message: `A "${directive.keyword}" comment is not allowed in generated code: fix the problem instead of suppressing it.` });
    }
    this.imports();
    this.structure(this.model.sourceFile.statements, 'at the top level of the file');
    this.visit(this.model.sourceFile);
    this.testUse();
    this.credentials();
    // One finding per chain, its root: `process.getBuiltinModule('x').execSync` is one problem (`process`), not three.
    return this.found.filter((outer) => {
      const node = outer.node;
      if (typeof node === 'number' || !(ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node))) return true;
      const receiver = node.expression;
      return !this.found.some((inner) => inner !== outer && typeof inner.node !== 'number' && inner.node.pos >= receiver.pos && inner.node.end <= receiver.end);
    });
  }

  private report(node: ts.Node, message: string): void {
    this.found.push({ node, message });
  }

  // --- imports -----------------------------------------------------------------------------------

  private imports(): void {
    const { model } = this;
    for (const declaration of model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration)) {
      const specifier = declaration.moduleSpecifier;
      if (!ts.isStringLiteralLike(specifier)) continue;
      const module = specifier.text;
      if (isRelative(module)) {
        const problem = this.relativeImportProblem(module);
        if (problem) this.report(specifier, problem);
      } else if (!Object.hasOwn(this.options.imports, module)) {
        this.report(specifier, `Import of "${module}" is not allowed in generated code: import only from ${Object.keys(this.options.imports).join(', ')}${this.options.relative_imports ? " or the project's own modules" : ''}.`);
      }
    }
    for (const node of model.nodes(ts.SyntaxKind.ImportEqualsDeclaration)) this.report(node, '`import x = require(...)` loads a module at run time; generated code may only `import { test, expect } from \'@playwright/test\'`.');
    for (const node of model.nodes<ts.ExportDeclaration>(ts.SyntaxKind.ExportDeclaration)) {
      if (node.moduleSpecifier) this.report(node, 'A re-export loads another module; a generated spec exports nothing.');
    }
  }

  private relativeImportProblem(module: string): string | undefined {
    if (!this.options.relative_imports) return `Import of "${module}" is not allowed: generated code may not import the project's modules.`;
    const hidden = module.split(/[\\/]/).find((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..');
    if (hidden) return `Import of "${module}" reaches the hidden file or folder "${hidden}", where settings and secrets live (.env, .auth); import only the project's own code modules (.ts, .js).`;
    const extension = path.extname(module);
    const absolute = path.resolve(path.dirname(this.model.fileName), module);
    // `./login.page` may name login.page.ts: an extension that is not code is fine only when a code module is what resolves.
    if (extension !== '' && !MODULE_EXTENSIONS.includes(extension) && !findsCode(absolute)) return `Import of "${module}" loads a ${extension} file, which is data or a native addon, not code; import only the project's code modules (${MODULE_EXTENSIONS.join(', ')}) and write test data in the spec as constants.`;
    if (module.split(/[\\/]/).includes('node_modules')) return `Import of "${module}" reaches into node_modules by a relative path; a package may only be imported by name, and only ${Object.keys(this.options.imports).join(', ')}.`;
    const root = this.environment.projectRoot;
    if (root === undefined) return undefined;
    const target = path.relative(root, absolute);
    if (target.startsWith('..') || path.isAbsolute(target)) return `Import of "${module}" leaves the project (${root}); import only the project's own modules.`;
    if (target.split(path.sep).includes('node_modules')) return `Import of "${module}" resolves into node_modules; a package may only be imported by name.`;
    if (extension === '' && !resolvesToCode(absolute)) return `Import of "${module}" does not resolve to a code module (${MODULE_EXTENSIONS.join(', ')}, or a folder with an index): Node would load a data file or a file without extension; import a .ts or .js module by its path.`;
    return undefined;
  }

  // --- what runs when the file is loaded ------------------------------------------------------------

  /** Statements at the top level or in a describe block: declarations and the test structure only. */
  private structure(statements: ts.NodeArray<ts.Statement>, where: string): void {
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
  private isLoadTimeValue(expr: ts.Expression, converted = false): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isCallExpression(e)) return isLoadTimeValue(this.model, e, converted);
    const path = this.model.playwrightPath(e.expression);
    if (path === undefined || !/^(test|expect)\.(extend|configure)$/.test(path)) return false;
    // test.extend reads every fixture of its object (a getter there would run now).
    const callee = this.model.unwrap(e.expression);
    const receiver = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? callee.expression : undefined;
    return (receiver === undefined || this.isLoadTimeValue(receiver)) && e.arguments.every((argument) => this.isLoadTimeValue(argument, true));
  }

  // --- every identifier and member -----------------------------------------------------------------

  private visit(node: ts.Node): void {
    if (isTypeOnly(node)) return;
    if (ts.isWithStatement(node)) this.report(node, '`with` changes what names mean at run time, so the code cannot be checked; write the names out.');
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) this.report(node, '`import.meta` exposes where the file lives on the host; generated code does not need it.');
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) this.report(node, '`import()` loads a module at run time; generated code may only import @playwright/test (statically, at the top).');
    else if (node.kind === ts.SyntaxKind.ThisKeyword && !inClassMember(node)) this.report(node, '`this` outside a class method is not the spec\'s own object; use the fixtures and local variables instead.');
    else if (ts.isIdentifier(node) && (node.text === 'expect' || node.text === 'test') && isDeclarationName(node)) this.playwrightName(node);
    else if (ts.isIdentifier(node)) this.identifier(node);
    else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) this.member(node);
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) this.binding(node);
    else if (ts.isPropertyAssignment(node) && this.model.propertyName(node) === '__proto__' && !ts.isComputedPropertyName(node.name)) {
      this.report(node, 'A `__proto__` key sets an object\'s prototype; write a plain object.');
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isObjectLiteralExpression(node.left)) this.assignmentPattern(node.left, node.right);
    else if (ts.isForOfStatement(node) && ts.isObjectLiteralExpression(node.initializer)) this.assignmentPattern(node.initializer, undefined);
    else if (ts.isDecorator(node) || ts.isClassStaticBlockDeclaration(node)) this.report(node, 'Decorators and static blocks run when the file is loaded, outside any test; write plain classes.');
    else if (ts.isPropertyDeclaration(node) && node.initializer && hasStatic(node) && !this.isLoadTimeValue(node.initializer)) {
      this.report(node.initializer, 'A static property is computed when the file is loaded, outside any test; compute it inside a test or write plain data.');
    } else if (ts.isComputedPropertyName(node) && ts.isClassLike(node.parent.parent) && !isLiteralKey(this.model.unwrap(node.expression))) {
      this.report(node, 'A computed class member name is evaluated when the class is defined, at load time; name the member literally.');
    } else if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent)) this.heritage(node);
    else if (ts.isTaggedTemplateExpression(node) && !this.isStringRaw(node.tag)) {
      this.report(node, `A tagged template calls \`${shorten(this.model.text(node.tag))}\` with its text in pieces, which the checks of calls do not see; call it with parentheses instead.`);
    } else if (ts.isCallExpression(node)) this.call(node);
    if (ts.isCallExpression(node) && this.isPageFunctionCall(node)) {
      // The function is serialised and runs in the browser page, where Node's globals do not exist; the other arguments run here.
      ts.forEachChild(node, (child) => {
        if (!(node.arguments.includes(child as ts.Expression) && (ts.isArrowFunction(child) || ts.isFunctionExpression(child)))) this.visit(child);
      });
      return;
    }
    ts.forEachChild(node, (child) => this.visit(child));
  }

  /** `({ constructor: make } = fn)` reads its keys from the value assigned, like destructuring. */
  private assignmentPattern(pattern: ts.ObjectLiteralExpression, source: ts.Expression | undefined): void {
    for (const property of pattern.properties) {
      if (ts.isSpreadAssignment(property)) continue;
      const name = this.model.propertyName(property);
      if (name === undefined) {
        this.report(property, 'A destructured key computed at run time cannot be checked; name the key literally.');
        continue;
      }
      const problem = source ? this.memberProblem(this.model.unwrap(source), name) : this.members.has(name) ? undefined : `Destructuring \`${name}\` from a value the analysis cannot follow is not allowed.`;
      if (problem) this.report(property, problem);
    }
  }

  private call(call: ts.CallExpression): void {
    this.reflectiveCall(call);
    const path = this.model.playwrightPath(call.expression);
    if (path === 'expect.extend') this.matchers(call);
    const callee = this.model.unwrap(call.expression);
    const name = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? this.model.memberName(callee) : undefined;
    if (name !== undefined && this.options.context_methods.includes(name) && call.arguments[0]) this.contextOptions(call.arguments[0], name);
  }

  /**
   * `expect` and `test` are Playwright's (or the project's fixtures module's, or an extend of them): a local
   * `const expect = (x) => ({ toBeVisible: async () => {} })` would make every assertion check nothing.
   */
  private playwrightName(name: ts.Identifier): void {
    const declaration = name.parent;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer && this.model.playwrightPath(declaration.initializer) === name.text) return;
    this.report(name, `A spec may not declare its own \`${name.text}\`: it must be Playwright's (import { ${name.text} } from '@playwright/test', or ${name.text === 'expect' ? 'base.extend({ matchers })' : 'base.extend({ fixtures })'}), or every check written with it could be a stand-in that verifies nothing.`);
  }

  /** `class A extends B`: the expression is evaluated when the class is defined, so it is a name, never a call. */
  private heritage(clause: ts.HeritageClause): void {
    for (const type of clause.types) {
      let e = this.model.unwrap(type.expression);
      while (ts.isPropertyAccessExpression(e)) e = this.model.unwrap(e.expression);
      if (!ts.isIdentifier(e) || !this.isLoadTimeValue(type.expression)) this.report(type, 'A class extends an expression evaluated when the class is defined; extend a class by its name.');
    }
  }

  private isStringRaw(tag: ts.Expression): boolean {
    const e = this.model.unwrap(tag);
    return ts.isPropertyAccessExpression(e) && e.name.text === 'raw' && ts.isIdentifier(e.expression) && e.expression.text === 'String' && !this.model.declarationOf(e.expression);
  }

  /**
   * `expect.extend({...})` (or an alias's): matchers of the spec's own names, whose `pass` depends on what
   * they receive. Redefining toBeVisible, or a matcher that always passes, makes a spec verify nothing.
   */
  private matchers(call: ts.CallExpression): void {
    const object = call.arguments[0] && this.model.objectLiteral(call.arguments[0]);
    if (!object) {
      this.report(call.arguments[0] ?? call, 'expect.extend needs its matchers written as an object literal, so they can be checked.');
      return;
    }
    for (const property of object.properties) {
      const name = this.model.propertyName(property);
      if (name === undefined || this.members.has(name) || INHERITED.has(name) || BUILT_IN_MATCHERS.test(name)) {
        this.report(property, `expect.extend may not redefine \`${name ?? this.model.text(property)}\`: Playwright's matchers (toBeVisible, toHaveText, …) must stay Playwright's; give a matcher of your own a name of your own (toHaveCartTotal).`);
        continue;
      }
      const fn = ts.isMethodDeclaration(property) ? property : ts.isPropertyAssignment(property) ? this.model.unwrap(property.initializer) : undefined;
      if (!fn || !(ts.isMethodDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !matcherPassDependsOnInput(this.model, fn)) {
        this.report(property, `The matcher \`${name}\` must return { pass, message } with \`pass\` computed from what it receives; a matcher that always passes verifies nothing.`);
      }
    }
  }

  /** browser.newContext({...}) and newPage({...}): the options of a context, from the same list as test.use. */
  private contextOptions(argument: ts.Expression, method: string): void {
    const object = this.model.objectLiteral(argument);
    if (!object) return; // allowed-paths wants it written out
    for (const property of object.properties) {
      const name = ts.isSpreadAssignment(property) ? undefined : this.model.propertyName(property);
      if (name !== undefined && (this.options.use_options.includes(name) || this.options.context_options.includes(name))) continue;
      if (ts.isSpreadAssignment(property) && isPlainData(this.model, property.expression)) continue;
      this.report(property, `${method}() option \`${name ?? this.model.text(property)}\` is not allowed in generated code: a context may set only ${[...this.options.use_options, ...this.options.context_options].join(', ')}.`);
    }
  }

  /** Object.keys/values/entries list a value's own members: only of plain data, never of Playwright's objects (their internals). */
  private reflectiveCall(call: ts.CallExpression): void {
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !['keys', 'values', 'entries'].includes(callee.name.text)) return;
    const owner = this.model.unwrap(callee.expression);
    if (!ts.isIdentifier(owner) || owner.text !== 'Object' || this.model.declarationOf(owner)) return;
    const argument = call.arguments[0];
    if (argument && !isPlainData(this.model, argument) && !this.constObject(argument)) {
      this.report(call, `Object.${callee.name.text}() may list only the spec's own data; on other values it reaches their internals.`);
    }
  }

  private isPageFunctionCall(call: ts.CallExpression): boolean {
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !this.options.page_functions.includes(callee.name.text)) return false;
    return isFixtureRooted(this.model, callee.expression);
  }

  private identifier(id: ts.Identifier): void {
    if (!isValueReference(id) || isDeclarationName(id)) return;
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

  private member(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): void {
    const { model } = this;
    if (ts.isPropertyAccessExpression(access) && ts.isPrivateIdentifier(access.name)) return;
    const name = model.memberName(access);
    const receiver = model.unwrap(access.expression);
    if (name === undefined) {
      if (ts.isElementAccessExpression(access) && this.isIndex(access.argumentExpression)) return;
      this.report(access, `\`${shorten(model.text(access))}\` reads a member whose name is computed at run time, which cannot be checked; use a literal property name (obj.name) or a numeric index into data.`);
      return;
    }
    if (ts.isElementAccessExpression(access) && /^\d+$/.test(name)) return;
    if (isAssignmentTarget(access) && !this.mayAssign(receiver, name)) {
      this.report(access, `Generated code may not change \`${shorten(model.text(access))}\`: only its own objects (this.x in its classes, its object literals) may be written.`);
      return;
    }
    const problem = this.memberProblem(receiver, name);
    if (problem) this.report(access, problem);
    else if (this.isDetachedMethod(access, receiver, name)) {
      this.report(access, `\`${shorten(model.text(access))}\` hands on a method without its object, so \`this\` in it could become any value (a Playwright object, for one); pass an arrow function instead: () => ${shorten(model.text(access))}().`);
    }
  }

  /** A method of the spec's own class read without calling it (`page.on('load', helper.run)`). */
  private isDetachedMethod(access: ts.PropertyAccessExpression | ts.ElementAccessExpression, receiver: ts.Expression, name: string): boolean {
    let node: ts.Node = access;
    while (ts.isParenthesizedExpression(node.parent) || ts.isNonNullExpression(node.parent) || ts.isAsExpression(node.parent)) node = node.parent;
    if ((ts.isCallExpression(node.parent) || ts.isTaggedTemplateExpression(node.parent)) && (node.parent as ts.CallExpression).expression === node) return false;
    const cls = this.localClass(receiver);
    return cls !== undefined && classMethodUsesThis(cls, name);
  }

  private isIndex(argument: ts.Expression): boolean {
    const e = this.model.unwrap(argument);
    return ts.isNumericLiteral(e) || (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand));
  }

  /** Why `receiver.name` may not be read, or undefined when it may. */
  private memberProblem(receiver: ts.Expression, name: string): string | undefined {
    const { model } = this;
    if (name.startsWith('_')) return `\`.${name}\`: names starting with _ are private internals (Playwright's reach its connection and the host); generated code may not use them.`;
    if (ts.isIdentifier(receiver) && !model.declarationOf(receiver)) {
      if (receiver.text === 'process') return name === 'env' ? undefined : `process.${name} is not available to generated code; only process.env.NAME for ${this.envList()}.`;
      const allowed = this.options.globals[receiver.text];
      if (allowed) return allowed.includes(name) ? undefined : `${receiver.text}.${name} is not allowed in generated code (${receiver.text}: ${allowed.join(', ') || 'no members'}).`;
      return undefined; // the global itself is reported
    }
    if (this.isProcessEnv(receiver)) {
      return this.env.has(name) ? undefined : `process.env.${name} is not a variable generated code may read (allowed: ${this.envList()}); secrets and the runner's settings stay out of specs.`;
    }
    if (this.ownMember(receiver, name)) return undefined;
    if (this.members.has(name)) return undefined;
    if (!INHERITED.has(name) && this.projectObject(receiver)) return undefined;
    if (!INHERITED.has(name) && (isPlainData(model, receiver) || this.matcherNames.has(name))) return undefined;
    if (INHERITED.has(name)) return `\`.${name}\` reaches an object's prototype or constructor (and from there Function); generated code may not use it.`;
    return `\`.${name}\` is not a member generated code may use here: it is neither Playwright's API on the allow-list, a method of strings, arrays, numbers or promises, nor a member of the spec's own objects or data.`;
  }

  private isProcessEnv(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'env') return false;
    const root = this.model.unwrap(e.expression);
    return ts.isIdentifier(root) && root.text === 'process' && !this.model.declarationOf(root);
  }

  /**
   * An object of the project's own test code (the user's, not the model's): a binding imported from one of its
   * modules, a constant instance of a class imported so, or a fixture of its fixtures module as a test or hook
   * of that module's `test` receives it. Its members are the project's API; what they return is checked again.
   */
  private projectObject(receiver: ts.Expression, depth = 0): boolean {
    if (!this.options.relative_imports || depth > MAX_DEPTH) return false;
    let e = this.model.unwrap(receiver);
    if (ts.isAwaitExpression(e)) e = this.model.unwrap(e.expression);
    if (ts.isNewExpression(e)) return this.projectObject(e.expression, depth + 1);
    if (!ts.isIdentifier(e)) return false;
    const module = this.model.moduleBinding(e)?.module;
    if (module !== undefined) return isRelative(module);
    const declaration = this.model.declarationOf(e);
    if (declaration && ts.isBindingElement(declaration)) return this.projectFixture(declaration);
    const value = declaration && constValue(declaration);
    return value !== undefined && this.projectObject(value, depth + 1);
  }

  /** `{ searchPage }` in `test('…', async ({ searchPage }) => …)` (or a hook), `test` imported from the project's module, the fixture not Playwright's. */
  private projectFixture(binding: ts.BindingElement): boolean {
    const name = binding.propertyName ?? binding.name;
    if (!ts.isIdentifier(name) || this.options.fixtures.includes(name.text) || PLAYWRIGHT_BUILTIN_FIXTURES.has(name.text) || name.text.startsWith('_')) return false;
    const parameter = binding.parent.parent;
    if (!ts.isParameter(parameter) || !ts.isFunctionLike(parameter.parent) || parameter.parent.parameters[0] !== parameter) return false;
    const call = parameter.parent.parent;
    if (!ts.isCallExpression(call) || !call.arguments.some((argument) => argument === parameter.parent)) return false;
    let callee = this.model.unwrap(call.expression);
    // test(…) and its hooks and modifiers pass fixtures; test.step passes its step, whatever is destructured.
    if (ts.isPropertyAccessExpression(callee) && FIXTURE_CALLS.has(callee.name.text)) callee = this.model.unwrap(callee.expression);
    const imported = ts.isIdentifier(callee) ? this.model.moduleBinding(callee) : undefined;
    return imported !== undefined && imported.imported === 'test' && isRelative(imported.module);
  }

  /** A member the spec declares itself: of `this` in its class, a constant instance of its class, or its constant object literal. */
  private ownMember(receiver: ts.Expression, name: string): boolean {
    if (name === '__proto__') return false;
    const cls = this.localClass(receiver);
    if (cls) return classDeclares(cls, name, this.model);
    const object = this.constObject(receiver);
    return object !== undefined && object.properties.some((p) => !ts.isSpreadAssignment(p) && this.model.propertyName(p) === name);
  }

  /** The class of `this`, of `new C()`, or of a constant holding one; a variable that may be reassigned could hold anything. */
  private localClass(receiver: ts.Expression, depth = 0): ts.ClassLikeDeclaration | undefined {
    if (depth > MAX_DEPTH) return undefined;
    let e = this.model.unwrap(receiver);
    if (ts.isAwaitExpression(e)) e = this.model.unwrap(e.expression);
    if (e.kind === ts.SyntaxKind.ThisKeyword) return enclosingClass(e);
    if (ts.isNewExpression(e)) return this.localClass(e.expression, depth + 1);
    if (ts.isClassExpression(e)) return e;
    if (!ts.isIdentifier(e)) return undefined;
    const declaration = this.model.declarationOf(e);
    if (declaration && ts.isClassDeclaration(declaration)) return declaration;
    if (declaration && ts.isBindingElement(declaration)) {
      const given = extendedFixtureValue(this.model, declaration);
      return given ? this.localClass(given, depth + 1) : undefined;
    }
    const value = declaration && constValue(declaration);
    return value ? this.localClass(value, depth + 1) : undefined;
  }

  /** The object literal a constant (or a property of a constant object) holds. */
  private constObject(receiver: ts.Expression, depth = 0): ts.ObjectLiteralExpression | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.model.unwrap(receiver);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (ts.isIdentifier(e)) {
      const declaration = this.model.declarationOf(e);
      const value = declaration && constValue(declaration);
      return value ? this.constObject(value, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.model.memberName(e);
      const owner = this.constObject(e.expression, depth + 1);
      const property = owner?.properties.find((p) => this.model.propertyName(p) === name);
      return property && ts.isPropertyAssignment(property) ? this.constObject(property.initializer, depth + 1) : undefined;
    }
    return undefined;
  }

  /** Writing `x.name = …` is fine on the spec's own objects only, never on Playwright's or a global. */
  private mayAssign(receiver: ts.Expression, name: string): boolean {
    if (name === '__proto__' || INHERITED.has(name)) return false;
    if (receiver.kind === ts.SyntaxKind.ThisKeyword) return enclosingClass(receiver) !== undefined;
    return this.constObject(receiver) !== undefined;
  }

  /** `const { a, b: c } = source`: each key read is a member read of the source. */
  private binding(element: ts.BindingElement): void {
    const { model } = this;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) || ts.isNumericLiteral(key) ? key.text : ts.isComputedPropertyName(key) ? model.stringValue(key.expression) : undefined;
    if (name === undefined) {
      this.report(element, 'A destructured key computed at run time cannot be checked; name the key literally.');
      return;
    }
    const pattern = element.parent as ts.ObjectBindingPattern;
    const owner = pattern.parent;
    if (ts.isParameter(owner) && isFixtureCallback(model, owner.parent) && owner.parent.parameters[0] === owner) {
      if (!this.fixtureAllowed(name)) this.report(element, `The fixture \`${name}\` is not one generated code may use (allowed: ${[...this.fixtures].join(', ')}).`);
      return;
    }
    const source = ts.isVariableDeclaration(owner) ? owner.initializer : undefined;
    if (source) {
      const problem = this.memberProblem(model.unwrap(source), name);
      if (problem) this.report(element, problem);
      return;
    }
    if (ts.isVariableDeclaration(owner) && ts.isForOfStatement(owner.parent.parent) && isPlainData(model, owner.parent.parent.expression) && !INHERITED.has(name)) return;
    if (!this.members.has(name)) this.report(element, `Destructuring \`${name}\` from a value the analysis cannot follow is not allowed; take the value as a plain parameter or read a listed member.`);
  }

  /** A fixture on the list, one the spec defines with test.extend, or one of the project's fixtures module (not a Playwright built-in). */
  private fixtureAllowed(name: string): boolean {
    if (this.fixtures.has(name)) return true;
    if (PLAYWRIGHT_BUILTIN_FIXTURES.has(name) || name.startsWith('_')) return false;
    return this.model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration).some(
      (d) => ts.isStringLiteralLike(d.moduleSpecifier) && isRelative(d.moduleSpecifier.text) && importsTest(d),
    );
  }

  // --- credentials ---------------------------------------------------------------------------------

  private credentials(): void {
    const credentials = this.environment.credentials ?? {};
    const leaks = credentialLeaks({
      model: this.model,
      credentials,
      calledFunction: (call) => this.calledFunction(call),
      isOwnMember: (receiver, name) => this.ownMember(receiver, name),
    });
    for (const leak of leaks) {
      this.report(leak.node, `The credential ${leak.variable} may go only into a locator's fill(), type() or pressSequentially(), or httpCredentials (an identity such as the username also into an assertion's expected value); here ${leak.reason}, so its value could reach a model or another host. Pass process.env.${leak.variable} straight to locator.fill(), or to a helper or page object that does.`);
    }
  }

  /** The function of this file a call runs: a helper, a method of the spec's class (also through its own fixtures). */
  private calledFunction(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
    const local = this.model.localFunction(call);
    if (local) return local;
    const callee = this.model.unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return undefined;
    const name = this.model.memberName(callee);
    for (let cls = this.localClass(callee.expression), depth = 0; cls && name !== undefined && depth < 8; depth++) {
      const method = cls.members.find((m) => (ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) && m.name && this.model.text(m.name) === name);
      if (method && ts.isMethodDeclaration(method)) return method;
      if (method && ts.isPropertyDeclaration(method) && method.initializer) {
        const value = this.model.unwrap(method.initializer);
        return ts.isArrowFunction(value) || ts.isFunctionExpression(value) ? value : undefined;
      }
      const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
      cls = base ? this.localClass(base) : undefined;
    }
    return undefined;
  }

  // --- test.use ------------------------------------------------------------------------------------

  private testUse(): void {
    const { model } = this;
    for (const object of model.nodes<ts.ObjectLiteralExpression>(ts.SyntaxKind.ObjectLiteralExpression)) {
      if (!isExtendArgument(model, object)) continue;
      for (const property of object.properties) {
        const name = model.propertyName(property);
        if (name === undefined || PLAYWRIGHT_BUILTIN_FIXTURES.has(name) || name.startsWith('_')) {
          this.report(property, `test.extend may not override \`${name ?? model.text(property)}\`: Playwright's own fixtures and options (page, browser, launchOptions, …) must stay Playwright's; define fixtures of your own names.`);
        }
      }
    }
    for (const call of model.calls) {
      if (model.playwrightPath(call.expression) !== 'test.use') continue;
      const argument = call.arguments[0];
      const object = argument ? model.objectLiteral(argument) : undefined;
      if (!object) {
        this.report(argument ?? call, 'test.use needs its options written as an object literal, so they can be checked.');
        continue;
      }
      this.useOptions(object);
    }
  }

  private useOptions(object: ts.ObjectLiteralExpression): void {
    const { model } = this;
    for (const property of object.properties) {
      if (ts.isSpreadAssignment(property)) {
        const inner = model.objectLiteral(property.expression);
        if (inner) this.useOptions(inner);
        else if (!isPlainData(model, property.expression)) this.report(property, 'A spread in test.use must be of data (such as devices[\'iPhone 13\']) or an object literal.');
        continue;
      }
      const name = model.propertyName(property);
      if (name === undefined || !this.options.use_options.includes(name)) {
        this.report(property, `test.use option \`${name ?? model.text(property)}\` is not allowed in generated code: it may set only ${this.options.use_options.join(', ')} (never the browser's executable, arguments or launch/connect options).`);
      }
    }
  }

  private envList(): string {
    return [...this.env].join(', ');
  }
}

function constValue(declaration: ts.Node): ts.Expression | undefined {
  if (!ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || !declaration.initializer) return undefined;
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0 ? declaration.initializer : undefined;
}

/** `declare const require: any` or a function without a body declares nothing at run time: the name is still the global. */
function hasStatic(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
}

function isAmbient(declaration: ts.Node): boolean {
  if (ts.isFunctionDeclaration(declaration)) return declaration.body === undefined || hasDeclare(declaration);
  if (ts.isClassDeclaration(declaration)) return hasDeclare(declaration);
  if (ts.isVariableDeclaration(declaration) && ts.isVariableDeclarationList(declaration.parent) && ts.isVariableStatement(declaration.parent.parent)) return hasDeclare(declaration.parent.parent);
  return false;
}

function hasDeclare(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
}

/** The members of `test` whose callback receives the fixtures. */
const FIXTURE_CALLS = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'only', 'fixme', 'fail', 'slow']);

function isRelative(module: string): boolean {
  return module === '.' || module === '..' || module.startsWith('./') || module.startsWith('../');
}

function importsTest(declaration: ts.ImportDeclaration): boolean {
  const bindings = declaration.importClause?.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.some((e) => (e.propertyName ?? e.name).text === 'test');
}

/** Types, interfaces and `implements` clauses run nothing. */
function isTypeOnly(node: ts.Node): boolean {
  if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return true;
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return true;
  return ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword;
}

/** Names that declare rather than read: functions, classes, parameters, variables, labels, enum members. */
function isDeclarationName(id: ts.Identifier): boolean {
  const parent = id.parent;
  if ((ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassDeclaration(parent) || ts.isClassExpression(parent) || ts.isEnumDeclaration(parent) || ts.isEnumMember(parent)) && parent.name === id) return true;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent)) && parent.name === id) return true;
  if (ts.isBindingElement(parent) && parent.name === id) return true;
  return ts.isTypeParameterDeclaration(parent);
}

function inClassMember(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isSourceFile(n)) return false;
    if (ts.isClassLike(n.parent) && (ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isAccessor(n) || ts.isPropertyDeclaration(n) || ts.isClassStaticBlockDeclaration(n))) return true;
  }
  return false;
}

function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

/** Members a class of the spec declares (also `this.x = …` in its methods and parameter properties), or one it extends. */
/** Per class, the member names asked about so far and whether it declares each. */
const CLASS_DECLARES = new MemoKey<Map<string, boolean>>('the members a class declares');

function classDeclares(cls: ts.ClassLikeDeclaration, name: string, model: SpecModel, depth = 0): boolean {
  if (depth > 8) return false;
  const answers = model.memo(CLASS_DECLARES, cls, () => new Map<string, boolean>());
  if (!answers.has(name)) answers.set(name, computeClassDeclares(cls, name, model, depth));
  return answers.get(name)!;
}

function computeClassDeclares(cls: ts.ClassLikeDeclaration, name: string, model: SpecModel, depth: number): boolean {
  for (const member of cls.members) {
    const memberName = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteralLike(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;
    if (memberName === name) return true;
    if (ts.isConstructorDeclaration(member) && member.parameters.some((p) => ts.getModifiers(p)?.length && ts.isIdentifier(p.name) && p.name.text === name)) return true;
  }
  const assigned = model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression).some(
    (a) => a.name.text === name && a.expression.kind === ts.SyntaxKind.ThisKeyword && enclosingClass(a) === cls && isAssignmentTarget(a),
  );
  if (assigned) return true;
  const base = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  if (!base || !ts.isIdentifier(base)) return false;
  const declaration = model.declarationOf(base);
  return declaration !== undefined && ts.isClassDeclaration(declaration) && classDeclares(declaration, name, model, depth + 1);
}

/** Whether a class (or one it extends) has a method or accessor of this name whose body mentions `this`. */
function classMethodUsesThis(cls: ts.ClassLikeDeclaration, name: string): boolean {
  const usesThis = (node: ts.Node): boolean => node.kind === ts.SyntaxKind.ThisKeyword || (!ts.isFunctionDeclaration(node) && !ts.isFunctionExpression(node) && !ts.isClassLike(node) && ts.forEachChild(node, usesThis) === true);
  return cls.members.some((member) => {
    const memberName = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteralLike(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;
    return memberName === name && (ts.isMethodDeclaration(member) || ts.isAccessor(member)) && member.body !== undefined && ts.forEachChild(member.body, usesThis) === true;
  });
}

/** Whether an expression is written to: `x.a = 1`, `x.a += 1`, `x.a++`, `delete x.a`, `[x.a] = list`, `for (x.a of …)`. */
function isAssignmentTarget(node: ts.Expression): boolean {
  let child: ts.Node = node;
  for (let parent = node.parent; ; child = parent, parent = parent.parent) {
    if (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent)) continue;
    if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) continue;
    if (ts.isPropertyAssignment(parent) && parent.initializer === child) continue;
    if (ts.isObjectLiteralExpression(parent)) continue;
    if (ts.isBinaryExpression(parent)) return parent.left === child && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
    if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
    if (ts.isDeleteExpression(parent)) return true;
    if (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) return parent.initializer === child;
    return false;
  }
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/**
 * Whether an import without extension finds a code module before anything else Node would load: a file
 * of that exact name (read as JavaScript whatever it holds), or a .json or .node beside it. A path where
 * nothing exists loads nothing (the type check reports it).
 */
function resolvesToCode(absolute: string): boolean {
  if (isFile(absolute)) return false;
  if (findsCode(absolute)) return true;
  return !existsSync(absolute) && !DATA_EXTENSIONS.some((extension) => isFile(absolute + extension));
}

/** Whether the path, as an import without extension, finds a code module: `<path>.ts` …, or a folder's index. */
function findsCode(absolute: string): boolean {
  if (isFile(absolute)) return false;
  if (MODULE_EXTENSIONS.some((extension) => isFile(absolute + extension))) return true;
  return existsSync(absolute) && statSync(absolute).isDirectory() && MODULE_EXTENSIONS.some((extension) => isFile(path.join(absolute, `index${extension}`)));
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

function isLiteralKey(e: ts.Expression): boolean {
  return ts.isStringLiteralLike(e) || ts.isNumericLiteral(e);
}

/**
 * Whether every `pass` a matcher returns is computed from its input: it mentions a parameter of the
 * matcher, a local computed from one, or awaits something (a locator's state). `pass: true` does not.
 */
function matcherPassDependsOnInput(model: SpecModel, fn: ts.FunctionLikeDeclaration): boolean {
  const passes: ts.Expression[] = [];
  const returned = (value: ts.Expression) => {
    const object = model.objectLiteral(value);
    const pass = object?.properties.find((p) => model.propertyName(p) === 'pass');
    passes.push(pass && ts.isPropertyAssignment(pass) ? pass.initializer : pass && ts.isShorthandPropertyAssignment(pass) ? pass.name : value);
  };
  const body = fn.body;
  if (!body) return false;
  if (!ts.isBlock(body)) returned(body);
  const walk = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) returned(node.expression);
    ts.forEachChild(node, walk);
  };
  if (ts.isBlock(body)) ts.forEachChild(body, walk);
  return passes.length > 0 && passes.every((pass) => dependsOnInput(model, pass, fn, 0));
}

function dependsOnInput(model: SpecModel, expr: ts.Node, fn: ts.FunctionLikeDeclaration, depth: number): boolean {
  if (depth > 12) return false;
  if (ts.isAwaitExpression(expr)) return true;
  if (ts.isIdentifier(expr) && isValueReference(expr)) {
    const declaration = model.declarationOf(expr);
    if (!declaration || !isInside(declaration, fn)) return false;
    if (ts.isParameter(declaration) || (ts.isBindingElement(declaration) && ts.isParameter(rootOfBinding(declaration)))) return true;
    const initializer = ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    return initializer !== undefined && dependsOnInput(model, initializer, fn, depth + 1);
  }
  return ts.forEachChild(expr, (child) => (dependsOnInput(model, child, fn, depth + 1) ? true : undefined)) === true;
}

function rootOfBinding(node: ts.Node): ts.Node {
  let root = node;
  while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
  return root;
}

function isInside(node: ts.Node, container: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) if (n === container) return true;
  return false;
}

/** The keys of every `expect.extend({...})` object of the file. */
function customMatcherNames(model: SpecModel): Set<string> {
  const names = new Set<string>();
  for (const call of model.calls) {
    if (model.playwrightPath(call.expression) !== 'expect.extend') continue;
    const object = call.arguments[0] && model.objectLiteral(call.arguments[0]);
    for (const property of object?.properties ?? []) {
      const name = model.propertyName(property);
      if (name !== undefined && !name.startsWith('_')) names.add(name);
    }
  }
  return names;
}
