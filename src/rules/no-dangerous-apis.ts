import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { GLOBAL_OBJECT_NAMES, isDeclaringName } from '../analysis/syntax.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { isValueReference } from './utils/ast.ts';

const Options = ruleOptions({
  /** Node modules whose bindings a spec may not use at all (with or without the `node:` prefix). */
  modules: z.array(z.string().min(1)),
  /** Globals that run code from strings: eval, Function. */
  globals: z.array(z.string().min(1)),
  /** Members of `process` a spec may not touch; dotted for deeper ones (`env.constructor`). */
  process_members: z.array(z.string().min(1)),
});
type Options = z.infer<typeof Options>;

/** Names under which the global object is reachable. */
const PROCESS_MODULES = new Set(['process', 'node:process']);
const INSTEAD = "use Playwright's APIs (page, request, fixtures) and process.env for configuration instead";

export default defineRule({
  id: 'no-dangerous-apis',
  description: 'Disallows eval, Function, dangerous process members and any use of child_process, fs, net and similar modules.',
  fixable: false,
  safety: true,
  options: Options,
  check(model, options) {
    const checker = new DangerChecker(model, options);
    const findings = [...checker.processMembers(), ...checker.globals(), ...checker.moduleUses()];
    // `import process from 'node:process'; process.exit()` is one problem, reported once (the most specific message first).
    const seen = new Set<number>();
    return findings.filter((finding) => {
      const start = typeof finding.node === 'number' ? finding.node : finding.node.getStart(model.sourceFile);
      if (seen.has(start)) return false;
      seen.add(start);
      return true;
    });
  },
});

class DangerChecker {
  private readonly globalNames: ReadonlySet<string>;
  private readonly processMemberPaths: ReadonlySet<string>;
  /** The last segment of each process member path: a cheap first test before following a chain. */
  private readonly processMemberNames: ReadonlySet<string>;

  constructor(
    private readonly model: SpecModel,
    private readonly options: Options,
  ) {
    this.globalNames = new Set(options.globals);
    this.processMemberPaths = new Set(options.process_members);
    this.processMemberNames = new Set(options.process_members.map((path) => path.slice(path.lastIndexOf('.') + 1)));
  }

