import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { isExpectation } from '../analysis/test-steps.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding, type TextEdit } from './types.ts';
import { calleeText } from './utils/ast.ts';
import { UNKNOWN_PART } from './utils/selectors.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';

const Options = ruleOptions({
  /** Hosts that are always the app under test, wherever their URL is written. */
  hosts: z.array(z.string().min(1)).min(1),
  /** Methods and matchers whose URL argument must be relative (goto, waitForURL, toHaveURL). */
  navigation_methods: z.array(z.string().min(1)).min(1),
});
type Options = z.infer<typeof Options>;

interface AbsoluteUrl {
  /** Scheme and authority: `http://localhost:3000`. */
  origin: string;
  host: string;
  hasUserInfo: boolean;
  /** What follows the origin as a relative path: `/login?x=1`, `/` for a bare origin. */
  path: string;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#'"`]*/gi;
const HTTP_URL = /^\s*https?:\/\//i;
const TITLE_PATHS = /^test(?:\.(?:only|skip|fixme|fail|slow))?$|^test\.(?:describe|step)(?:\.\w+)*$/;
const EXPECT_PATHS = new Set(['expect', 'expect.soft', 'expect.poll']);
const NAVIGATION_RECEIVERS = new Set(['page', 'frame', 'unknown']);

export default defineRule({
  id: 'no-hardcoded-base-url',
  description: 'Disallows hard-coded app addresses (localhost, 127.0.0.1, absolute navigation URLs); use baseURL and relative paths.',
  fixable: true,
  options: Options,
  check(model, options) {
    const hosts = new Set(options.hosts.map((h) => h.toLowerCase()));
    const navigationMethods = new Set(options.navigation_methods);
    const reported = new Set<ts.Node>();
    const findings: Finding[] = [];

    for (const call of model.calls) {
      const argument = navigationArgument(model, call, navigationMethods);
      const value = argument && model.stringValue(argument, UNKNOWN_PART);
      if (!argument || value === undefined || !HTTP_URL.test(value)) continue;
      const url = parseUrl(value.trim());
      const node = literalBehind(model, argument) ?? argument;
      if (reported.has(node)) continue;
      reported.add(node);
      findings.push({
        node,
        message: `${calleeText(model, call)}() is given the absolute URL "${value}"; use the relative path '${url?.path ?? '/…'}' so baseURL (process.env.BASE_URL) decides the address.`,
        fix: node === model.unwrap(argument) && url && hosts.has(url.host) ? relativePathFix(model, node, url) : undefined,
      });
    }

    for (const kind of [ts.SyntaxKind.StringLiteral, ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TemplateExpression]) {
      for (const literal of model.nodes<ts.Expression>(kind)) {
        if (reported.has(literal)) continue;
        const url = urlsIn(ownText(literal)).find((u) => hosts.has(u.host));
        if (!url || isExempt(model, literal)) continue;
        reported.add(literal);
        findings.push({
          node: literal,
          message: `"${url.origin}" hard-codes the app's address; use a relative path such as '${url.path}' so baseURL decides it, or build the URL from process.env.BASE_URL.`,
        });
      }
    }
    return findings;
  },
});

/** The URL argument of page.goto(url) / waitForURL(url) or of expect(page).toHaveURL(url), when the method is a navigation one. */
function navigationArgument(model: SpecModel, call: ts.CallExpression, methods: ReadonlySet<string>): ts.Expression | undefined {
  const { name, receiver } = model.callee(call);
  if (!name || !receiver || !methods.has(name)) return undefined;
  if (isExpectation(model, call)) return call.arguments[0];
  return NAVIGATION_RECEIVERS.has(model.kindOf(receiver)) ? call.arguments[0] : undefined;
}

/** The string literal a value is written as, followed through constants; undefined when it is built or unknown. */
function literalBehind(model: SpecModel, expr: ts.Expression, depth = 0): ts.Expression | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = model.unwrap(expr);
  if (ts.isStringLiteralLike(e) || ts.isTemplateExpression(e)) return e;
  if (ts.isIdentifier(e)) {
    const resolved = model.resolve(e);
    return resolved === e ? undefined : literalBehind(model, resolved, depth + 1);
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = model.memberName(e);
    if (name === undefined) return undefined;
    const value = model.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword ? model.thisMemberValue(e, name) : model.property(e.expression, name)?.value;
    return value ? literalBehind(model, value, depth + 1) : undefined;
  }
  return undefined;
}

