/**
 * The allow-list gate's file and URL check for model-written code: every file a spec names (screenshots,
 * storage state, uploads, downloads, attachments) stays inside the test's own output folder, and every
 * page it opens is the app's (http, https or a path under baseURL), never file:, data: or chrome:.
 */
import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import { calledFunction, isFixtureRooted, isTestInfo } from './utils/untrusted-values.ts';

const Options = ruleOptions({
  /** Option keys that name a file or folder (`{ path }`, `recordVideo: { dir }`, `storageState`). */
  path_properties: z.array(z.string().min(1)),
  /** Methods whose arguments are file paths (`download.saveAs(path)`, `setInputFiles(files)`, `toHaveScreenshot(name)`). */
  path_arguments: z.array(z.string().min(1)),
  /** Methods taking an options object (at the given argument index) that may name files: it must be written out, so it can be checked. */
  option_arguments: z.record(z.string().min(1), z.number().int().nonnegative()),
  /** Methods that open a URL in the browser. */
  navigation_methods: z.array(z.string().min(1)),
  /** Methods of Playwright's API requests (request, page.request, route) whose first argument is a URL. */
  request_methods: z.array(z.string().min(1)),
  /** Option keys whose value holds further file or URL options (`recordHar: { path }`): it must be written out too. */
  option_containers: z.array(z.string().min(1)),
  /** Option keys that hold a URL (`route.fetch({ url })`). */
  url_properties: z.array(z.string().min(1)),
  /** Schemes of absolute URLs a spec may open or request; a path under baseURL is always fine. Empty: the app only. */
  url_schemes: z.array(z.string().regex(/^[a-z][a-z0-9+.-]*:$/, 'a scheme such as https:')),
});
type Options = z.infer<typeof Options>;

const MAX_DEPTH = 12;
/** Globals whose `get`/`set`/`has` are not requests. */
const LOCAL_COLLECTIONS = new Set(['Map', 'Set', 'URLSearchParams', 'WeakMap', 'Headers', 'FormData']);
/** Attachment names Scribe and Playwright give their own evidence. */
const RESERVED_ATTACHMENT = /^(scribe|error-context|trace|video|screenshot|_)/i;
const PATH_ADVICE = "use a relative path without '..' (such as 'screenshots/home.png') or testInfo.outputPath('home.png')";

export default defineRule({
  id: 'allowed-paths',
  description: "Model-written code may name files only inside the test's output folder and open or request only the app.",
  fixable: false,
  untrustedOnly: true,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    const paths = new PathCheck(model, options, findings);
    for (const tagged of model.nodes<ts.TaggedTemplateExpression>(ts.SyntaxKind.TaggedTemplateExpression)) {
      const name = calledName(model, tagged.tag);
      if (name !== undefined && checkedMethod(options, name)) {
        findings.push({ node: tagged, message: `${name}\`…\`: a tagged template hands the method its text in pieces the check cannot see; call it with parentheses: ${name}('/path').` });
      }
    }
    for (const call of model.calls) {
      const callee = calledMember(model, call.expression);
      const name = callee ? model.memberName(callee) : model.playwrightPath(call.expression) === 'test.use' ? 'use' : undefined;
      if (name === undefined) continue;
      if (name === 'attach' && call.arguments[0]) paths.attachmentName(call.arguments[0]);
      if (options.path_arguments.includes(name)) call.arguments.forEach((argument) => paths.argument(argument, `${name}()`));
      if (Object.hasOwn(options.option_arguments, name) || name === 'use') paths.optionsArgument(call, name === 'use' ? 0 : options.option_arguments[name]!, name);
      if (options.navigation_methods.includes(name) && call.arguments[0]) paths.url(call.arguments[0], name);
      if (options.request_methods.includes(name) && call.arguments[0] && paths.mayBeRequest(callee)) paths.url(call.arguments[0], name);
    }
    return findings;
  },
});

class PathCheck {
  constructor(
    private readonly model: SpecModel,
    private readonly options: Options,
    private readonly findings: Finding[],
  ) {}

