/** allowed-paths' URL policy: a page a spec opens or requests is the app's (a path under baseURL, or an allowed scheme). */
import type { SpecModel } from '../../analysis/model.ts';
import { ts } from '../../util/typescript.js';
import type { Finding } from '../types.ts';
import { calledFunction, isFixtureRooted } from '../../analysis/value-origins.ts';
import type { AllowedPathsOptions } from './options.ts';
import { constInitializer, constStrings, holderOf, leadingText, neverWritten, shortText, urlParts } from './constant-strings.ts';
import { MAX_DEPTH } from '../../analysis/depth.ts';
import { valueSite } from '../../analysis/syntax.ts';

/** Globals whose `get`/`set`/`has` are not requests. */
const LOCAL_COLLECTIONS = new Set(['Map', 'Set', 'URLSearchParams', 'WeakMap', 'Headers', 'FormData']);

export class UrlCheck {
  constructor(
    protected readonly model: SpecModel,
    protected readonly options: AllowedPathsOptions,
    protected readonly findings: Finding[],
  ) {}

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

  protected urlProblem(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return 'the URL cannot be followed.';
    const e = this.model.unwrap(expr);
    if (this.isBaseUrl(e)) return undefined;
    const full = this.model.constantString(e);
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
    return declaration && neverWritten(this.model, holderOf(this.model, declaration)) ? property.initializer : undefined;
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
      const fallback = this.model.constantString(e.right);
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
  protected constObject(expr: ts.Expression, depth = 0): ts.ObjectLiteralExpression | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const e = this.model.unwrap(expr);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (!ts.isIdentifier(e)) return undefined;
    const value = constInitializer(this.model, e);
    return value ? this.constObject(value, depth + 1) : undefined;
  }
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

/**
 * Whether a function of the spec is only ever called where it is named (`helper(x)`, `po.open(x)`), never
 * handed on as a value (`urls.forEach(helper)`), so its call sites are all its arguments come from.
 */
function onlyCalled(model: SpecModel, fn: ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression): boolean {
  const isCallee = (node: ts.Node): boolean => {
    const site = valueSite(node);
    return ts.isCallExpression(site.parent) && site.parent.expression === site;
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

