/**
 * The trust boundary. Code a model may have written is checked by a validator made here and runs
 * contained only as a GatedSpec, which only the gate hands out:
 *
 *   untrustedValidator  the generated-spec policy (every rule) plus the allow-list gate, for what
 *                       Scribe, the Critic and the Medic check;
 *   safetyGate          the safety rules alone (the allow-list gate and the rules declared `safety`), for a
 *                       run of a spec whose author is not known (MCP run_spec, `run --untrusted`): a
 *                       person's safe spec runs whatever its style;
 *   passGate            a spec through one of them: a GatedSpec, or the errors that refuse it.
 *
 * Both apply every rule to the whole text: suppression comments are not honoured in untrusted code.
 */
import path from 'node:path';
import type { CriticConfig } from '../config/critic.ts';
import type { Issue } from '../contracts.ts';
import type { Rule } from '../rules/types.ts';
import { Validator, type ValidatorOptions } from './validator.ts';

/**
 * A spec the gate passed: the text that was checked, and where it lives or will live. The class is not
 * exported, only its type: nothing but passGate makes one, and its private field makes the type nominal
 * (no object literal is a GatedSpec).
 */
class Gated {
  readonly #gated = true;
  readonly file: string;
  readonly text: string;

  constructor(file: string, text: string) {
    this.file = file;
    this.text = text;
  }

  static is(value: unknown): value is Gated {
    return typeof value === 'object' && value !== null && #gated in value;
  }
}

export type GatedSpec = Gated;

/** Whether `value` is a spec the gate handed out: the contained run's check at its entry. */
export function isGatedSpec(value: unknown): value is GatedSpec {
  return Gated.is(value);
}

export type GateVerdict = { passed: true; spec: GatedSpec } | { passed: false; issues: Issue[] };

export type UntrustedValidatorOptions = Omit<ValidatorOptions, 'untrusted'> & {
  /** The project the code belongs to: its relative imports must resolve inside it. */
  projectRoot: string;
};

/** The validator for model-written code: every rule enabled in `critic`, the allow-list gate among them. */
export function untrustedValidator(critic: CriticConfig, options: UntrustedValidatorOptions): Validator {
  const { projectRoot, ...rest } = options;
  return new Validator(critic, { ...rest, untrusted: { projectRoot: path.resolve(projectRoot) } });
}

/** The validator for people's own specs: their rules, their suppression comments, no allow-list gate. */
export function peopleValidator(critic: CriticConfig, options: Omit<ValidatorOptions, 'untrusted'> = {}): Validator {
  return new Validator(critic, options);
}

/** Whether a rule keeps code from reaching the machine (as opposed to a matter of test style). */
export function isSafetyRule(rule: Rule<unknown>): boolean {
  return rule.untrustedOnly === true || rule.safety === true;
}

/** `critic` with only its safety rules. */
export function safetyRules(critic: CriticConfig): CriticConfig {
  return { ...critic, rules: critic.rules.filter((active) => isSafetyRule(active.rule)) };
}

/**
 * The gate before running a spec anyone may have written: the safety rules of `critic`, as for untrusted
 * code. Made from `from`, it shares that validator's compiler work.
 */
export function safetyGate(critic: CriticConfig, options: UntrustedValidatorOptions & { from?: Validator }): Validator {
  const { from, ...rest } = options;
  if (from) return from.withConfig(safetyRules(critic)).forUntrustedCode(rest.projectRoot);
  return untrustedValidator(safetyRules(critic), rest);
}

/** A spec through the gate: passed, the GatedSpec the contained run takes; else the errors that refuse it. */
export function passGate(gate: Validator, file: string, text: string): GateVerdict {
  if (!gate.untrusted) throw new TypeError('passGate needs a validator for untrusted code (untrustedValidator or safetyGate)');
  const absolute = path.resolve(file);
  const errors = gate.validateText(absolute, text).issues.filter((issue) => issue.severity === 'error');
  return errors.length === 0 ? { passed: true, spec: new Gated(absolute, text) } : { passed: false, issues: errors };
}