  /** A positional argument of a path-taking method: a path, a list of them, or a file payload object. */
  argument(argument: ts.Expression, where: string): void {
    const e = this.model.unwrap(argument);
    if (ts.isArrayLiteralExpression(e)) {
      for (const item of e.elements) this.argument(item, where);
      return;
    }
    if (ts.isObjectLiteralExpression(e)) {
      this.optionsObject(e, where);
      return;
    }
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return;
    const problem = this.pathProblem(e);
    if (problem) this.findings.push({ node: argument, message: `${where}: ${problem}` });
  }

  /**
   * testInfo.attach(name, …): a name of the spec's own, written out. Scribe reads its evidence from
   * attachments it names (scribe-*) and the Medic Playwright's page snapshot (error-context); a spec that
   * attached under those names would forge what the Medic and the host are told.
   */
  attachmentName(argument: ts.Expression): void {
    const name = constString(this.model, argument);
    if (name === undefined) {
      this.findings.push({ node: argument, message: "attach(): write the attachment's name out as text (such as 'cart-summary'), so it cannot take a name Scribe or Playwright reads as their own." });
    } else if (RESERVED_ATTACHMENT.test(name.trim())) {
      this.findings.push({ node: argument, message: `attach(): "${shortText(name)}" is a name Scribe or Playwright reads as their own evidence (scribe-*, error-context, trace, video, screenshot); give the attachment a name of your own, such as 'cart-summary'.` });
    }
  }

  /** The options object of screenshot(), storageState(), newContext(), attach(), test.use(): written out, its file keys checked. */
  optionsArgument(call: ts.CallExpression, index: number, name: string): void {
    const argument = call.arguments[index];
    if (!argument) return;
    const object = this.constObject(argument);
    if (!object) {
      if (!this.isPlainValue(argument)) {
        this.findings.push({ node: argument, message: `${name}(): write its options as an object literal in the call (or a constant holding one), so the files it names can be checked.` });
      }
      return;
    }
    this.optionsObject(object, `${name}()`);
  }

  private isPlainValue(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    return ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isTemplateExpression(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e);
  }

  private optionsObject(object: ts.ObjectLiteralExpression, where: string, depth = 0): void {
    if (depth > MAX_DEPTH) return;
    for (const property of object.properties) {
      if (ts.isSpreadAssignment(property)) {
        const inner = this.constObject(property.expression);
        if (inner) this.optionsObject(inner, where, depth + 1);
        else if (!this.isDevices(property.expression)) this.findings.push({ node: property, message: `${where}: a spread of options the analysis cannot see may name any file; write the options out.` });
        continue;
      }
      const name = this.model.propertyName(property);
      const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
      if (name === undefined || value === undefined) {
        this.findings.push({ node: property, message: `${where}: options may only be plain \`key: value\` pairs with literal keys (no getters, methods or keys computed at run time), so the files they name can be checked.` });
        continue;
      }
      const inner = this.constObject(value);
      if (inner) {
        // Files and URLs sit only in the containers (recordHar: { path }); headers, JSON bodies and viewports hold none.
        if (this.options.option_containers.includes(name)) this.optionsObject(inner, where, depth + 1);
        continue;
      }
      const list = this.model.unwrap(value);
      if (ts.isArrayLiteralExpression(list)) {
        for (const item of list.elements) {
          const element = this.constObject(item);
          if (element) this.optionsObject(element, where, depth + 1);
          else if (this.options.option_containers.includes(name)) this.findings.push({ node: item, message: `${where} option \`${name}\`: write each entry out as an object literal, so the files and URLs it names can be checked.` });
        }
        continue;
      }
      if (this.options.option_containers.includes(name)) {
        this.findings.push({ node: property, message: `${where} option \`${name}\`: write it out as an object literal (or a constant holding one), so the files and URLs it names can be checked.` });
        continue;
      }
      if (this.options.url_properties.includes(name)) {
        const problem = this.urlProblem(value);
        if (problem) this.findings.push({ node: property, message: `${where} option \`${name}\`: ${problem} Reach the app with a path under baseURL, such as '/api/items'.` });
        continue;
      }
      if (!this.options.path_properties.includes(name)) continue;
      const problem = this.pathProblem(value);
      if (problem) this.findings.push({ node: property, message: `${where} option \`${name}\`: ${problem}` });
    }
  }

