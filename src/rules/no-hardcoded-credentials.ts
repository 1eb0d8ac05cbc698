import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { MAX_DEPTH } from '../analysis/depth.ts';
import { LOCATOR_FACTORIES } from '../analysis/playwright-api.ts';
import { seededByTheTest, TYPING_METHODS } from './utils/seeded-values.ts';
import { regexSource, ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  /** Names that hold secrets: a variable, property or parameter whose name ends in one of these words. */
  secret_names: z.array(z.string().min(1)).min(1),
  /** Regular expressions (case-insensitive) for fields that take secrets, matched against their selector, test id, label, placeholder or name. */
  field_patterns: z.array(regexSource).min(1),
});
type Options = z.infer<typeof Options>;

/** Factories that narrow within a locator rather than name the field itself. */
const NARROWING = new Set(['filter', 'first', 'last', 'nth', 'and', 'or', 'describe']);
const FIELD_OPTION_NAMES = ['name', 'hasText'];

export default defineRule({
  id: 'no-hardcoded-credentials',
  description: 'Disallows string literals typed into password-like fields or assigned to secret-like names.',
  fixable: false,
  options: Options,
  check(model, options, env) {
    const credentials = { username: 'E2E_USERNAME', password: 'E2E_PASSWORD', ...env.credentials };
    const fieldPatterns = options.field_patterns.map((p) => new RegExp(p, 'i'));
    const secretNames = secretWords(options.secret_names);
    const isSecretField = (texts: string[]) => texts.find((t) => fieldPatterns.some((p) => p.test(t)));
    const typed = model.calls.flatMap((call) => {
      const found = typedField(model, call);
      return (found ? atCallSites(model, found, 0) : []).map(({ field, value }) => {
        const inContainer = fieldTexts(model, field, 0, true);
        const setsPassword = isSecretField(inContainer) !== undefined && (inContainer.some(isSettingField) || signsUp(call));
        return { text: isSecretField(fieldTexts(model, field, 0, false)), value, literals: literalsOf(model, value, 0), setsPassword, identity: inContainer.some(isIdentity) };
      });
    });
    const typedSecrets = typed.filter((t): t is typeof t & { text: string } => t.text !== undefined);
    const setByTheTest = new Set([...valuesSetByTheTest(model, typed), ...passwordsOfThings(model, typed, secretNames).map((l) => literalValue(model, l))]);
    const reported = new Set<ts.Node>();
    const findings: Finding[] = [];
    const report = (literals: ts.Node[], message: string, byName = false) => {
      for (const literal of literals) {
        if (reported.has(literal) || setByTheTest.has(literalValue(model, literal)) || deliberatelyWrong(model, literal) || seededByTheTest(model, literal) || (byName && isProse(literal))) continue;
        reported.add(literal);
        findings.push({ node: literal, message });
      }
    };
    for (const { text, literals } of typedSecrets) {
      report(
        literals,
        `A string literal is typed into the secret field "${short(text)}"; read it from the declared environment variable instead (process.env.${credentialFor(text, credentials)}), so no credential lives in the spec.`,
      );
    }

    for (const { name, value } of [...namedValues(model), ...secretArguments(model, secretNames)]) {
      if (!isSecretName(name, secretNames)) continue;
      report(literalsOf(model, value, 0), `"${name}" is given a hard-coded secret; read it from the declared environment variable instead (process.env.${credentialFor(name, credentials)}).`, true);
    }
    return findings;
  },
});

/** A field that sets a password rather than enters it: its confirmation, a repeat, a new one. */
const SETTING_FIELD = /\b(confirm|confirmation|repeat|retype|re enter|again|new)\b/i;

/**
 * Values the test chooses itself: one typed into a field that sets a password (a sign-up form's
 * confirmation, a change form's new password) is the password of an account the test creates, wherever
 * it is typed after. A leaked credential is only ever entered.
 */
