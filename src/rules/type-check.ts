import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import type { ts } from '../util/typescript.js';
import { diagnosticFindings } from './utils/diagnostics.ts';
import { diagnosticReadsAny, untypedDeclarations, type DeclarationOf } from './utils/unresolved-imports.ts';

export default defineRule({
  id: 'type-check',
  description: "The spec type-checks against the real @playwright/test types, so an invented API is caught before it runs.",
  fixable: false,
  safety: true,
  needsTypes: true,
  options: ruleOptions({ strict: z.boolean() }),
  check: (model) => {
    const hint = (code: number, text: string) => hintFor(code, text, path.dirname(model.sourceFile.fileName));
    return oncePerModule(diagnosticFindings(withoutKnockOns(model.sourceFile, model.semanticDiagnostics(), (id) => model.declarationOf(id)), hint));
  },
});

/** "Cannot find module" (TS2307, and TS2792 under a resolution mode that cannot see it). */
const MODULE_NOT_FOUND = new Set([2307, 2792]);
/** "Cannot find name" (TS2304; TS2552, its form with a suggestion, is folded into it). */
const NAME_NOT_FOUND = new Set([2304, 2552, 2582, 2580]);
/** "Expected N arguments, but got M" and its variants. */
const ARITY = new Set([2554, 2555, 2556, 2575]);
/** "Property 'x' does not exist on type 'T'" (TS2551 with a suggestion). */
const NO_SUCH_PROPERTY = new Set([2339, 2551]);
/** Playwright's own types: a member missing there is an invented API. */
const PLAYWRIGHT_TYPE = /on type '(Page|Locator|FrameLocator|Frame|BrowserContext|Browser|APIRequestContext|APIResponse|Response|Request|Keyboard|Mouse|ElementHandle|JSHandle|TestType<[^']*>|Expect<[^']*>|PlaywrightTestArgs[^']*)'/;

const NOT_INSTALLED = ' is not installed where the specs are checked';
const NOT_CHECKED_OUT = ' is not in the checkout where the specs are checked';

/**
 * The outermost folder on the way to a relative import's target that does not exist (another package of a
 * monorepo, a build's output), or undefined when the target's folder is there and only the file is not (a
 * wrong path). A partial or sparse checkout lacks whole folders; a typo names a file beside real ones.
 */
function absentFolder(specFolder: string, specifier: string): string | undefined {
  // A spec checked before it is written (a generation's answer) has no folder to tell a checkout by.
  if (!existsSync(specFolder)) return undefined;
  let folder = path.dirname(path.resolve(specFolder, specifier));
  if (existsSync(folder)) return undefined;
  while (!existsSync(path.dirname(folder))) folder = path.dirname(folder);
  return folder;
}

/**
 * An import that does not resolve is reported itself; the errors that flow from it are not: a diagnostic
 * whose expression reads a name that traces to such an import (untyped to the checker). A missing name or
 * module is never a knock-on: an untyped import cannot make either.
 */
function withoutKnockOns(sourceFile: ts.SourceFile, diagnostics: readonly TypeDiagnostic[], declarationOf: DeclarationOf): readonly TypeDiagnostic[] {
  const unresolved = new Set(diagnostics.filter((d) => MODULE_NOT_FOUND.has(d.code)).flatMap((d) => /module '([^']+)'/.exec(d.text)?.[1] ?? []));
  if (unresolved.size === 0) return diagnostics;
  const untyped = untypedDeclarations(sourceFile, unresolved, declarationOf);
  return diagnostics.filter((d) => MODULE_NOT_FOUND.has(d.code) || NAME_NOT_FOUND.has(d.code) || !diagnosticReadsAny(sourceFile, d.start, untyped, declarationOf));
}

function hintFor(code: number, text: string, specFolder: string): string {
  if (MODULE_NOT_FOUND.has(code)) {
    const specifier = /module '([^']+)'/.exec(text)?.[1] ?? '';
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      const absent = absentFolder(specFolder, specifier);
      return absent === undefined ? '; no such file: check the import path' : `; "${absent}"${NOT_CHECKED_OUT}`;
    }
    return `; "${packageOf(specifier)}"${NOT_INSTALLED} (npm install it), or, if it is an alias, declare it in the tsconfig.json compilerOptions.paths that applies to this file (Scribe reads the nearest one)`;
  }
  if (NAME_NOT_FOUND.has(code)) return "; declare it: an app's global in a .d.ts file the nearest tsconfig.json includes, a browser global with lib \"dom\"";
  if (ARITY.has(code)) return '; the call passes a different number of arguments than the function takes';
  if (NO_SUCH_PROPERTY.has(code) && PLAYWRIGHT_TYPE.test(text)) return '; use only the real @playwright/test API';
  return '';
}

/**
 * The package a type-check finding says is not installed where the specs are checked, or the folder (an absolute
 * path) it says the checkout lacks; undefined for any other finding.
 */
export function missingPackageOf(issue: { rule: string; message: string }): string | undefined {
  if (issue.rule !== 'type-check') return undefined;
  return new RegExp(`; "([^"]+)"(${NOT_INSTALLED}|${NOT_CHECKED_OUT})`).exec(issue.message)?.[1];
}

/** npm's package name of an import: `@scope/name` or `name`, without the path inside it. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * A module that does not resolve is one warning per package in a file (what to install or configure), not an
 * error at each import: the spec is not wrong, the place it is checked lacks the package.
 */
function oncePerModule(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.flatMap((finding) => {
    const missing = /^Cannot find module '([^']+)'/.exec(finding.message);
    if (!missing) return [finding];
    const specifier = missing[1]!;
    const key = specifier.startsWith('.') ? specifier : packageOf(specifier);
    if (seen.has(key)) return [];
    seen.add(key);
    return [finding.message.includes(NOT_INSTALLED) || finding.message.includes(NOT_CHECKED_OUT) ? { ...finding, severity: 'warning' as const } : finding];
  });
}