  /** `devices['Pixel 7']`: Playwright's device descriptors, data without files. */
  private isDevices(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isElementAccessExpression(e) || !ts.isIdentifier(e.expression)) return false;
    const binding = this.model.moduleBinding(e.expression);
    return binding?.module === '@playwright/test' && binding.imported === 'devices';
  }

  /** Why a value is not a path inside the output folder, or undefined when it is. */
  private pathProblem(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return `this path cannot be followed; ${PATH_ADVICE}.`;
    const e = this.model.unwrap(expr);
    if (ts.isConditionalExpression(e)) return this.pathProblem(e.whenTrue, depth + 1) ?? this.pathProblem(e.whenFalse, depth + 1);
    if (ts.isCallExpression(e)) {
      const callee = this.model.unwrap(e.expression);
      // Playwright's own outputPath refuses any path outside the test's output folder, whatever its segments.
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'outputPath' && isTestInfo(this.model, callee.expression)) return undefined;
    }
    if (ts.isIdentifier(e)) {
      const value = constInitializer(this.model, e);
      if (value && !ts.isStringLiteralLike(value)) return this.pathProblem(value, depth + 1);
    }
    const texts = constStrings(this.model, e);
    if (texts === undefined) return `the path is computed at run time and could point anywhere on the host; ${PATH_ADVICE}.`;
    for (const text of texts) {
      const problem = literalPathProblem(text);
      if (problem) return problem;
    }
    return undefined;
  }

  /** The URL of a navigation|| /^([\\/]|[a-zA-Z]:|~)/.test(text)) return `"${text}" is an absolute path, outside the test's output folder; ${PATH_ADVICE}.`;
    if (text.split(/[\\/]/).includes('..')) return `"${text}" climbs out of the test's output folder with '..'; ${PATH_ADVICE}.`;
: a path under baseURL, or an absolute URL of an allowed scheme. */
  url(argument: ts.Expression, method: string): void {
    const problem = this.urlProblem(argument);
    if (problem) this.findings.push({ node: argument, message: `${method}(): ${problem} Reach the app with a path under baseURL, such as page.goto('/login') or request.get('/api/items').` });
  }

  /** `get`, `post`, `fetch` … on anything but the spec's own maps, URL parameters and objects. */
  mayBeRequest(callee: ts.PropertyAccessExpression | ts.ElementAccessExpression | undefined): boolean {
    if (!callee) return false;
    const receiver = this.model.unwrap(callee.expression);
    if ((ts.isPropertyAccessExpression(receiver) || ts.isElementAccessExpression(receiver)) && this.model.memberName(receiver) === 'searchParams') return false;
    if (ts.isIdentifier(receiver)) {
      const value = constInitializer(this.model, receiver);
      const made = value && this.model.unwrap(value);
      if (made && (ts.isObjectLiteralExpression(made) || (ts.isPropertyAccessExpression(made) && made.name.text === 'searchParams'))) return false;
      if (made && ts.isNewExpression(made) && ts.isIdentifier(made.expression) && LOCAL_COLLECTIONS.has(made.expression.text) && !this.model.declarationOf(made.expression)) return false;
    }
    return true;
  }

  private urlProblem(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return 'the URL cannot be followed.';
    const e = this.model.unwrap(expr);
    if (this.isBaseUrl(e)) return undefined;
    const full = constString(this.model, e);
    if (full !== undefined) return this.literalUrlProblem(full);
    if (ts.isIdentifier(e)) {
      const value = constInitializer(this.model, e);
      if (value) return this.urlProblem(value, depth + 1);
      // `for (const { path } of PAGES) await page.goto(path)`: every row of a constant table.
      const rows = constStrings(this.model, e);
      if (rows) return rows.map((row) => this.literalUrlProblem(row)).find((problem) => problem !== undefined);
      const declaration = this.model.declarationOf(e);
      if (declaration && ts.isParameter(declaration)) return this.parameterUrlProblem(declaration, depth + 1);
      return 'the URL comes from a value the analysis cannot follow and could be a file: URL or another host.';
    }
    const property = this.constProperty(e);
    if (property) return this.urlProblem(property, depth + 1);
    const parts = urlParts(this.model, e);
    if (parts === undefined) return 'the URL is computed at run time and could be a file: URL or another host.';
    const [first, ...rest] = parts;
    if (first !== undefined && typeof first !== 'string' && this.isBaseUrl(first)) {
      // `${baseURL}@host` or `${baseURL}.host` names another host: after baseURL comes a path, a query or a fragment.
      const after = leadingText(this.model, rest);
      if ((after.complete && after.text === '') || /^[/?#]/.test(cleanUrl(after.text))) return undefined;
      return 'after baseURL the URL must go on with /, ? or # written in the spec: anything else (`@host`, `.host`, a value computed at run time) can name another host.';
    }
    const lead = leadingText(this.model, parts);
    if (lead.text === '') return 'the URL starts with a value computed at run time and could be a file: URL or another host.';
    return lead.complete ? this.literalUrlProblem(lead.text) : this.prefixProblem(lead.text);
  }

  /** `ROUTES.login` of a constant object literal whose property nothing writes: the property's value. */
  private constProperty(e: ts.Expression): ts.Expression | undefined {
    if (!ts.isPropertyAccessExpression(e) && !ts.isElementAccessExpression(e)) return undefined;
    const name = this.model.memberName(e);
    const receiver = this.model.unwrap(e.expression);
    if (name === undefined || !ts.isIdentifier(receiver)) return undefined;
    const object = this.constObject(receiver);
    const property = object?.properties.find((p) => this.model.propertyName(p) === name);
    if (!property || !ts.isPropertyAssignment(property) || object!.properties.some(ts.isSpreadAssignment)) return undefined;
    const declaration = this.model.declarationOf(receiver);
    const written = declaration !== undefined && this.model.referencesTo(declaration).some((reference) => {
      const access = reference.parent;
      return (ts.isPropertyAccessExpression(access) || ts.isElementAccessExpression(access)) && access.expression === reference && this.model.memberName(access) !== undefined && isWritten(access);
    });
    return written ? undefined : property.initializer;
  }

  /**
   * A URL that is a parameter of the spec's own helper or page-object method (`open(path) { page.goto(path) }`):
   * fine when the function is only ever called, by name, and every call passes a URL that is fine.
   */
  private parameterUrlProblem(parameter: ts.ParameterDeclaration, depth: number): string | undefined {
    const unknown = 'the URL is a parameter of a function the analysis cannot follow to every call; pass a path under baseURL at each call, and call the function only by name.';
    if (depth > MAX_DEPTH || parameter.dotDotDotToken || !ts.isIdentifier(parameter.name)) return unknown;
    const fn = parameter.parent;
    if (!(ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !onlyCalled(this.model, fn)) return unknown;
    const index = fn.parameters.indexOf(parameter);
    const calls = this.model.calls.filter((call) => calledFunction(this.model, call) === fn);
    if (calls.length === 0) return unknown;
    if (parameter.initializer) {
      const problem = this.urlProblem(parameter.initializer, depth + 1);
      if (problem) return problem;
    }
    for (const call of calls) {
      const argument = call.arguments[index];
      if (argument === undefined) {
        if (parameter.initializer) continue;
        return unknown;
      }
      if (call.arguments.slice(0, index + 1).some(ts.isSpreadElement)) return unknown;
      const problem = this.urlProblem(argument, depth + 1);
      if (problem) return `${problem} (passed at line ${this.model.position(call).line})`;
    }
    return undefined;
  }

  /** A URL known in full: an allowed scheme, or one that stays on baseURL's origin as the browser parses it (WHATWG). */
  private literalUrlProblem(text: string): string | undefined {
    const scheme = schemeOf(text);
    if (scheme && this.options.url_schemes.includes(scheme)) return undefined;
    if (staysOnBase(text)) return undefined;
    if (scheme) return this.schemeProblem(scheme);
    return `"${shortText(text)}" names another host: a URL starting with // or a backslash (after any spaces or tabs) is absolute, not a path under baseURL.`;
  }

  /** The start of a URL whose rest is computed at run time: it must already fix the origin (a path, a query or a fragment). */
  private prefixProblem(text: string): string | undefined {
    const clean = cleanUrl(text);
    const scheme = schemeOf(text);
    if (scheme) return this.options.url_schemes.includes(scheme) ? undefined : this.schemeProblem(scheme);
    if (/^[/\\]/.test(clean)) {
      if (/^[/\\][^/\\]/.test(clean)) return undefined;
      return `"${shortText(text)}" followed by a value computed at run time can become //host, another host; write the first path segment out ('/api/' + id).`;
    }
    if (/^[?#]/.test(clean) || /^[^:/\\?#]+[/\\?#]/.test(clean)) return undefined;
    return 'the URL is assembled at run time from a start that could still become a scheme such as file: or another host.';
  }

  private schemeProblem(scheme: string): string {
    const allowed = this.options.url_schemes.length > 0 ? `only the app and ${this.options.url_schemes.join(', ')} URLs` : 'only the app';
    return `an absolute "${scheme}" URL leaves the app; generated code reaches ${allowed}.`;
  }

  /** `process.env.BASE_URL` or the `baseURL` fixture, or a constant holding one. */
  private isBaseUrl(expr: ts.Expression, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    const e = this.model.unwrap(expr);
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      const fallback = constString(this.model, e.right);
      return this.isBaseUrl(e.left, depth + 1) && (this.isBaseUrl(e.right, depth + 1) || (fallback !== undefined && this.literalUrlProblem(fallback) === undefined));
    }
    if (ts.isNonNullExpression(e)) return this.isBaseUrl(e.expression, depth + 1);
    if (ts.isPropertyAccessExpression(e) && e.name.text === 'BASE_URL') {
      const env = this.model.unwrap(e.expression);
      return ts.isPropertyAccessExpression(env) && env.name.text === 'env' && ts.isIdentifier(env.expression) && env.expression.text === 'process' && !this.model.declarationOf(env.expression);
    }
    if (!ts.isIdentifier(e)) return false;
    const declaration = this.model.declarationOf(e);
    if (declaration && ts.isBindingElement(declaration) && this.model.text(declaration.propertyName ?? declaration.name) === 'baseURL') return isFixtureRooted(this.model, e);
    const value = constInitializer(this.model, e);
    return value !== undefined && this.isBaseUrl(value, depth + 1);
  }

  /** The object literal a constant holds (or the literal itself); never a reassignable variable. */
  private constObject(expr: ts.Expression, depth = 0): ts.ObjectLiteralExpression | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.model.unwrap(expr);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (!ts.isIdentifier(e)) return undefined;
    const value = constInitializer(this.model, e);
    return value ? this.constObject(value, depth + 1) : undefined;
  }
}

function literalPathProblem(text: string): string | undefined {
  if (text === '' || /^([\\/]|[a-zA-Z]:|~)/.test(text)) return `"${text}" is an absolute path, outside the test's output folder; ${PATH_ADVICE}.`;
  if (text.split(/[\\/]/).includes('..')) return `"${text}" climbs out of the test's output folder with '..'; ${PATH_ADVICE}.`;
  if (text.includes('\0')) return `"${text}" holds a NUL character; ${PATH_ADVICE}.`;
  return undefined;
}

const MAX_VALUES = 64;

/**
 * Every string an expression can evaluate to, when the spec fixes them all: constString, plus the rows
 * of a constant table a `for (const { name } of TABLE)` loop walks. Undefined when any is unknown.
 */
function constStrings(model: SpecModel, expr: ts.Expression, depth = 0): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  const single = constString(model, e);
  if (single !== undefined) return [single];
  if (ts.isTemplateExpression(e)) {
    let out = [e.head.text];
    for (const span of e.templateSpans) {
      const parts = constStrings(model, span.expression, depth + 1);
      if (parts === undefined) return undefined;
      out = out.flatMap((before) => parts.map((part) => before + part + span.literal.text));
      if (out.length > MAX_VALUES) return undefined;
    }
    return out;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constStrings(model, e.left, depth + 1);
    const right = left && constStrings(model, e.right, depth + 1);
    const out = left && right ? left.flatMap((l) => right.map((r) => l + r)) : undefined;
    return out && out.length <= MAX_VALUES ? out : undefined;
  }
  return ts.isIdentifier(e) ? loopValues(model, e, depth) : undefined;
}

/** `for (const name of ['a', 'b'])` or `for (const { name } of [{ name: 'a' }])` over a constant array literal. */
function loopValues(model: SpecModel, id: ts.Identifier, depth: number): string[] | undefined {
  const declaration = model.declarationOf(id);
  if (!declaration) return undefined;
  const key = ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent) ? declaration.propertyName ?? declaration.name : undefined;
  const variable = ts.isBindingElement(declaration) ? declaration.parent.parent : declaration;
  if (!ts.isVariableDeclaration(variable) || variable.initializer || !ts.isForOfStatement(variable.parent.parent)) return undefined;
  if ((variable.parent.flags & ts.NodeFlags.Const) === 0) return undefined; // `for (let p of …)` may be reassigned in the loop
  if (ts.isBindingElement(declaration) && (!key || !ts.isIdentifier(key) || variable.name !== declaration.parent)) return undefined;
  let rows: ts.Expression = model.unwrap(variable.parent.parent.expression);
  if (ts.isIdentifier(rows)) rows = constInitializer(model, rows) ?? rows;
  rows = model.unwrap(rows);
  if (!ts.isArrayLiteralExpression(rows)) return undefined;
  const values: string[] = [];
  for (const row of rows.elements) {
    let value: ts.Expression | undefined = row;
    if (key) {
      const object = model.unwrap(row);
      const property = ts.isObjectLiteralExpression(object) ? object.properties.find((p) => model.propertyName(p) === (key as ts.Identifier).text) : undefined;
      value = property && ts.isPropertyAssignment(property) ? property.initializer : undefined;
    }
    const strings = value && constStrings(model, value, depth + 1);
    if (!strings) return undefined;
    values.push(...strings);
  }
  return values;
}