function valuesSetByTheTest(model: SpecModel, typed: ReadonlyArray<{ literals: ts.Node[]; setsPassword: boolean }>): Set<string> {
  return new Set(typed.filter((t) => t.setsPassword).flatMap(({ literals }) => literals.map((literal) => literalValue(model, literal))));
}

/** Who signs in: a field or key naming an account (`username`, `email`, `login`). */
const IDENTITY = /\b(user|username|login|email|mail|account|phone)\b/i;
/** A secret word that only opens something together with an identity (a password, a PIN), unlike a token or key. */
const PASSWORD_WORD = /(pass|pwd|pin)/i;

function isIdentity(text: string): boolean {
  return IDENTITY.test(words(text));
}

/**
 * `const product = { name: 'Protected Product', password: 'password' }` with `product.name` typed into a form:
 * an object the test fills into the app, with a password and no user or email, is a thing the test creates (a
 * protected post, a room), and its password test data wherever it is typed. A password opens an account only
 * with an identity; a token or key alone does, so those stay credentials.
 */
function passwordsOfThings(model: SpecModel, typed: ReadonlyArray<{ value: ts.Expression; identity: boolean }>, secretNames: SecretWords): ts.Node[] {
  const filledInto = typed.filter((t) => !t.identity).flatMap(({ value }) => {
    const e = model.unwrap(value);
    return ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? [{ object: model.objectLiteral(e.expression), key: model.memberName(e) }] : [];
  });
  return filledInto.flatMap(({ object, key }) => {
    if (!object || object.properties.some((p) => isIdentity(model.propertyName(p) ?? ''))) return [];
    return object.properties.flatMap((p) => {
      const name = model.propertyName(p);
      if (!name || name === key || !ts.isPropertyAssignment(p) || !PASSWORD_WORD.test(name) || !isSecretName(name, secretNames)) return [];
      return literalsOf(model, p.initializer, 0);
    });
  });
}

/** A function named for creating an account: `signup`, `signUp`, `registerUser`, `createAccount`. */
const SIGN_UP = /\b(sign ?up|register|create (new )?(account|user))\b/i;

/**
 * `async function signup(page, email, password) { … fill(password) }`: what a sign-up helper types into the
 * password field is the password of the account the test creates with it, as a sign-up form's confirmation is.
 */
function signsUp(call: ts.CallExpression): boolean {
  for (let node: ts.Node | undefined = call.parent; node; node = node.parent) {
    if (!ts.isFunctionLike(node)) continue;
    const named = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ? node.name : ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name : undefined;
    return named !== undefined && ts.isIdentifier(named) && SIGN_UP.test(words(named.text));
  }
  return false;
}

/** The words of a name, lower case: camelCase, an acronym before a word and any separator split it (`adminAPIKey`, `x-api-key`). */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A name as a line of words, for the patterns of what a field or function is for. */
function words(name: string): string {
  return nameWords(name).join(' ');
}

function isSettingField(text: string): boolean {
  return SETTING_FIELD.test(words(text));
}

function literalValue(model: SpecModel, literal: ts.Node): string {
  return ts.isStringLiteralLike(literal) ? literal.text : (model.stringValue(literal as ts.Expression) ?? model.text(literal));
}

/** `locator.fill(value)` or `page.fill(selector, value)`: the field and the value typed into it. */
function typedField(model: SpecModel, call: ts.CallExpression): TypedField | undefined {
  const { name, receiver } = model.callee(call);
  if (!name || !receiver || !TYPING_METHODS.has(name)) return undefined;
  const kind = model.kindOf(receiver);
  if (kind === 'keyboard' || kind === 'mouse') return undefined;
  if (kind === 'page' || kind === 'frame') {
    const [selector, value] = call.arguments;
    return selector && value ? { field: selector, value } : undefined;
  }
  const value = call.arguments[0];
  return value ? { field: receiver, value } : undefined;
}

interface TypedField {
  field: ts.Expression;
  value: ts.Expression;
}

/**
 * When the field or the value is a parameter of a local helper (`fillSecret(field, value)`, a page-object
 * method taking the password), the pair at each place the helper is called, so each call is judged on
 * its own arguments. Each pair is followed once: helpers calling helpers at many places stay linear.
 */
