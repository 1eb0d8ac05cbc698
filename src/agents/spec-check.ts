/**
 * What Scribe and the Medic do alike with the spec in a model's answer: validate it against
 * agents/critic.yaml, apply the safe autofixes when they would help, and validate the result.
 */
import type { Issue } from '../contracts.ts';
import type { AppliedFix, Validator } from '../validate/validator.ts';

/** The issue of an answer that held no code: not a critic rule, but a failed attempt all the same. */
export const NO_CODE_RULE = 'no-code-block';

export interface CheckedSpec {
  /** The code after autofix. */
  code: string;
  /** What is left after autofix. */
  issues: Issue[];
  autofixed: AppliedFix[];
}

/** Validate; when problems with a safe fix are found, autofix and validate the result. */
export function checkSpec(validator: Validator, file: string, code: string, autofix = true): CheckedSpec {
  const first = validator.validateText(file, code);
  if (!autofix || !first.issues.some((i) => i.fixable)) return { code, issues: first.issues, autofixed: [] };
  const fixed = validator.fix(file, code);
  return { code: fixed.text, issues: fixed.validation.issues, autofixed: fixed.applied };
}

export function errorsOf(issues: readonly Issue[]): Issue[] {
  return issues.filter((i) => i.severity === 'error');
}

/** The rule ids of the error-level issues, once each. */
export function errorRuleIds(issues: readonly Issue[]): string[] {
  return [...new Set(errorsOf(issues).map((i) => i.rule))];
}

/** `message` is agents/scribe.yaml's `prompts.no_code`: the model is told what was wrong in its own words. */
export function noCodeIssue(message: string): Issue {
  return {
    rule: NO_CODE_RULE,
    severity: 'error',
    message,
    line: 0,
    column: 0,
    fixable: false,
  };
}
