/**
 * The steps a spec does through the project's own page objects and helpers: `await loginPage.signIn(user,
 * pass)` fills and clicks inside the project's file, not in the spec. The methods the spec calls are looked
 * up in the project files it imports (relative imports, followed a few files deep), and the member calls in
 * their bodies are the steps, following `this.other()` and plain function calls within a bound. Read from the project's files,
 * never run; a method that does nothing of the kind adds nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { STATE_CHANGING_ACTIONS } from '../analysis/neutralise.ts';
import { NAVIGATIONS } from '../analysis/playwright-api.ts';
import { relativeModuleFile } from '../util/module-files.ts';
import { ts } from '../util/typescript.js';

/** How far the project's code is followed: files reached through imports, and method-to-method calls. */
const LIMITS = { files: 24, fileBytes: 256 * 1024, importDepth: 2, callDepth: 3 } as const;

/**
 * The names of the member calls (`fill`, `click`, …) made inside the project functions and methods named
 * `called`, in the files the spec at `specFile` imports.
 */
export function pageObjectCalls(specFile: string, specText: string, called: ReadonlySet<string>): Set<string> {
  const callsOf = projectMethodCalls(specFile, specText);
  return new Set([...called].flatMap((name) => [...callsOf(name)]));
}

/**
 * The methods of the project files the spec imports that act on the page and do not navigate (`add(name)` clicks a
 * row's button; `open()`, which goes to a page, is not one): the proof may take such a call away as an action.
 */
export function actingProjectMethods(specFile: string, specText: string): Set<string> {
  const callsOf = projectMethodCalls(specFile, specText);
  return new Set(
    [...callsOf.names].filter((name) => {
      const calls = [...callsOf(name)];
      return calls.some((call) => STATE_CHANGING_ACTIONS.has(call)) && !calls.some((call) => NAVIGATIONS.has(call));
    }),
  );
}

/** The member calls each named project function or method makes (following `this.other()` within the bound), the files parsed once. */
function projectMethodCalls(specFile: string, specText: string): ((name: string) => Set<string>) & { names: Iterable<string> } {
  const bodies = functionBodies(projectFiles(specFile, specText));
  const callsOf = (name: string): Set<string> => {
    const found = new Set<string>();
    const follow = (current: string, depth: number, visited: Set<string>): void => {
      if (depth > LIMITS.callDepth || visited.has(current)) return;
      visited.add(current);
      for (const body of bodies.get(current) ?? []) {
        for (const member of memberCalls(body)) {
          found.add(member.name);
          if (member.onThis) follow(member.name, depth + 1, visited);
        }
      }
    };
    follow(name, 1, new Set());
    return found;
  };
  return Object.assign(callsOf, { names: bodies.keys() });
}

/** The spec's relatively imported files and theirs, within the bounds, parsed. */
function projectFiles(specFile: string, specText: string): ts.SourceFile[] {
  const files: ts.SourceFile[] = [];
  const seen = new Set<string>();
  let frontier = relativeImports(ts.createSourceFile(specFile, specText, ts.ScriptTarget.Latest, true), path.dirname(specFile));
  for (let depth = 0; depth < LIMITS.importDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const file of frontier) {
      if (seen.has(file) || files.length >= LIMITS.files) continue;
      seen.add(file);
      const source = parsed(file);
      if (!source) continue;
      files.push(source);
      next.push(...relativeImports(source, path.dirname(file)));
    }
    frontier = next;
  }
  return files;
}

function parsed(file: string): ts.SourceFile | undefined {
  try {
    if (statSync(file).size > LIMITS.fileBytes) return undefined;
    return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  } catch {
    return undefined;
  }
}

/** The files a module's relative imports and re-exports name, as they exist on disk. */
function relativeImports(source: ts.SourceFile, dir: string): string[] {
  const specifiers = source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : [],
  );
  return specifiers.flatMap((specifier) => relativeModuleFile(dir, specifier) ?? []);
}

/** Every named function's or method's body in the files: methods, function declarations, `name = () => …`. */
function functionBodies(files: readonly ts.SourceFile[]): Map<string, ts.Node[]> {
  const bodies = new Map<string, ts.Node[]>();
  const add = (name: ts.Node | undefined, body: ts.Node | undefined) => {
    if (!name || !body || !(ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))) return;
    bodies.set(name.text, [...(bodies.get(name.text) ?? []), body]);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) add(node.name, node.body);
    else if ((ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node)) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) add(node.name, node.initializer.body);
    ts.forEachChild(node, visit);
  };
  files.forEach(visit);
  return bodies;
}

/** The calls in a body (`x.fill(…)`, `this.open()`, `signIn(page)`), and whether each is the project's own (on `this`, or a plain function). */
function memberCalls(body: ts.Node): Array<{ name: string; onThis: boolean }> {
  const calls: Array<{ name: string; onThis: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      calls.push({ name: node.expression.name.text, onThis: node.expression.expression.kind === ts.SyntaxKind.ThisKeyword });
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      calls.push({ name: node.expression.text, onThis: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return calls;
}
