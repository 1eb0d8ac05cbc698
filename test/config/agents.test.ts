/**
 * agents/*.yaml as overrides: only what the user writes changes, merged over the bundled defaults (rules
 * by id, a rule's keys one by one, lists replaced). Checked through the real CLI on a spec that breaks
 * many rules, the safety rules among them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentsSource, deepMerge, loadAgents } from '../../src/config/agents.ts';
import { ConfigError } from '../../src/config/load.ts';
import { scribe } from '../commands/cli-harness.ts';
import { writeOverride } from './overrides.ts';

/** A hard-coded password, a fixed wait, an absolute URL, a generated CSS class, fs and eval, and no assertion. */
const MANY_BREAKS = `import { test } from '@playwright/test';
import { readFileSync } from 'node:fs';

test('log in', async ({ page }) => {
  await page.goto('http://localhost:3000/login');
  await page.locator('.css-1x2y3z').click();
  await page.getByTestId('password').fill('hunter2-secret');
  await page.waitForTimeout(2000);
  readFileSync('/etc/passwd', 'utf8');
  eval('1 + 1');
});
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-agents-'));
  writeFileSync(path.join(dir, 'login.spec.ts'), MANY_BREAKS);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));


interface Finding {
  rule: string;
  severity: string;
  line: number;
}

/** The findings of the real CLI under every rule (generated); the type check is off: it is not what an override changes, and its compiler took most of the time. */
async function findings(): Promise<{ code: number; issues: Finding[]; warnings?: string[]; stderr: string }> {
  const run = await scribe(['validate', 'login.spec.ts', '--json', '--no-type-check', '--preset', 'generated'], { cwd: dir, env: { BASE_URL: '' } });
  const report = JSON.parse(run.stdout) as { files: Array<{ issues: Finding[] }>; warnings?: string[] };
  const issues = report.files[0]!.issues.map(({ rule, severity, line }) => ({ rule, severity, line }));
  return { code: run.code, issues, warnings: report.warnings, stderr: run.stderr };
}

const key = (f: Finding) => `${f.rule}:${f.line}`;

describe('a partial critic.yaml', () => {
  it('changes the one rule it names and leaves every other finding as the bundled rules give it, safety rules included', async () => {
    const bundled = await findings();
    const errorRules = new Set(bundled.issues.filter((i) => i.severity === 'error').map((i) => i.rule));
    for (const rule of ['no-hardcoded-credentials', 'no-wait-for-timeout', 'no-hardcoded-base-url', 'no-generated-css-class', 'expect-expect', 'no-dangerous-apis', 'no-forbidden-imports']) {
      expect(errorRules, rule).toContain(rule);
    }

    writeOverride(dir, 'critic.yaml', 'rules:\n  no-wait-for-timeout:\n    severity: warning\n');
    const partial = await findings();
    expect(partial.code).toBe(1);
    const changed = partial.issues.filter((i) => i.rule === 'no-wait-for-timeout');
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((i) => i.severity === 'warning')).toBe(true);
    const others = (list: Finding[]) => list.filter((i) => i.rule !== 'no-wait-for-timeout').map((i) => `${key(i)}:${i.severity}`).sort();
    expect(others(partial.issues)).toEqual(others(bundled.issues));
    expect(partial.warnings).toBeUndefined();
  });

  it('merges a rule key by key: options changed, severity and reason kept', async () => {
    writeOverride(dir, 'critic.yaml', 'rules:\n  no-hardcoded-base-url:\n    severity: warning\n');
    const agents = loadAgents(dir);
    const entry = agents.critic.criteria.find((c) => c.id === 'no-hardcoded-base-url')!;
    expect(entry.severity).toBe('warning');
    expect(entry.reason.length).toBeGreaterThan(10);
    expect(agents.critic.criteria.map((c) => c.id)).toContain('type-check');
  });

  it('switches a safety rule off only when named, and says so on every run (stderr and --json)', async () => {
    writeOverride(dir, 'critic.yaml', 'rules:\n  no-dangerous-apis:\n    severity: off\n');
    const run = await findings();
    expect(run.issues.map((i) => i.rule)).not.toContain('no-dangerous-apis');
    expect(run.issues.map((i) => i.rule)).toContain('no-forbidden-imports');
    expect(run.warnings).toEqual([expect.stringMatching(/switches off safety rule no-dangerous-apis/)]);
    expect(run.stderr).toMatch(/warning: .*critic\.yaml switches off safety rule no-dangerous-apis/);
  });

  it('names the file, the key and the line of a bad value in an override', async () => {
    const file = writeOverride(dir, 'critic.yaml', '# mine\nrules:\n  no-nth-methods:\n    severity: sometimes\n');
    const run = await scribe(['validate', 'login.spec.ts', '--no-type-check'], { cwd: dir, env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:4: rules.no-nth-methods.severity:`);
  });

  it('a rule the bundled file does not know needs a complete entry, its reason included', () => {
    writeOverride(dir, 'critic.yaml', 'rules:\n  no-nth-method:\n    severity: error\n');
    const problems = (() => {
      try {
        loadAgents(dir);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems).toContainEqual(expect.objectContaining({ key: 'rules.no-nth-method.reason', line: 2 }));
  });
});

describe('other agents/*.yaml overrides', () => {
  it('merge mappings key by key and replace lists', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] } })).toEqual({ a: { b: 1, c: [3] }, d: 'x' });
    writeOverride(dir, 'scribe.yaml', 'generation:\n  max_retries: 2\n');
    const agents = loadAgents(dir);
    expect(agents.scribe.generation.max_retries).toBe(2);
    expect(agents.scribe.generation.output_dir).toBe('generated-tests');
    expect(agents.named('scribe.yaml', ['generation', 'max_retries'])).toBe(true);
    expect(agents.named('scribe.yaml', ['generation', 'output_dir'])).toBe(false);
    expect(agents.overrides).toEqual([path.join(dir, 'agents', 'scribe.yaml')]);
  });

  it('reports problems of several files at once, each in its own file', () => {
    const runner = writeOverride(dir, 'runner.yaml', 'timeouts:\n  test_ms: 999999999\n');
    const server = writeOverride(dir, 'server.yaml', 'jobs:\n  concurrency: 0\n');
    expect(() => loadAgents(dir)).toThrow(ConfigError);
    try {
      loadAgents(dir);
    } catch (error) {
      const problems = (error as ConfigError).problems.map((p) => `${p.file}:${p.line}: ${p.key}`);
      expect(problems).toEqual([`${runner}:2: timeouts.test_ms`, `${server}:2: jobs.concurrency`]);
    }
  });

  it('an empty override changes nothing; a list at the top is refused', () => {
    writeOverride(dir, 'workflow.yaml', '');
    expect(agentsSource('workflow.yaml', dir).merged.data).toEqual(agentsSource('workflow.yaml', path.join(dir, 'none')).merged.data);
    writeOverride(dir, 'workflow.yaml', '- a\n');
    expect(() => agentsSource('workflow.yaml', dir)).toThrow(/holds a mapping/);
  });
});
