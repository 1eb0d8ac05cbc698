import { z } from 'zod';
import { environmentReads } from '../analysis/environment.ts';
import { ruleOptions } from '../util/zod-helpers.ts';
import { defineRule, type Finding } from './types.ts';

const Options = ruleOptions({
  /** Variables a spec may always read, set or not (they have fallbacks in the Playwright config). */
  allowed: z.array(z.string().min(1)),
});

/**
 * The credentials contract, before the run: a spec that reads `process.env.X` where X is neither a
 * declared credential variable nor set gets `undefined` at run time (`locator.fill: value: expected
 * string, got undefined`), which no heal can fix. It is sent back naming X and the declared variables.
 */
export default defineRule({
  id: 'no-undeclared-env',
  description: 'Every environment variable a spec reads is a declared credential variable, an allowed one, or set.',
  fixable: false,
  options: Options,
  check(model, options, env) {
    // Outside a generation the run's environment is unknown (`scribe validate` on a suite whose CI sets
    // its own secrets), so nothing is known to be unset.
    if (!env.env) return [];
    const declared = Object.values(env.credentials ?? {});
    const known = new Set([...declared, ...options.allowed]);
    const set = env.env;
    const findings: Finding[] = [];
    for (const { node, name } of environmentReads(model)) {
      if (known.has(name) || set[name] !== undefined) continue;
      const roles = Object.entries(env.credentials ?? {}).map(([role, variable]) => `process.env.${variable} (${role})`);
      findings.push({
        node,
        message:
          `process.env.${name} is neither declared nor set, so it is undefined when the test runs. ` +
          (roles.length > 0 ? `Credentials come from the declared variables: ${roles.join(', ')}` : 'No credential variables are declared') +
          `; use one of them, or declare ${name} under settings.credentials in agents/critic.yaml.`,
      });
    }
    return findings;
  },
});
