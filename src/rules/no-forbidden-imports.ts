import { ts } from '../util/typescript.js';
import { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  /** Packages a spec may import (a package's subpaths too: `@playwright/test/reporter`). */
  allowed: z.array(z.string().min(1)),
  /** Whether the project's own modules (`./fixtures`, `../pages/login`) may be imported. */
  allow_relative: z.boolean(),
});
type Options = z.infer<typeof Options>;

interface ModuleLoad {
  node: ts.Node;
  /** The module named; undefined when it is computed at run time. */
  module: string | undefined;
  how: string;
}

export default defineRule({
  id: 'no-forbidden-imports',
  description: 'A spec may import only the allowed packages (default @playwright/test) and, if allowed, relative modules.',
  fixable: false,
  safety: true,
  options: Options,
  check(model, options) {
    const findings: Finding[] = [];
    for (const load of moduleLoads(model)) {
      if (load.module !== undefined && isAllowed(load.module, options)) continue;
      const allowed = listed([...options.allowed, ...(options.allow_relative ? ['relative modules (./…)'] : [])]);
      findings.push({
        node: load.node,
        message: load.module === undefined
          ? `${load.how} loads a module whose name is computed at run time, so it cannot be checked; name an allowed module literally (allowed: ${allowed}).`
          : `${load.how} of "${load.module}" is not allowed: a spec may import only ${allowed}; use Playwright's own APIs (page, request, fixtures) instead.`,
      });
    }
    return findings;
  },
});

/** Every place the file loads a module: import, export … from, import = require, require(), import(). */
function moduleLoads(model: SpecModel): ModuleLoad[] {
  const loads: ModuleLoad[] = [];
  const literal = (specifier: ts.Expression | undefined) => (specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined);
  for (const declaration of model.nodes<ts.ImportDeclaration>(ts.SyntaxKind.ImportDeclaration)) {
    loads.push({ node: declaration.moduleSpecifier, module: literal(declaration.moduleSpecifier), how: 'Import' });
  }
  for (const declaration of model.nodes<ts.ExportDeclaration>(ts.SyntaxKind.ExportDeclaration)) {
    if (declaration.moduleSpecifier) loads.push({ node: declaration.moduleSpecifier, module: literal(declaration.moduleSpecifier), how: 'Re-export' });
  }
  for (const declaration of model.nodes<ts.ImportEqualsDeclaration>(ts.SyntaxKind.ImportEqualsDeclaration)) {
    const reference = declaration.moduleReference;
    if (ts.isExternalModuleReference(reference)) loads.push({ node: reference.expression, module: model.stringValue(reference.expression), how: 'import = require()' });
  }
  for (const call of model.calls) {
    if (!model.isModuleLoader(call.expression)) continue;
    const isImport = call.expression.kind === ts.SyntaxKind.ImportKeyword;
    const specifier = call.arguments[0];
    loads.push({ node: specifier ?? call, module: specifier ? model.stringValue(specifier) : undefined, how: isImport ? 'import()' : `${model.text(call.expression)}()` });
  }
  return loads;
}

function isAllowed(module: string, options: Options): boolean {
  if (options.allow_relative && (module.startsWith('./') || module.startsWith('../') || module === '.' || module === '..')) return true;
  return options.allowed.some((allowed) => module === allowed || module.startsWith(`${allowed}/`));
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? 'nothing') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