/** The text a literal itself contributes; a template's substitutions are unknown parts, not followed. */
function ownText(literal: ts.Expression): string {
  if (ts.isTemplateExpression(literal)) return literal.head.text + literal.templateSpans.map((s) => UNKNOWN_PART + s.literal.text).join('');
  return ts.isStringLiteralLike(literal) ? literal.text : '';
}

function urlsIn(text: string): AbsoluteUrl[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => parseUrl(text.slice(m.index))).filter((u): u is AbsoluteUrl => u !== undefined);
}

function parseUrl(text: string): AbsoluteUrl | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^\s/?#'"`]*)([^\s'"`]*)/i.exec(text);
  if (!match) return undefined;
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const hostPort = authority.slice(at + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.split(':')[0]!;
  const path = rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
  return { origin: scheme + authority, host: host.toLowerCase(), hasUserInfo: at >= 0, path };
}

/**
 * `'http://localhost:3000/login?x=1'` → `'/login?x=1'`. Playwright resolves a relative goto, waitForURL
 * and toHaveURL argument against baseURL (`new URL(path, baseURL)`), so only the origin changes.
 */
function relativePathFix(model: SpecModel, literal: ts.Expression, url: AbsoluteUrl): TextEdit[] | undefined {
  if (url.hasUserInfo) return undefined;
  const start = literal.getStart(model.sourceFile);
  const raw = model.text(literal);
  if (ts.isTemplateExpression(literal)) {
    // `http://localhost:${port}/users/${id}` → `/users/${id}`: only when the origin is all in the head and a path follows it there.
    const afterOrigin = literal.head.text.slice(url.origin.length);
    if (!literal.head.text.startsWith(url.origin) || raw.slice(1, 1 + url.origin.length) !== url.origin || !/^[/?#]/.test(afterOrigin)) return undefined;
    return [{ start: start + 1, end: start + 1 + url.origin.length, text: afterOrigin.startsWith('/') ? '' : '/' }];
  }
  if (!ts.isStringLiteralLike(literal)) return undefined;
  // A literal with escapes would need re-quoting; leave it to a person.
  if (raw.slice(1, -1) !== literal.text || literal.text.trim() !== literal.text) return undefined;
  const quote = raw[0]!;
  if (url.path.includes(quote)) return undefined;
  return [{ start, end: literal.end, text: `${quote}${url.path}${quote}` }];
}

/** Text that is not code: test and step titles, assertion messages, type positions, import paths; and env fallbacks. */
function isExempt(model: SpecModel, literal: ts.Expression): boolean {
  let node: ts.Node = literal;
  while (
    ts.isParenthesizedExpression(node.parent) ||
    ts.isTemplateSpan(node.parent) ||
    ts.isTemplateExpression(node.parent) ||
    (ts.isBinaryExpression(node.parent) && node.parent.operatorToken.kind === ts.SyntaxKind.PlusToken)
  ) {
    node = node.parent;
  }
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent) || ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent)) return true;
  if (ts.isBinaryExpression(parent) && parent.right === node && isFallbackOperator(parent) && model.text(parent.left).replace(/\s+/g, '').includes('process.env')) return true;
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const path = model.playwrightPath(parent.expression);
    if (path && TITLE_PATHS.test(path)) return true;
    if (path && EXPECT_PATHS.has(path) && parent.arguments.indexOf(node as ts.Expression) === 1) return true;
  }
  // expect(x, { message: '…' })
  if (ts.isPropertyAssignment(parent) && model.propertyName(parent) === 'message' && ts.isObjectLiteralExpression(parent.parent)) {
    const call = parent.parent.parent;
    if (ts.isCallExpression(call) && call.arguments.indexOf(parent.parent) === 1) {
      const path = model.playwrightPath(call.expression);
      return path !== undefined && EXPECT_PATHS.has(path);
    }
  }
  return false;
}

function isFallbackOperator(expr: ts.BinaryExpression): boolean {
  return expr.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || expr.operatorToken.kind === ts.SyntaxKind.BarBarToken;
}
