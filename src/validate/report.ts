/** Turns validations into the `validate --json` document and the human, linter-style text. */
import path from 'node:path';
import pc from 'picocolors';
import type { ValidateReport } from '../contracts.ts';
import { printable } from '../util/terminal.ts';
import type { FileValidation } from './validator.ts';

/** The `validate --json` document (the ValidateReport contract); built from typed results, so nothing to re-check. */
export function validateReport(results: readonly FileValidation[], cwd: string): ValidateReport {
  const files = results.map((r) => ({ file: path.relative(cwd, r.file) || r.file, passed: r.passed, issues: r.issues }));
  const all = files.flatMap((f) => f.issues);
  return {
    files,
    summary: {
      files: files.length,
      passed: files.filter((f) => f.passed).length,
      errors: all.filter((i) => i.severity === 'error').length,
      warnings: all.filter((i) => i.severity === 'warning').length,
    },
  };
}

/** `file` then `line:col  severity  message  rule-id` rows, like a good linter. */
export function formatStylish(report: ValidateReport, color: boolean): string {
  const c = pc.createColors(color);
  const out: string[] = [];
  for (const file of report.files) {
    if (file.issues.length === 0) continue;
    out.push(c.underline(printable(file.file)));
    const width = Math.max(...file.issues.map((i) => `${i.line}:${i.column}`.length));
    for (const issue of file.issues) {
      const where = `${issue.line}:${issue.column}`.padEnd(width);
      const severity = issue.severity === 'error' ? c.red('error  ') : c.yellow('warning');
      out.push(`  ${c.dim(`${printable(file.file)}:${where}`)}  ${severity}  ${printable(issue.message)}  ${c.dim(issue.rule)}`);
    }
    out.push('');
  }
  const { files, passed, errors, warnings } = report.summary;
  const problems = errors + warnings;
  const summary =
    problems === 0
      ? c.green(`✔ ${files} file${files === 1 ? '' : 's'} checked, no problems`)
      : `${errors > 0 ? c.red('✖') : c.yellow('!')} ${problems} problem${problems === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}) in ${files - passed} of ${files} file${files === 1 ? '' : 's'}`;
  out.push(summary);
  return `${out.join('\n')}\n`;
}
