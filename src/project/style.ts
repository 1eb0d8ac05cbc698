/**
 * The project's own style (contracts.ts ProjectStyle): its fixtures modules and page objects, found in the
 * Playwright config's folder and testDir, with their exported members, and the seed spec agents/scribe.yaml
 * names. Read from the source text alone (no module is loaded): a file is a fixtures module when it exports
 * the result of an `.extend(...)` call, a page object when it exports a class whose constructor takes a `Page`.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/load.ts';
import type { ProjectStyle } from '../contracts.ts';
import { filesBreadthFirst } from '../util/fs.ts';
import { ts } from '../util/typescript.js';
import type { ScribeConfig } from '../config/scribe.ts';
import type { ProjectContext } from './context.ts';

/** Bounds: the prompt names at most this many modules and members each, and reads at most this many files. */
export const STYLE_LIMITS = { modules: 12, members: 20, filesRead: 400, depth: 5, seedChars: 4000 } as const;

const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const NOT_A_MODULE = /(\.(spec|test)\.[cm]?[jt]s$|\.d\.[cm]?ts$|^playwright\.config\.)/;
const SKIPPED = new Set(['node_modules', 'test-results', 'playwright-report', 'blob-report', 'dist', 'build', 'coverage']);

export function readProjectStyle(project: Pick<ProjectContext, 'cwd' | 'playwright' | 'outputDir'> & { agents: { scribe: Pick<ScribeConfig, 'generation'> } }): ProjectStyle {
  const roots = [...new Set([project.playwright?.configDir ?? project.cwd, project.playwright?.project.testDir].filter((dir): dir is string => dir !== undefined))];
  const files = [...new Set(roots.flatMap((root) => codeFiles(root, project.outputDir)))].slice(0, STYLE_LIMITS.filesRead);
  const modules = files.flatMap((file) => {
    const found = moduleStyle(file);
    return found ? [found] : [];
  });
  return { modules: modules.slice(0, STYLE_LIMITS.modules), seed: readSeed(project.cwd, project.agents.scribe.generation.seed_spec) };
}

function readSeed(cwd: string, seedSpec: string | undefined): ProjectStyle['seed'] {
  if (!seedSpec) return null;
  const file = path.resolve(cwd, seedSpec);
  try {
    const text = readFileSync(file, 'utf8');
    return { file: seedSpec, text: text.length > STYLE_LIMITS.seedChars ? `${text.slice(0, STYLE_LIMITS.seedChars)}\n// … (cut at ${STYLE_LIMITS.seedChars} characters)` : text };
  } catch (error) {
    throw new ConfigError([{ file: 'agents/scribe.yaml', key: 'generation.seed_spec', line: 0, message: `cannot read the seed spec ${seedSpec} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
}

/** Code files below `root` (not specs, declarations, configs, dependencies, hidden folders or the output folder), breadth first. */
function codeFiles(root: string, outputDir: string): string[] {
  return filesBreadthFirst(root, {
    depth: STYLE_LIMITS.depth,
    files: STYLE_LIMITS.filesRead,
    enters: (entry, full) => !SKIPPED.has(entry.name) && full !== outputDir,
    keeps: (entry) => CODE_FILE.test(entry.name) && !NOT_A_MODULE.test(entry.name),
  });
}

function moduleStyle(file: string): ProjectStyle['modules'][number] | undefined {
  let text: string;
  try {
    if (statSync(file).size > 200_000) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // Cheap test first: most files are neither.
  if (!/\.extend\b|constructor\s*\(/.test(text)) return undefined;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const fixtures: string[] = [];
  const pages: string[] = [];
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const names = extendedFixtures(declaration.initializer);
        if (names && ts.isIdentifier(declaration.name)) fixtures.push(names.length > 0 ? `${declaration.name.text} (fixtures: ${names.join(', ')})` : declaration.name.text);
      }
    } else if (ts.isClassDeclaration(statement) && statement.name && takesPage(statement)) {
      const members = statement.members.flatMap((member) => (isPublicMember(member) && member.name && ts.isIdentifier(member.name) ? [member.name.text] : []));
      pages.push(members.length > 0 ? `${statement.name.text} (${members.slice(0, STYLE_LIMITS.members).join(', ')})` : statement.name.text);
    }
  }
  if (fixtures.length > 0) return { file, kind: 'fixtures', members: [...fixtures, ...otherExports(source)].slice(0, STYLE_LIMITS.members) };
  if (pages.length > 0) return { file, kind: 'page object', members: pages.slice(0, STYLE_LIMITS.members) };
  return undefined;
}

/** The fixture names of `X.extend<{ a: A }>({ a: … })`: the type argument's members, else the object's keys; undefined when not such a call. */
function extendedFixtures(initializer: ts.Expression | undefined): string[] | undefined {
  if (!initializer || !ts.isCallExpression(initializer)) return undefined;
  const callee = initializer.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'extend') return undefined;
  const typed = initializer.typeArguments?.[0];
  if (typed && ts.isTypeLiteralNode(typed)) return typed.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
  const object = initializer.arguments[0];
  if (object && ts.isObjectLiteralExpression(object)) return object.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
  return [];
}

/** The module's other exported names (`expect` re-exported beside `test`, helpers). */
function otherExports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) return statement.exportClause.elements.map((e) => e.name.text);
    if (!isExported(statement)) return [];
    if (ts.isFunctionDeclaration(statement) && statement.name) return [statement.name.text];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) && !extendedFixtures(d.initializer) ? [d.name.text] : []));
    return [];
  });
}

function takesPage(declaration: ts.ClassDeclaration): boolean {
  return declaration.members.some((member) => ts.isConstructorDeclaration(member) && member.parameters.some((p) => p.type !== undefined && ts.isTypeReferenceNode(p.type) && /(^|\.)Page$/.test(p.type.typeName.getText(declaration.getSourceFile()))));
}

function isPublicMember(member: ts.ClassElement): boolean {
  if (ts.isConstructorDeclaration(member)) return false;
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  return !modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
}

function isExported(statement: ts.Statement): boolean {
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}