function constInitializer(model: SpecModel, id: ts.Identifier): ts.Expression | undefined {
  const declaration = model.declarationOf(id);
  if (!declaration || !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || !declaration.initializer) return undefined;
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0 ? declaration.initializer : undefined;
}

/** The string an expression always evaluates to: literals, templates and `+` of constants only. */
function constString(model: SpecModel, expr: ts.Expression, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
  if (ts.isTemplateExpression(e)) {
    let out = e.head.text;
    for (const span of e.templateSpans) {
      const part = constString(model, span.expression, depth + 1);
      if (part === undefined) return undefined;
      out += part + span.literal.text;
    }
    return out;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constString(model, e.left, depth + 1);
    const right = left === undefined ? undefined : constString(model, e.right, depth + 1);
    return right === undefined ? undefined : left! + right;
  }
  if (ts.isIdentifier(e)) {
    const value = constInitializer(model, e);
    return value ? constString(model, value, depth + 1) : undefined;
  }
  return undefined;
}

/** The operands of a concatenation or the pieces of a template, in order: literal text as strings. */
function urlParts(model: SpecModel, expr: ts.Expression, depth = 0): Array<ts.Expression | string> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return [...(urlParts(model, e.left, depth + 1) ?? [e.left]), ...(urlParts(model, e.right, depth + 1) ?? [e.right])];
  }
  if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.flatMap((span) => [span.expression, span.literal.text])].filter((part) => part !== '');
  return undefined;
}

