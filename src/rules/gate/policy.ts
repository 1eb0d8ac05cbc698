/**
 * The state every policy of the allow-list gate (allowed-code) shares: the spec's model, the rule's options from
 * agents/critic.yaml, the lists they make, and the findings so far. Each policy of src/rules/gate/ extends the
 * one before it: modules, own objects, load-time code, globals, Playwright members; allowed-code.ts walks the file.
 */
import { z } from 'zod';
import type { SpecModel } from '../../analysis/model.ts';
import { ts } from '../../util/typescript.js';
import { ruleOptions } from '../../util/zod-helpers.ts';
import type { Finding, RuleEnvironment } from '../types.ts';
import { extendedFixtureNames } from '../utils/untrusted-values.ts';

export const Options = ruleOptions({
  /** Packages a spec may import from, each with the names it may use as values (types are always fine). */
  imports: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Whether the project's own modules (a fixtures file, page objects) may be imported: resolved inside the project, never into node_modules. */
  relative_imports: z.boolean(),
  /** Playwright fixtures a test may ask for (`{ page, request }`); fixtures the spec or its fixtures module defines are fine too. */
  fixtures: z.array(z.string().min(1)),
  /** The environment variables a spec may read besides the declared credentials, always as `process.env.NAME`. */
  env: z.array(z.string().min(1)),
  /** Globals a spec may use, each with the members it may reach on it (`Math: [floor, random]`). */
  globals: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Member names a spec may use on Playwright's objects and on ordinary values (strings, arrays, promises, dates). */
  members: z.array(z.string().min(1)),
  /** Options `test.use({...})` may set; the browser's executable and arguments are not among them. */
  use_options: z.array(z.string().min(1)),
  /** Methods that make a browser context or page (`browser.newContext({...})`): their options come from use_options and these. */
  context_methods: z.array(z.string().min(1)),
  /** Options a new context may set besides use_options (its recordings, whose paths allowed-paths checks). */
  context_options: z.array(z.string().min(1)),
  /** Methods whose function argument runs in the browser page, not in Node (`page.evaluate(() => document.title)`). */
  page_functions: z.array(z.string().min(1)),
});
export type Options = z.infer<typeof Options>;

/** What every object and function inherits: a value's own keys are fine, these reach its prototype and constructor. */
export const INHERITED = new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype']);

export function isRelative(module: string): boolean {
  return module === '.' || module === '..' || module.startsWith('./') || module.startsWith('../');
}

export function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/** The keys of every `expect.extend({...})` object of the file. */
function customMatcherNames(model: SpecModel): Set<string> {
  const names = new Set<string>();
  for (const call of model.calls) {
    if (model.playwrightPath(call.expression) !== 'expect.extend') continue;
    const object = call.arguments[0] && model.objectLiteral(call.arguments[0]);
    for (const property of object?.properties ?? []) {
      const name = model.propertyName(property);
      if (name !== undefined && !name.startsWith('_')) names.add(name);
    }
  }
  return names;
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
    protected readonly options: Options,
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
