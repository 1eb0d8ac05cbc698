import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRITIC_PATH, loadCriticConfig } from '../../src/config/critic.ts';
import { ConfigError } from '../../src/config/load.ts';
import { RULES } from '../../src/rules/index.ts';

const bundled = readFileSync(DEFAULT_CRITIC_PATH, 'utf8');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-critic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function load(text: string) {
  const file = path.join(dir, 'critic.yaml');
  writeFileSync(file, text);
  return { file, config: () => loadCriticConfig(file) };
}

function problemsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('agents/critic.yaml', () => {
  it('enables every built-in rule, each with its reason', () => {
    const config = loadCriticConfig();
    expect(config.rules.map((r) => r.rule.id).sort()).toEqual(RULES.map((r) => r.id).sort());
    for (const active of config.rules) expect(active.reason.length).toBeGreaterThan(10);
    expect(config.testIdAttribute).toBe('data-testid');
  });

  it('reports an unknown rule id with the file, key, line and a suggestion', () => {
    const { file, config } = load(bundled.replace('  no-page-pause:', '  no-page-pauses:'));
    const [problem] = problemsOf(config);
    const line = bundled.split('\n').findIndex((l) => l === '  no-page-pause:') + 1;
    expect(problem).toMatchObject({ file, key: 'rules.no-page-pauses', line });
    expect(problem!.message).toContain('unknown rule id');
    expect(problem!.message).toContain('"no-page-pause"');
  });

  it('reports an option of the wrong type at its own line', () => {
    const { config } = load(bundled.replace('      max: 10', '      max: ten'));
    const [problem] = problemsOf(config);
    expect(problem!.key).toBe('rules.max-steps.options.max');
    expect(problem!.line).toBe(bundled.split('\n').findIndex((l) => l === '      max: 10') + 1);
  });

  it("checks each gate rule's options against its own schema", () => {
    // allowed-paths' key under allowed-code is a typo there; a scheme without its colon is allowed-paths' error.
    const misplaced = load(bundled.replace('      relative_imports: true', '      relative_imports: true\n      url_schemes: []'));
    expect(problemsOf(misplaced.config).map((p) => p.key)).toEqual(['rules.allowed-code.options']);
    expect(problemsOf(misplaced.config)[0]!.message).toContain('url_schemes');
    const badScheme = load(bundled.replace('      url_schemes: []', '      url_schemes: [https]'));
    const [problem] = problemsOf(badScheme.config);
    expect(problem).toMatchObject({ key: 'rules.allowed-paths.options.url_schemes[0]', line: bundled.split('\n').findIndex((l) => l === '      url_schemes: []') + 1 });
    expect(problem!.message).toContain('a scheme such as https:');
  });

  it("refuses a context method or option allowed-code lets through whose files allowed-paths would not check", () => {
    const line = (text: string) => bundled.split('\n').findIndex((l) => l === text) + 1;
    const addedMethod = problemsOf(load(bundled.replace('context_methods: [newContext, newPage]', 'context_methods: [newContext, newPage, launchPersistentContext]')).config);
    expect(addedMethod).toHaveLength(1);
    expect(addedMethod[0]).toMatchObject({ key: 'rules.allowed-code.options.context_methods[2]', line: line('      context_methods: [newContext, newPage]') });
    expect(addedMethod[0]!.message).toContain("launchPersistentContext: allowed-paths' option_arguments must list it too");
    const droppedContainer = problemsOf(load(bundled.replace('option_containers: [recordHar, recordVideo, clientCertificates, proxy]', 'option_containers: [recordVideo, clientCertificates, proxy]')).config);
    expect(droppedContainer.map((p) => p.key)).toEqual(['rules.allowed-code.options.context_options[1]']);
    expect(droppedContainer[0]!.message).toContain("recordHar: allowed-paths' option_containers");
    // A preset that overrides allowed-paths alone is told at its own list.
    const preset = problemsOf(
      load(bundled.replace(/^presets:\n/m, 'presets:\n  narrow:\n    off: []\n    options:\n      allowed-paths: { option_arguments: { screenshot: 0 } }\n')).config,
    );
    expect(preset.map((p) => p.key)).toEqual(['presets.narrow.options.allowed-paths.option_arguments', 'presets.narrow.options.allowed-paths.option_arguments']);
  });

  it('reports an invalid regex in a custom rule', () => {
    const { config } = load(`${bundled.replace('custom_rules: []', '')}\ncustom_rules:\n  - id: no-xpath\n    severity: error\n    reason: XPath is brittle.\n    match: selector\n    pattern: '(unclosed'\n`);
    const [problem] = problemsOf(config);
    expect(problem!.key).toBe('custom_rules[0].pattern');
    expect(problem!.message).toMatch(/invalid regular expression/);
    expect(problem!.line).toBeGreaterThan(bundled.split('\n').length - 5);
  });

  it('reports a bad severity and broken YAML with their lines', () => {
    const badSeverity = problemsOf(load(bundled.replace(/(no-eval:\n    severity: )error/, '$1fatal')).config);
    expect(badSeverity[0]!.key).toBe('rules.no-eval.severity');
    const broken = problemsOf(load('version: 1\nsettings:\n  test_id_attribute: [unclosed\n').config);
    expect(broken[0]!.message).toMatch(/invalid YAML/);
    expect(broken[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('refuses a custom rule that takes a built-in id', () => {
    const { config } = load(`${bundled.replace('custom_rules: []', '')}\ncustom_rules:\n  - id: no-eval\n    severity: error\n    reason: Taken.\n    match: method\n    pattern: '^x$'\n`);
    expect(problemsOf(config)[0]!.message).toMatch(/already taken/);
  });
});