/** The text the parts start with, up to the first one computed at run time, and whether every part is known. */
function leadingText(model: SpecModel, parts: ReadonlyArray<ts.Expression | string>): { text: string; complete: boolean } {
  let text = '';
  for (const part of parts) {
    const known = typeof part === 'string' ? part : constString(model, part);
    if (known === undefined) return { text, complete: false };
    text += known;
  }
  return { text, complete: true };
}

/** What the URL parser reads: tabs and newlines anywhere are dropped, leading spaces and control characters too. */
function cleanUrl(text: string): string {
  return text.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
}

function schemeOf(text: string): string | undefined {
  return /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(cleanUrl(text))?.[1]?.toLowerCase();
}

/** Bases of either special scheme: `http:x` is relative to an http base but another host from an https one. */
const PROBE_BASES = ['http://app.invalid/a/b', 'https://app.invalid/a/b'].map((base) => new URL(base));

/** Whether the URL, resolved as Playwright resolves it (`new URL(url, baseURL)`), stays on the base's origin whatever its scheme. */
function staysOnBase(text: string): boolean {
  return PROBE_BASES.every((base) => {
    try {
      return new URL(text, base).origin === base.origin;
    } catch {
      return false;
    }
  });
}

function shortText(text: string): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/** The member a call calls, seen through parentheses, casts and `(0, page.goto)(…)`. */
function calledMember(model: SpecModel, expr: ts.Expression): ts.PropertyAccessExpression | ts.ElementAccessExpression | undefined {
  let e = model.unwrap(expr);
  while (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.CommaToken) e = model.unwrap(e.right);
  return ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? e : undefined;
}

