/**
 * The globals a project declares in its own sources, which the user's editor sees because tsc loads every
 * file the tsconfig includes: a `declare global` block in a module (an app's `window.invokeOrders`), or the
 * top-level declarations of a script (a .ts file without import or export). Scribe's program holds the specs
 * and what they import, so these declarations are taken out of the included files and given to it as
 * declaration text, without the modules those files import: loading them would bring a whole app's source
 * into every check. A type the block takes from such an import is unknown there, so the global is typed
 * loosely (any) rather than reported missing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from '../util/typescript.js';

/** A project source's global declarations, as the text of a declaration file. */
export interface ProjectGlobals {
  source: string;
  declarations: string;
}

/** TypeScript sources that can declare globals (JavaScript is parsed by the program, never checked for them). */
const TYPESCRIPT_SOURCE = /\.(?:tsx?|mts|cts)$/;
/** An ES module's import or export at the start of a line: a file with none may be a script. */
const MODULE_SYNTAX = /^[ \t]*(?:import|export)\b/m;

/** Whether a config's file may declare globals for its specs: a TypeScript source, not a declaration file (the program loads those whole), not a package's. */
export function mayDeclareGlobals(file: string): boolean {
  return TYPESCRIPT_SOURCE.test(file) && !file.endsWith('.d.ts') && !file.includes(`${path.sep}node_modules${path.sep}`);
}

/**
 * The global declarations of these sources. Each file is read as bytes and parsed only if a cheap look
 * says it may declare globals (it has `declare global`, or no line starts with import or export), so a
 * monorepo's thousands of ordinary modules cost one read each.
 */
export function projectGlobals(sources: readonly string[]): ProjectGlobals[] {
  return sources.flatMap((source) => {
    const text = readIfMayDeclareGlobals(source);
    const declarations = text === undefined ? undefined : globalDeclarations(source, text);
    return declarations === undefined ? [] : [{ source, declarations }];
  });
}

function readIfMayDeclareGlobals(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const latin1 = bytes.toString('latin1');
  if (!latin1.includes('declare global') && MODULE_SYNTAX.test(latin1)) return undefined;
  return bytes.toString('utf8');
}

/**
 * The global declarations of one source as a declaration file's text, or undefined when it declares none:
 * a module's `declare global` blocks as they are (they are ambient already), a script's top-level
 * declarations as the compiler's declaration output for it. `.mts`/`.cts` files are always modules.
 */
export function globalDeclarations(file: string, text: string): string | undefined {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file));
  if (ts.isExternalModule(sourceFile) || /\.[mc]ts$/.test(file)) {
    const blocks = sourceFile.statements.filter(isGlobalAugmentation).map((block) => block.getText(sourceFile));
    return blocks.length === 0 ? undefined : `export {};\n${blocks.join('\n')}\n`;
  }
  if (!sourceFile.statements.some(isDeclaration)) return undefined;
  const output = ts.transpileDeclaration(text, { fileName: file, compilerOptions: { jsx: ts.JsxEmit.Preserve } }).outputText.trim();
  return output === '' ? undefined : `${output}\n`;
}

/** Where a source's global declarations are given to the compiler: a name of their own beside it, which no file on disk has. */
export function globalsFileName(source: string): string {
  return `${source}.scribe-globals.d.ts`;
}

function isGlobalAugmentation(statement: ts.Statement): boolean {
  return ts.isModuleDeclaration(statement) && (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0;
}

function isDeclaration(statement: ts.Statement): boolean {
  return (
    ts.isVariableStatement(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  );
}

function scriptKind(file: string): ts.ScriptKind {
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}
