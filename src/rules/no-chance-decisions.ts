/**
 * Values of chance (Math.random(), crypto.randomUUID(), the clock) in model-written code only as text the test
 * types and then looks for: a unique name filled in and asserted on is as sure in every run as the page it
 * comes back from. Compared, computed with, branched on, asserted directly or handed to the page's code, such
 * a value makes an outcome chance: a spec could pass its green run and fail its proof copy by luck, and the
 * proof, which runs the copy once, would take that failure for the assertions' dependence on the actions.
 */
import { z } from 'zod';
import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { TRANSPARENT_KINDS } from '../analysis/syntax.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { isValueReference, mayBePlaywrightObject } from './utils/ast.ts';
import { shorten } from './gate/policy.ts';

const Source = z.string().regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/, 'Global or Global.member');

const Options = ruleOptions({
  /** What gives a number or date of chance: `Global.member` called, or `Global` called or constructed without arguments (`new Date()`). */
  sources: z.array(Source),
  /** What gives text of chance (`crypto.randomUUID()`). */
  text_sources: z.array(Source),
  /** Methods that turn such a value into its whole text (`new Date().toISOString()`). */
  text_methods: z.array(z.string().min(1)),
  /** Global functions that do (`String(Date.now())`, `encodeURIComponent(name)`). */
  text_functions: z.array(z.string().min(1)),
  /** Playwright methods and matchers it may go into as text: typed, looked for, sent to the app, expected back. */
  text_arguments: z.array(z.string().min(1)),
});
type Options = z.infer<typeof Options>;

/** What a page function reaches the browser's globals through. */
const BROWSER_GLOBAL_OBJECTS = new Set(['window', 'globalThis', 'self']);

const ADVICE = 'use it only as text the test types and then looks for: const name = `Item ${Date.now()}`; await field.fill(name); await expect(page.getByText(name)).toBeVisible()';

export default defineRule({
  id: 'no-chance-decisions',
  description: 'Model-written code may use Math.random(), crypto.randomUUID() and the clock only as text it types and looks for, never to decide an outcome.',
  fixable: false,
  untrustedOnly: true,
  options: Options,
  check(model, options) {
    return new ChanceFlow(model, options).findings();
  },
});

class ChanceFlow {
  private readonly found: Finding[] = [];
  private readonly seen = new Set<ts.Node>();
  private readonly globals: ReadonlySet<string>;
  private readonly all: readonly string[];

  constructor(
    private readonly model: SpecModel,
    private readonly options: Options,
  ) {
    this.all = [...options.sources, ...options.text_sources];
    this.globals = new Set(this.all.map((source) => source.split('.')[0]!));
  }

