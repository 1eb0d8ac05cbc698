/**
 * The state every policy of the allow-list gate (allowed-code) shares: the spec's model, the rule's options from
 * agents/critic.yaml, the lists they make, and the findings so far. Each policy of src/rules/gate/ extends the
 * one before it: modules, own objects, load-time code, globals, Playwright members; allowed-code.ts walks the file.
 */
import type { SpecModel } from '../../analysis/model.ts';
import { customMatcherNames } from '../../analysis/custom-matchers.ts';
import { ts } from '../../util/typescript.js';
import type { Finding, RuleEnvironment } from '../types.ts';
import type { AllowedCodeOptions } from './options.ts';
import { extendedFixtureNames } from '../../analysis/value-origins.ts';

/** What every object and function inherits: a value's own keys are fine, these reach its prototype and constructor. */
export const INHERITED = new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype']);

export function isRelative(module: string): boolean {
  return module === '.' || module === '..' || module.startsWith('./') || module.startsWith('../');
}

export function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

export class GatePolicy {
  protected readonly found: Finding[] = [];

  protected readonly members: ReadonlySet<string>;

  /** The spec's own matchers (`expect.extend({ toHaveCartTotal })`), usable on expect(...). */
  protected readonly matcherNames: ReadonlySet<string>;

  protected readonly fixtures: ReadonlySet<string>;

  protected readonly env: ReadonlySet<string>;

  constructor(
    protected readonly model: SpecModel,
    protected readonly options: AllowedCodeOptions,
    protected readonly environment: RuleEnvironment,
  ) {
    this.members = new Set(options.members);
    this.matcherNames = customMatcherNames(model);
    this.fixtures = new Set([...options.fixtures, ...extendedFixtureNames(model)]);
    // The declared credential variables (critic.yaml settings.credentials) are always readable: one list, not two.
    this.env = new Set([...options.env, ...Object.values(environment.credentials ?? {})]);
  }

  protected report(node: ts.Node, message: string): void {
    this.found.push({ node, message });
  }

  protected envList(): string {
    return [...this.env].join(', ');
  }
}
