import { z } from 'zod';
import { ruleOptions } from '../config/zod-helpers.ts';
import { diagnosticFindings } from './helpers.ts';
import { defineRule } from './types.ts';

export default defineRule({
  id: 'type-check',
  description: "The spec type-checks against the real @playwright/test types, so an invented API is caught before it runs.",
  fixable: false,
  options: ruleOptions({ strict: z.boolean() }),
  check: (model) => diagnosticFindings(model.semanticDiagnostics(), '; use only the real @playwright/test API'),
});
