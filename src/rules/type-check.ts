import { z } from 'zod';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule } from './types.ts';
import { diagnosticFindings } from './utils/diagnostics.ts';

export default defineRule({
  id: 'type-check',
  description: "The spec type-checks against the real @playwright/test types, so an invented API is caught before it runs.",
  fixable: false,
  options: ruleOptions({ strict: z.boolean() }),
  check: (model) => diagnosticFindings(model.semanticDiagnostics(), hintFor),
});

/** "Cannot find module" (TS2307, and TS2792 under a resolution mode that cannot see it). */
const MODULE_NOT_FOUND = new Set([2307, 2792]);

function hintFor(code: number): string {
  return MODULE_NOT_FOUND.has(code)
    ? "; the import does not resolve from this file: check its path, or declare the alias in the project's tsconfig.json compilerOptions.paths (Scribe reads them)"
    : '; use only the real @playwright/test API';
}
