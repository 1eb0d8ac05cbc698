/** Turns validations into the `validate --json` document and the human, linter-style text. */
import path from 'node:path';
import pc from 'picocolors';
import type { ValidateReport } from '../contracts.ts';
import { missingPackageOf } from '../rules/type-check.ts';
import { printable } from '../util/terminal.ts';
import type { FileValidation } from './validator.ts';

/**
 * A package that is not installed where the specs are checked (or a folder the checkout lacks) is a fact about
 * the checkout, not a fault of each spec that imports it: its per-file type-check warnings become one warning per package for the run,
 * naming how many files import it, the first of them, and what to install or configure.
 */
export function withMissingPackagesFolded<R extends Pick<FileValidation, 'file' | 'issues'>>(results: readonly R[], cwd: string): { results: R[]; warnings: string[] } {
  const importers = new Map<string, Array<{ file: string; line: number }>>();
  const folded = results.map((result) => {
    const issues = result.issues.filter((issue) => {
      const missing = missingPackageOf(issue);
      if (missing === undefined) return true;
      importers.set(missing, [...(importers.get(missing) ?? []), { file: path.relative(cwd, result.file) || result.file, line: issue.line }]);
      return false;
    });
    return issues.length === result.issues.length ? result : { ...result, issues };
  });
  const warnings = [...importers].map(([name, files]) => {
    const first = files[0]!;
    const count = files.length === 1 ? 'a spec file imports it' : `${files.length} spec files import it`;
    if (path.isAbsolute(name)) {
      const folder = path.relative(cwd, name) || name;
      return `type-check: the folder "${folder}" is not in the checkout where the specs are checked (${count.replace(/it$/, 'from it')}, first ${first.file}:${first.line}), so what they import from it is not type-checked: check it out (a partial or sparse checkout lacks it), or fix the import path`;
    }
    return `type-check: "${name}" is not installed where the specs are checked (${count}, first ${first.file}:${first.line}), so what it exports is not type-checked: npm install it, or, if it is an alias, declare it in the compilerOptions.paths of the tsconfig.json that applies to those files`;
  });
  return { results: folded, warnings };
}

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
