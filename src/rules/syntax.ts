import { fromCompilerDiagnostic } from '../analysis/type-diagnostic.ts';
import { noOptions } from '../util/zod-helpers.ts';
import { defineRule } from './types.ts';
import { diagnosticFindings } from './utils/diagnostics.ts';

export default defineRule({
  id: 'syntax',
  description: 'The spec parses as TypeScript.',
  fixable: false,
  safety: true,
  options: noOptions,
  check: (model) => diagnosticFindings(model.syntaxDiagnostics().map(fromCompilerDiagnostic), () => ''),
});