function atCallSites(model: SpecModel, typed: TypedField, depth: number, seen = new Map<ts.Node, Set<ts.Node>>()): TypedField[] {
  const owner = parameterOf(model, typed.field) ?? parameterOf(model, typed.value);
  if (!owner || depth > MAX_DEPTH) return [typed];
  const calls = model.calls.filter((call) => model.localFunction(call) === owner.function);
  if (calls.length === 0) return [typed];
  return calls.flatMap((call) => {
    const argumentFor = (expr: ts.Expression) => {
      const parameter = parameterOf(model, expr);
      if (parameter?.function !== owner.function) return expr;
      return call.arguments[parameter.index] ?? parameter.declaration.initializer ?? expr;
    };
    const next = { field: argumentFor(typed.field), value: argumentFor(typed.value) };
    // A call that passes neither the field nor the value (an optional parameter left out) types nothing.
    if (next.field === typed.field && next.value === typed.value) return [];
    const values = seen.get(next.field) ?? new Set<ts.Node>();
    if (values.has(next.value)) return [];
    seen.set(next.field, values.add(next.value));
    return atCallSites(model, next, depth + 1, seen);
  });
}

function parameterOf(model: SpecModel, expr: ts.Expression) {
  const e = model.unwrap(expr);
  const declaration = ts.isIdentifier(e) ? model.declarationOf(e) : undefined;
  if (!declaration || !ts.isParameter(declaration) || declaration.dotDotDotToken) return undefined;
  const fn = declaration.parent;
  return { function: fn, index: fn.parameters.indexOf(declaration), declaration };
}

/**
 * What identifies a field: the selector, test id, label, placeholder or role name of the locator that
 * picks it, and the names of the variables and properties holding it on the way there.
 */
function fieldTexts(model: SpecModel, expr: ts.Expression, depth: number, throughContainer: boolean): string[] {
  if (depth > MAX_DEPTH) return [];
  let e = model.unwrap(expr);
  if (ts.isAwaitExpression(e)) e = model.unwrap(e.expression);
  if (ts.isStringLiteralLike(e) || ts.isTemplateExpression(e) || ts.isBinaryExpression(e)) {
    const value = model.stringValue(e, '');
    return value ? [value] : [];
  }
  if (ts.isIdentifier(e)) {
    const resolved = model.resolve(e);
    return resolved === e ? [e.text] : [e.text, ...fieldTexts(model, resolved, depth + 1, throughContainer)];
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = model.memberName(e);
    if (name === undefined) return [];
    const value = model.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword ? model.thisMemberValue(e, name) : model.property(e.expression, name)?.value;
    return value ? [name, ...fieldTexts(model, value, depth + 1, throughContainer)] : [name];
  }
  if (ts.isCallExpression(e)) {
    const { name, receiver } = model.callee(e);
    if (!name || !LOCATOR_FACTORIES.has(name)) return [];
    const own: string[] = [];
    for (const argument of e.arguments) own.push(...argumentTexts(model, argument));
    // A role with no name (`getByLabel('block-item-Password-Confirm').getByRole('textbox')`) is only loosely named
    // by what it is in (a form item, a record's field, a row): that says which field a value confirms, not that
    // the field takes a credential.
    const unnamedRole = name === 'getByRole' && e.arguments.length === 1;
    if ((NARROWING.has(name) || (throughContainer && unnamedRole)) && receiver) return [...own, ...fieldTexts(model, receiver, depth + 1, throughContainer)];
    return own;
  }
  return [];
}

/** The strings, regular expressions and `name`/`hasText` options a locator factory is given. */
function argumentTexts(model: SpecModel, argument: ts.Expression): string[] {
  const e = model.resolve(argument);
  if (ts.isRegularExpressionLiteral(e)) return [e.text];
  if (ts.isObjectLiteralExpression(e)) {
    return FIELD_OPTION_NAMES.flatMap((name) => {
      const hit = model.property(e, name);
      return hit ? argumentTexts(model, hit.value) : [];
    });
  }
  const value = model.stringValue(e);
  return value ? [value] : [];
}

