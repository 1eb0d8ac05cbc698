import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { scribe } from './cli-harness.ts';

const specs = fileURLToPath(new URL('../fixtures/specs/', import.meta.url));
const critic = loadCriticConfig();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-sarif-'));
  copyFileSync(path.join(specs, 'clean.spec.ts'), path.join(dir, 'clean.spec.ts'));
  copyFileSync(path.join(specs, 'planted.spec.ts'), path.join(dir, 'planted.spec.ts'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The parts of SARIF 2.1.0 (OASIS) this output uses, with the spec's constraints on them. */
const absoluteUri = z.string().refine((uri) => URL.canParse(uri), 'an absolute URI');
const Message = z.strictObject({ text: z.string().min(1) });
const ArtifactLocation = z.strictObject({ uri: z.string().min(1), uriBaseId: z.string().optional(), index: z.number().int().nonnegative().optional() });
const Sarif = z.strictObject({
  $schema: absoluteUri,
  version: z.literal('2.1.0'),
  runs: z.array(
    z.strictObject({
      tool: z.strictObject({
        driver: z.strictObject({
          name: z.string().min(1),
          fullName: z.string().optional(),
          version: z.string(),
          semanticVersion: z.string(),
          rules: z.array(
            z.strictObject({
              id: z.string().min(1),
              name: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
              shortDescription: Message,
              fullDescription: Message,
              help: z.strictObject({ text: z.string().min(1), markdown: z.string().min(1) }),
              helpUri: absoluteUri.optional(),
              defaultConfiguration: z.strictObject({ level: z.enum(['none', 'note', 'warning', 'error']), enabled: z.boolean() }),
              properties: z.record(z.string(), z.unknown()),
            }),
          ),
        }),
      }),
      originalUriBaseIds: z.record(z.string(), z.strictObject({ uri: absoluteUri.refine((uri) => uri.endsWith('/'), 'a base URI ends with /') })),
      artifacts: z.array(z.strictObject({ location: ArtifactLocation })),
      results: z.array(
        z.strictObject({
          ruleId: z.string(),
          ruleIndex: z.number().int().nonnegative(),
          level: z.enum(['none', 'note', 'warning', 'error']),
          message: Message,
          locations: z
            .array(
              z.strictObject({
                physicalLocation: z.strictObject({
                  artifactLocation: ArtifactLocation,
                  region: z.strictObject({ startLine: z.number().int().min(1), startColumn: z.number().int().min(1).optional() }).optional(),
                }),
              }),
            )
            .min(1),
          properties: z.record(z.string(), z.unknown()),
        }),
      ),
      columnKind: z.enum(['utf16CodeUnits', 'unicodeCodePoints']),
      invocations: z.array(z.strictObject({ executionSuccessful: z.boolean() })),
    }),
  ),
});

describe('scribe validate --format sarif', () => {
  it('is SARIF 2.1.0: every rule of critic.yaml with its reason and docs, every issue at its line and column', async () => {
    const run = await scribe(['validate', '.', '--format', 'sarif'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const sarif = Sarif.parse(JSON.parse(run.stdout));
    const [only] = sarif.runs;
    const { rules } = only!.tool.driver;

    // Every configured rule, in critic.yaml's order, its reason as help.
    expect(rules.map((r) => r.id)).toEqual(critic.criteria.map((c) => c.id));
    for (const criterion of critic.criteria) {
      const rule = rules.find((r) => r.id === criterion.id)!;
      expect(rule.help.text).toBe(criterion.reason);
      expect(rule.fullDescription.text).toBe(criterion.reason);
      expect(rule.defaultConfiguration.level).toBe(criterion.severity === 'off' ? 'none' : criterion.severity);
    }
    const evalRule = rules.find((r) => r.id === 'no-eval')!;
    expect(evalRule.helpUri).toMatch(/^file:\/\/.*\/docs\/rules\/no-eval\.md$/);
    expect(evalRule.help.markdown).toContain('# no-eval');

    // Results point at the planted file by rule index, relative to SRCROOT, at 1-based positions.
    expect(only!.originalUriBaseIds.SRCROOT!.uri).toBe(`file://${dir}/`);
    expect(only!.artifacts.map((a) => a.location)).toEqual([
      { uri: 'clean.spec.ts', uriBaseId: 'SRCROOT' },
      { uri: 'planted.spec.ts', uriBaseId: 'SRCROOT' },
    ]);
    const json = await scribe(['validate', '.', '--json'], { cwd: dir });
    const issues = JSON.parse(json.stdout).files.flatMap((f: { issues: unknown[] }) => f.issues) as Array<{ rule: string; line: number; column: number; severity: string; message: string }>;
    expect(issues.length).toBeGreaterThan(3);
    expect(only!.results).toHaveLength(issues.length);
    for (const [index, issue] of issues.entries()) {
      const result = only!.results[index]!;
      expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(result).toMatchObject({
        ruleId: issue.rule,
        level: issue.severity,
        message: { text: issue.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'planted.spec.ts', uriBaseId: 'SRCROOT', index: 1 }, region: { startLine: issue.line, startColumn: issue.column } } }],
      });
    }
    expect(only!.results.map((r) => `${r.locations[0]!.physicalLocation.region!.startLine}:${r.ruleId}`)).toEqual(expect.arrayContaining(['5:missing-playwright-await', '8:no-hardcoded-credentials']));
  });

  it('a clean run has no results and exits 0; custom rules and --json with --format are handled', async () => {
    writeFileSync(
      path.join(dir, 'critic.yaml'),
      `version: 1\nsettings:\n  test_id_attribute: data-testid\nrules:\n  no-eval:\n    severity: warning\n    reason: No eval, please.\ncustom_rules:\n  - id: no-xpath\n    severity: error\n    reason: XPath selectors are brittle.\n    match: selector\n    pattern: '^(xpath=|//)'\n`,
    );
    const clean = await scribe(['validate', 'clean.spec.ts', '--format', 'sarif', '--rules', 'critic.yaml'], { cwd: dir });
    expect(clean.code).toBe(0);
    const sarif = Sarif.parse(JSON.parse(clean.stdout));
    expect(sarif.runs[0]!.results).toEqual([]);
    // --rules is an override merged over the bundled rules: the two it names are as it says, the others stay.
    const described = sarif.runs[0]!.tool.driver.rules;
    expect(described.filter((r) => ['no-eval', 'no-xpath'].includes(r.id)).map((r) => [r.id, r.defaultConfiguration.level, r.help.text])).toEqual([
      ['no-eval', 'warning', 'No eval, please.'],
      ['no-xpath', 'error', 'XPath selectors are brittle.'],
    ]);
    expect(described.map((r) => r.id)).toContain('no-dangerous-apis');
    expect(described.find((r) => r.id === 'no-xpath')!.properties).toMatchObject({ tags: ['playwright', 'custom'], configuredAt: 'critic.yaml:9' });

    const both = await scribe(['validate', 'clean.spec.ts', '--json', '--format', 'sarif'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('pick one');
  });
});
