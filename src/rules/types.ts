import type { ts } from '../util/typescript.js';
import type { z } from 'zod';
import type { SpecModel } from '../analysis/model.ts';
import type { PageInventory } from '../contracts.ts';

/** A replacement of the text between two offsets of the spec. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** What a rule reports; the validator adds rule id, severity, line and column. */
export interface Finding {
  /** Where the problem is: a node, or an offset into the text (compiler diagnostics). */
  node: ts.Node | number;
  message: string;
  /** Safe edits that remove the problem without changing any assertion. */
  fix?: TextEdit[];
  /** Overrides the configured severity (e.g. an ambiguous test id is only a warning). */
  severity?: 'error' | 'warning';
}

/** Facts from outside the spec that some rules need. */
export interface RuleEnvironment {
  testIdAttribute: string;
  /** The explored page, when a URL was given; rules that need it do nothing without it. */
  inventory?: PageInventory;
  /** The declared credential variables by what they hold (critic.yaml settings.credentials). */
  credentials?: Readonly<Record<string, string>>;
  /** The environment the spec will run in (which variables are set), when a generation knows it. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The project the spec belongs to: the gate's relative imports must resolve inside it. */
  projectRoot?: string;
}

export interface Rule<Options = unknown> {
  id: string;
  /** One line for docs and SARIF; the reason shown to people lives in critic.yaml. */
  description: string;
  fixable: boolean;
  /**
   * Part of the allow-list gate for model-written code: runs only when the Validator is told the code
   * is untrusted (Scribe's answers, the Medic's heals, the Critic, `--untrusted`), never on a human suite.
   */
  untrustedOnly?: boolean;
  /**
   * Keeps model-written code from reaching the machine (not a matter of test style): part of the safety gate
   * every run of model code passes, and switching it off is reported on every run.
   */
  safety?: boolean;
  /**
   * Reads the type checker's diagnostics (SpecModel.semanticDiagnostics): its validator builds a compiler
   * program, runs it after the other rules, and does not ask it for fixes.
   */
  needsTypes?: boolean;
  /** Checks the options given in critic.yaml; no defaults here, the YAML holds the values. */
  options: z.ZodType<Options>;
  check(model: SpecModel, options: Options, env: RuleEnvironment): Finding[];
}

export function defineRule<Options>(rule: Rule<Options>): Rule<Options> {
  return rule;
}