/**
 * The non-empty string literals an expression's value is written as: followed through variables,
 * constant objects, `??`/`||` fallbacks and conditionals. An environment read (`process.env.X`) has none.
 */
function literalsOf(model: SpecModel, expr: ts.Expression, depth: number): ts.Node[] {
  if (depth > MAX_DEPTH) return [];
  const e = model.unwrap(expr);
  if (ts.isStringLiteralLike(e)) return e.text === '' ? [] : [e];
  if (ts.isTemplateExpression(e)) return model.stringValue(e) ? [e] : [];
  if (ts.isBinaryExpression(e)) {
    const operator = e.operatorToken.kind;
    if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken) {
      return [...literalsOf(model, e.left, depth + 1), ...literalsOf(model, e.right, depth + 1)];
    }
    return operator === ts.SyntaxKind.PlusToken && model.stringValue(e) ? [e] : [];
  }
  if (ts.isConditionalExpression(e)) return [...literalsOf(model, e.whenTrue, depth + 1), ...literalsOf(model, e.whenFalse, depth + 1)];
  if (ts.isIdentifier(e)) {
    const resolved = model.resolve(e);
    return resolved === e ? [] : literalsOf(model, resolved, depth + 1);
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = model.memberName(e);
    if (name === undefined) return [];
    const value = model.unwrap(e.expression).kind === ts.SyntaxKind.ThisKeyword ? model.thisMemberValue(e, name) : model.property(e.expression, name)?.value;
    return value ? literalsOf(model, value, depth + 1) : [];
  }
  return [];
}