  findings(): Finding[] {
    for (const id of this.model.nodes<ts.Identifier>(ts.SyntaxKind.Identifier)) {
      if (this.globals.has(id.text) && isValueReference(id) && !this.model.declarationOf(id)) this.globalRead(id, id.text);
    }
    // In a page function (the browser's code): `window.Math`, `globalThis.crypto`, `self.Date`.
    for (const access of this.model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression)) {
      const root = access.expression;
      if (this.globals.has(access.name.text) && ts.isIdentifier(root) && BROWSER_GLOBAL_OBJECTS.has(root.text) && !this.model.declarationOf(root)) this.globalRead(access, access.name.text);
    }
    for (const call of this.model.calls) {
      if (this.model.playwrightPath(call.expression) === 'expect.poll' && call.arguments[0]) this.pollCounts(call.arguments[0]);
    }
    return this.found;
  }

  /**
   * `expect.poll(() => ++tries).toBe(25)`: how often a poll calls its function is the clock's to decide (until
   * the assertion limit, which is shorter in the proof's copy), so a function that changes the spec's variables counts time.
   */
  private pollCounts(argument: ts.Expression): void {
    const fn = this.model.unwrap(argument);
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return;
    const visit = (node: ts.Node): void => {
      const target = writtenName(node);
      const declaration = target && this.model.declarationOf(target);
      if (declaration && !(declaration.pos >= fn.pos && declaration.end <= fn.end)) {
        this.found.push({ node, message: `expect.poll's function changes \`${target.text}\`, declared outside it: how often a poll calls it is the clock's to decide (it polls until its limit, which is shorter in the proof's copy of the spec), so an outcome counted from it is chance; poll what the page shows instead: await expect.poll(() => page.getByTestId('rows').count()).toBe(3).` });
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
  }

  /** `Math.random()`, `new Date()`, `Date.now()`: a source, followed; `Math` or `Math.random` as a value: refused, it could be called anywhere. */
  private globalRead(global: ts.Expression, name: string): void {
    const parent = global.parent;
    if ((ts.isNewExpression(parent) || ts.isCallExpression(parent)) && parent.expression === global) {
      if (this.all.includes(name) && (parent.arguments ?? []).length === 0) this.use(parent, `new ${name}()`, this.options.text_sources.includes(name), 0);
      return;
    }
    if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === global) {
      const source = `${name}.${this.model.memberName(parent) ?? '[…]'}`;
      if (!this.all.includes(source)) return;
      const call = parent.parent;
      if (ts.isCallExpression(call) && call.expression === parent) this.use(call, `${source}()`, this.options.text_sources.includes(source), 0);
      else this.report(parent, `${source}()`, 'it is taken without being called, so it could be called anywhere');
      return;
    }
    // `value instanceof Date`, `toBeInstanceOf(Date)`: a type, not a value of chance.
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && parent.right === global) return;
    if (ts.isCallExpression(parent) && parent.arguments[0] === global && this.model.callee(parent).name === 'toBeInstanceOf') return;
    this.report(global, `\`${name}\``, 'it is handed on itself (an alias or destructuring), so what it gives cannot be followed');
  }

  private report(node: ts.Node, source: string, where: string): void {
    this.found.push({ node, message: `${source} changes from run to run, and ${where}: an outcome it decides is chance, and the proof, which runs the spec's copy once with its actions undone, could take a chance failure for proof; ${ADVICE}.` });
  }

  /** Follows a value of chance (`text`: already its whole text) from `expr` to where it is used. */
  private use(expr: ts.Expression, source: string, text: boolean, depth: number): void {
    if (depth > MAX_DEPTH) return this.report(expr, source, 'it passes through more steps than the check follows');
    const { model } = this;
    let node: ts.Expression = expr;
    while (TRANSPARENT_KINDS[node.parent.kind] === 1 || ts.isAwaitExpression(node.parent)) node = node.parent as ts.Expression;
    const parent = node.parent;
    if (ts.isTemplateSpan(parent)) return this.use(parent.parent, source, true, depth + 1);
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const other = parent.left === node ? parent.right : parent.left;
      if (text || isText(model, other)) return this.use(parent, source, true, depth + 1);
    }
    if (ts.isCallExpression(parent) && parent.arguments.length === 1 && parent.arguments[0] === node && this.isTextFunction(parent.expression)) {
      return this.use(parent, source, true, depth + 1);
    }
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node && this.options.text_methods.includes(parent.name.text) && ts.isCallExpression(parent.parent) && parent.parent.expression === parent) {
      return this.use(parent.parent, source, true, depth + 1);
    }
    if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) return this.held(parent, source, text, depth);
    if (ts.isCallExpression(parent) && parent.arguments.includes(node)) return this.argument(parent, parent.arguments.indexOf(node), source, text, depth);
    if ((ts.isPropertyAssignment(parent) && parent.initializer === node) || ts.isShorthandPropertyAssignment(parent)) return this.property(parent, source, text, depth);
    if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === node)) return this.returned(parent, source, text, depth);
    this.report(node, source, `here it is used in \`${shorten(model.text(parent))}\``);
  }

  /** A variable or a helper's parameter holding it: each read of it followed in turn. */
  private held(declaration: ts.VariableDeclaration | ts.ParameterDeclaration, source: string, text: boolean, depth: number): void {
    if (this.seen.has(declaration)) return;
    this.seen.add(declaration);
    for (const reference of this.model.referencesTo(declaration)) {
      if (isValueReference(reference) && !isWrite(reference)) this.use(reference, source, text, depth + 1);
    }
  }

  /** As the `index`th argument: text for a Playwright method or matcher that takes it, the project's helpers, or the spec's own helper's parameter. */
  private argument(call: ts.CallExpression, index: number, source: string, text: boolean, depth: number): void {
    const { model } = this;
    const callee = model.unwrap(call.expression);
    const argument = call.arguments[index]!;
    const own = this.ownFunction(callee);
    if (own) {
      const parameter = own.parameters[index];
      if (parameter && !parameter.dotDotDotToken && ts.isIdentifier(parameter.name)) return this.held(parameter, source, text, depth);
      return this.report(argument, source, 'the helper it is passed to does not take it as a named parameter');
    }
    if (this.projectCall(callee)) return;
    const member = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? callee : undefined;
    const name = member && model.memberName(member);
    if (text && member && name !== undefined && this.options.text_arguments.includes(name) && (model.expectation(call) !== undefined || mayBePlaywrightObject(model, member.expression))) return;
    if (index === 0 && model.playwrightPath(call.expression)?.startsWith('expect')) return this.report(argument, source, 'here it is what an assertion checks');
    const what = text ? '' : ' as a number, date or id rather than its whole text';
    this.report(argument, source, `here it is passed${what} to \`${shorten(model.text(call.expression))}()\``);
  }

  /** `{ name: value }` in the options of a call that takes it as text (`getByRole('row', { name })`, `post(url, { data: { title } })`). */
  private property(property: ts.PropertyAssignment | ts.ShorthandPropertyAssignment, source: string, text: boolean, depth: number): void {
    let holder: ts.Expression = property.parent;
    for (;;) {
      let outer: ts.Node = holder.parent;
      while (ts.isParenthesizedExpression(outer) || ts.isAsExpression(outer) || ts.isSatisfiesExpression(outer)) {
        holder = outer;
        outer = outer.parent;
      }
      if (ts.isPropertyAssignment(outer) && outer.initializer === holder && ts.isObjectLiteralExpression(outer.parent)) {
        holder = outer.parent;
        continue;
      }
      if (ts.isCallExpression(outer) && outer.arguments.includes(holder)) return this.argument(outer, outer.arguments.indexOf(holder), source, text, depth + 1);
      return this.report(property, source, `here it is stored in \`${shorten(this.model.text(outer))}\``);
    }
  }

  /** Returned from a function of the spec's own that is called by name: each call's value is followed in turn. */
  private returned(at: ts.Node, source: string, text: boolean, depth: number): void {
    const fn = ts.findAncestor(at, ts.isFunctionLike);
    const declaration = fn && (ts.isFunctionDeclaration(fn) ? fn : ts.isVariableDeclaration(fn.parent) && fn.parent.initializer === fn ? fn.parent : undefined);
    if (!declaration) return this.report(at, source, 'it is returned from a function that is not called by name');
    if (this.seen.has(declaration)) return;
    this.seen.add(declaration);
    for (const reference of this.model.referencesTo(declaration)) {
      const call = reference.parent;
      if (ts.isCallExpression(call) && call.expression === reference) this.use(call, source, text, depth + 1);
      else if (isValueReference(reference)) this.report(reference, source, 'the function returning it is handed on as a value');
    }
  }

  private isTextFunction(callee: ts.Expression): boolean {
    return ts.isIdentifier(callee) && this.options.text_functions.includes(callee.text) && !this.model.declarationOf(callee);
  }

  /** The spec's own function a callee names: a function declaration or a `const` holding a function. */
  private ownFunction(callee: ts.Expression): ts.FunctionLikeDeclaration | undefined {
    if (!ts.isIdentifier(callee)) return undefined;
    const declaration = this.model.declarationOf(callee);
    if (declaration && ts.isFunctionDeclaration(declaration)) return declaration;
    const value = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    return value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) ? value : undefined;
  }

  /** A call into the project's own modules (its helpers, page objects): the user's code, not the model's. */
  private projectCall(callee: ts.Expression): boolean {
    const module = this.model.chainModule(callee);
    return module !== undefined && (module.startsWith('./') || module.startsWith('../'));
  }
}

/** Whether `+` with this operand joins text: a string or template, written out or held by a variable. */
function isText(model: SpecModel, expr: ts.Expression): boolean {
  const e = model.resolve(expr);
  return ts.isStringLiteralLike(e) || ts.isTemplateExpression(e);
}

/** The variable an assignment, `++` or `--` writes. */
function writtenName(node: ts.Node): ts.Identifier | undefined {
  let target: ts.Expression | undefined;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) target = node.left;
  else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) target = node.operand;
  while (target && (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target) || TRANSPARENT_KINDS[target.kind] === 1)) target = (target as ts.PropertyAccessExpression).expression;
  return target && ts.isIdentifier(target) ? target : undefined;
}

function isWrite(reference: ts.Identifier): boolean {
  const parent = reference.parent;
  return ts.isBinaryExpression(parent) && parent.left === reference && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}