  /** eval and Function: referenced directly, through the global object, destructured, or `x.constructor.constructor`. */
  globals(): Finding[] {
    const { model } = this;
    const findings: Finding[] = [];
    const report = (node: ts.Node, name: string) => findings.push({ node, message: globalMessage(name) });
    for (const id of model.nodes<ts.Identifier>(ts.SyntaxKind.Identifier)) {
      if (this.globalNames.has(id.text) && isValueReference(id) && !model.declarationOf(id)) report(id, id.text);
    }
    for (const access of this.memberAccesses()) {
      const name = model.memberName(access);
      if (name && this.globalNames.has(name) && this.isGlobalObject(access.expression)) report(access, name);
      const inner = model.unwrap(access.expression);
      if (
        name === 'constructor' &&
        this.globalNames.has('Function') &&
        (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner)) &&
        model.memberName(inner) === 'constructor'
      ) {
        report(access, 'constructor.constructor');
      }
    }
    for (const element of model.nodes<ts.BindingElement>(ts.SyntaxKind.BindingElement)) {
      const path = this.destructured(element, (init) => (this.isGlobalObject(init) ? '' : undefined));
      if (path !== undefined && this.globalNames.has(path)) report(element, path);
    }
    return findings;
  }

  /** process.exit and friends: `process.exit`, `process['exit']`, aliases, `const { exit } = process`. */
  processMembers(): Finding[] {
    const { model } = this;
    const findings: Finding[] = [];
    const report = (node: ts.Node, path: string) =>
      findings.push({
        node,
        message: `process.${path} reaches into the test runner's own process (ending it, killing processes, loading native code or escaping to Function); a spec must not use it. Let the test fail with an assertion instead.`,
      });
    for (const access of this.memberAccesses()) {
      const name = model.memberName(access);
      if (name !== undefined && !this.processMemberNames.has(name)) continue;
      const path = name === undefined ? undefined : this.processPath(access);
      if (path !== undefined && this.processMemberPaths.has(path)) report(access, path);
      else if (name === undefined && ts.isElementAccessExpression(access) && this.processPath(access.expression) === '') {
        findings.push({ node: access, message: `A computed member of process (process[…]) cannot be checked and may reach process.exit or native bindings; a spec must not use it. ${capitalise(INSTEAD)}.` });
      }
    }
    for (const element of model.nodes<ts.BindingElement>(ts.SyntaxKind.BindingElement)) {
      if (ts.isObjectBindingPattern(element.name)) continue; // its leaves are visited themselves
      const path = this.destructured(element, (init) => this.processPath(init));
      if (path !== undefined && this.processMemberPaths.has(path)) report(element, path);
    }
    return findings;
  }

  /** Any use of a binding from a forbidden module, and module loads used without a binding. */
  moduleUses(): Finding[] {
    const { model } = this;
    const findings: Finding[] = [];
    let importsDanger = false;
    for (const declaration of model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration)) {
      if (ts.isStringLiteralLike(declaration.moduleSpecifier) && this.isDangerousModule(declaration.moduleSpecifier.text)) importsDanger = true;
    }
    for (const declaration of model.nodes<ts.ImportEqualsDeclaration>(ts.SyntaxKind.ImportEqualsDeclaration)) {
      const reference = declaration.moduleReference;
      if (ts.isExternalModuleReference(reference) && this.isDangerousModule(model.stringValue(reference.expression) ?? '')) importsDanger = true;
    }
    for (const call of model.calls) {
      if (!model.isModuleLoader(call.expression) || !call.arguments[0]) continue;
      const module = model.stringValue(call.arguments[0]);
      if (module === undefined) {
        findings.push({ node: call, message: `A module loaded by a name computed at run time may be child_process, fs or net and cannot be checked; a spec must not load it. ${capitalise(INSTEAD)}.` });
      } else if (this.isDangerousModule(module)) {
        importsDanger = true;
        if (!isBound(call)) findings.push({ node: call, message: moduleMessage(`${model.text(call.expression)}('${module}')`, module) });
      }
    }
    if (!importsDanger) return findings;
    for (const id of model.nodes<ts.Identifier>(ts.SyntaxKind.Identifier)) {
      if (!isValueReference(id) || isDeclaringName(id)) continue;
      const binding = model.moduleBinding(id);
      if (binding && this.isDangerousModule(binding.module)) findings.push({ node: id, message: moduleMessage(`\`${id.text}\``, binding.module) });
    }
    return findings;
  }

  private isDangerousModule(module: string): boolean {
    const bare = module.startsWith('node:') ? module.slice('node:'.length) : module;
    return this.options.modules.some((listed) => bare === listed || bare.startsWith(`${listed}/`));
  }

  private memberAccesses(): Array<ts.PropertyAccessExpression | ts.ElementAccessExpression> {
    return [
      ...this.model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression),
      ...this.model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression),
    ];
  }

  /** globalThis, window, global, self (not shadowed), aliases of them and `globalThis.window`. */
  private isGlobalObject(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    const e = this.model.resolve(expr);
    if (ts.isIdentifier(e)) return GLOBAL_OBJECT_NAMES.has(e.text) && !this.model.declarationOf(e);
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = this.model.memberName(e);
      return name !== undefined && GLOBAL_OBJECT_NAMES.has(name) && this.isGlobalObject(e.expression, depth + 1);
    }
    return false;
  }

  /** The global `process` (also through the global object or an alias) or the `process` module. */
  private isProcess(expr: ts.Expression): boolean {
    const e = this.model.resolve(expr);
    if (ts.isIdentifier(e)) {
      if (e.text === 'process' && !this.model.declarationOf(e)) return true;
      const binding = this.model.moduleBinding(e);
      return binding !== undefined && PROCESS_MODULES.has(binding.module) && (binding.imported === 'default' || binding.imported === '*');
    }
    if ((ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) && this.model.memberName(e) === 'process') return this.isGlobalObject(e.expression);
    return false;
  }

  /** For `process.env.constructor`, `env.constructor`; '' for process itself; undefined when not under process. */
  private processPath(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (this.isProcess(expr)) return '';
    const e = this.model.unwrap(expr);
    if (!ts.isPropertyAccessExpression(e) && !ts.isElementAccessExpression(e)) return undefined;
    const base = this.processPath(e.expression, depth + 1);
    const name = this.model.memberName(e);
    if (base === undefined || name === undefined) return undefined;
    return base ? `${base}.${name}` : name;
  }

  /** The dotted path a destructured name takes from its source: `const { env: { constructor } } = process` → `env.constructor`. */
  private destructured(element: ts.BindingElement, pathOfSource: (init: ts.Expression) => string | undefined, depth = 0): string | undefined {
    if (depth > MAX_DEPTH || !ts.isObjectBindingPattern(element.parent)) return undefined;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : ts.isComputedPropertyName(key) ? this.model.stringValue(key.expression) : undefined;
    if (name === undefined) return undefined;
    const owner = element.parent.parent;
    let base: string | undefined;
    if (ts.isBindingElement(owner)) base = this.destructured(owner, pathOfSource, depth + 1);
    else if (ts.isVariableDeclaration(owner) && owner.initializer) base = pathOfSource(owner.initializer);
    if (base === undefined) return undefined;
    return base ? `${base}.${name}` : name;
  }
}

function globalMessage(name: string): string {
  const what = name === 'eval' ? 'eval runs code from a string' : 'the Function constructor builds and runs code from a string';
  return `\`${name}\`: ${what}, which a spec must never do (model output is untrusted); write the steps as plain code.`;
}

function moduleMessage(what: string, module: string): string {
  return `${what} uses ${module}: a spec must not spawn processes or touch files, the network or the OS directly; ${INSTEAD}.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `const cp = require('child_process')` binds the module, so its uses are reported instead of the load. */
function isBound(call: ts.CallExpression): boolean {
  let node: ts.Node = call;
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent)) node = node.parent;
  return ts.isVariableDeclaration(node.parent) && node.parent.initializer === node;
}

