/** The gate's module policy: which packages a spec may import, and which of the project's own modules. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ts } from '../../util/typescript.js';
import { GatePolicy, isRelative } from './policy.ts';

/** What a project module may be: code. Data (.json, .env), a native addon (.node) or anything else would reach the model as text or run unread. */
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** What Node would load for an import without extension when no code module matches. */
const DATA_EXTENSIONS = ['.json', '.node'];

export class ModulePolicy extends GatePolicy {
  protected imports(): void {
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
}

export function importsTest(declaration: ts.ImportDeclaration): boolean {
  const bindings = declaration.importClause?.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.some((e) => (e.propertyName ?? e.name).text === 'test');
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