/** Every value given to a name in the file: variables, properties, assignments, class fields, defaults. */
function namedValues(model: SpecModel): Array<{ name: string; value: ts.Expression }> {
  const out: Array<{ name: string; value: ts.Expression }> = [];
  const add = (name: ts.Node | undefined, value: ts.Expression | undefined) => {
    if (!name || !value) return;
    const text = ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
    if (text) out.push({ name: text, value });
  };
  for (const d of model.nodes<ts.VariableDeclaration>(ts.SyntaxKind.VariableDeclaration)) add(d.name, d.initializer);
  for (const p of model.nodes<ts.PropertyAssignment>(ts.SyntaxKind.PropertyAssignment)) add(p.name, p.initializer);
  for (const p of model.nodes<ts.PropertyDeclaration>(ts.SyntaxKind.PropertyDeclaration)) add(p.name, p.initializer);
  for (const p of model.nodes<ts.ParameterDeclaration>(ts.SyntaxKind.Parameter)) add(p.name, p.initializer);
  for (const b of model.nodes<ts.BindingElement>(ts.SyntaxKind.BindingElement)) add(b.name, b.initializer);
  for (const b of model.nodes<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
    if (b.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
    const target = model.unwrap(b.left);
    if (ts.isIdentifier(target)) add(target, b.right);
    else if (ts.isPropertyAccessExpression(target)) add(target.name, b.right);
    else if (ts.isElementAccessExpression(target) && ts.isStringLiteralLike(target.argumentExpression)) add(target.argumentExpression, b.right);
  }
  return out;
}

/** Arguments given to a local helper's secret-named parameters: `login(page, 'hunter2')` with `function login(page, password)`. */
function secretArguments(model: SpecModel, secretNames: SecretWords): Array<{ name: string; value: ts.Expression }> {
  const secretParameters = model
    .nodes<ts.ParameterDeclaration>(ts.SyntaxKind.Parameter)
    .filter((p) => ts.isIdentifier(p.name) && isSecretName(p.name.text, secretNames));
  if (secretParameters.length === 0) return [];
  const out: Array<{ name: string; value: ts.Expression }> = [];
  for (const call of model.calls) {
    const parameters = model.localFunction(call)?.parameters ?? [];
    parameters.forEach((parameter, i) => {
      const argument = call.arguments[i];
      if (argument && secretParameters.includes(parameter) && ts.isIdentifier(parameter.name)) out.push({ name: parameter.name.text, value: argument });
    });
  }
  return out;
}

/** Words that say a credential is meant to fail: in the value itself, or in the title of the test it is in. */
const NEGATIVE = /\b(wrong|invalid|incorrect|bad|fake|bogus|mismatch(ed)?|expired|revoked|rejects?|rejected|denied|locked|fails?|failure|error|unauthori[sz]ed)\b/i;
/** `'badpassword'`, `'wrongpass1'`: a negative word run together with the secret it spoils. */
const WRONG_SECRET = /^(wrong|invalid|incorrect|bad|fake|bogus|expired|revoked)(pass(word)?|pwd|pin|secret|token|key)\d*$/i;
const TEST_CALL = /^(test|it)(\.(only|skip|fixme|fail|slow))?$/;

/** A negative test's credential (`fill('wrong-password')` in "rejects a wrong password"): deliberately not the real one. */
function deliberatelyWrong(model: SpecModel, literal: ts.Node): boolean {
  if (ts.isStringLiteralLike(literal) && (NEGATIVE.test(literal.text.replace(/[-_]/g, ' ')) || WRONG_SECRET.test(literal.text))) return true;
  for (let current = literal.parent; current; current = current.parent) {
    if (!ts.isCallExpression(current) || !TEST_CALL.test(model.text(current.expression).replace(/\s+/g, ''))) continue;
    const title = current.arguments[0];
    return title !== undefined && ts.isStringLiteralLike(title) && NEGATIVE.test(title.text);
  }
  return false;
}

/**
 * Words with spaces between them (`'Require account'`): a label held by a secret-sounding name, not a
 * secret — unless it is an Authorization header's value (`Bearer …`).
 */
function isProse(literal: ts.Node): boolean {
  return ts.isStringLiteralLike(literal) && /[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(literal.text) && !/^\s*(bearer|basic|digest|token)\s/i.test(literal.text);
}

/** critic.yaml's secret names, normalized, and a test of a name's letters that rules most names out before they are split into words. */
interface SecretWords {
  words: readonly string[];
  /** Matches the letters of every name that ends in a secret word; absent when a secret word has digits (then every name is split). */
  ending: RegExp | undefined;
}

function secretWords(names: readonly string[]): SecretWords {
  const words = names.map(normalize);
  const ending = words.every((w) => /^[a-z]+$/.test(w)) ? new RegExp(`(?:${words.join('|')})s?$`) : undefined;
  return { words, ending };
}

/** Whether a name ends in a secret word: `adminPassword`, `API_KEY`, `x-api-key` do; `passwordInput`, `author` do not. */
function isSecretName(name: string, secretNames: SecretWords): boolean {
  // The words a name ends in are the last of its ASCII letters, digits and separators aside.
  if (secretNames.ending && !secretNames.ending.test(name.replace(/[^A-Za-z]/g, '').toLowerCase())) return false;
  const words = nameWords(name)
    .map((w) => w.replace(/\d+$/, ''))
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const suffix = words.slice(i).join('');
    if (secretNames.words.some((secret) => suffix === secret || suffix === `${secret}s`)) return true;
  }
  return false;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The declared variable (critic.yaml settings.credentials) for a field or name: the role whose words it
 * shares most (`adminPassword` → admin_password), else the password's.
 */
function credentialFor(name: string, credentials: Readonly<Record<string, string>>): string {
  const words = new Set(nameWords(name));
  const scored = Object.entries(credentials).map(([role, variable]) => ({ variable, score: role.toLowerCase().split(/[^a-z0-9]+/).filter((w) => words.has(w)).length }));
  const best = scored.sort((a, b) => b.score - a.score)[0];
  return best && best.score > 0 ? best.variable : (credentials.password ?? best?.variable ?? 'E2E_PASSWORD');
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