function calledName(model: SpecModel, expr: ts.Expression): string | undefined {
  const member = calledMember(model, expr);
  return member ? model.memberName(member) : undefined;
}

/** Whether allowed-paths checks a method's arguments. */
function checkedMethod(options: Options, name: string): boolean {
  return options.path_arguments.includes(name) || Object.hasOwn(options.option_arguments, name) || options.navigation_methods.includes(name) || options.request_methods.includes(name);
}

/**
 * Whether a function of the spec is only ever called where it is named (`helper(x)`, `po.open(x)`), never
 * handed on as a value (`urls.forEach(helper)`), so its call sites are all its arguments come from.
 */
function onlyCalled(model: SpecModel, fn: ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression): boolean {
  const isCallee = (node: ts.Node): boolean => {
    let n = node;
    while (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent)) n = n.parent;
    return ts.isCallExpression(n.parent) && n.parent.expression === n;
  };
  if (ts.isMethodDeclaration(fn)) {
    const name = fn.name && (ts.isIdentifier(fn.name) || ts.isStringLiteralLike(fn.name)) ? fn.name.text : undefined;
    if (name === undefined) return false;
    const reads = [...model.nodes<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression), ...model.nodes<ts.ElementAccessExpression>(ts.SyntaxKind.ElementAccessExpression)];
    return reads.every((access) => model.memberName(access) !== name || isCallee(access));
  }
  const declaration = ts.isFunctionDeclaration(fn) ? fn : ts.isVariableDeclaration(fn.parent) && fn.parent.initializer === fn ? fn.parent : undefined;
  if (!declaration) return false;
  return model.referencesTo(declaration).every((reference) => isCallee(reference));
}

/** `x.a = …`, `x.a += …`, `x.a++`, `delete x.a`. */
function isWritten(access: ts.Expression): boolean {
  let node: ts.Node = access;
  while (ts.isParenthesizedExpression(node.parent) || ts.isNonNullExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isBinaryExpression(parent)) return parent.left === node && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  return ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent) || ts.isDeleteExpression(parent) || ts.isArrayLiteralExpression(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isPropertyAssignment(parent);
}
