/**
 * The allow-list gate against a hostile corpus: each spec in test/fixtures/hostile is a plausible generated
 * test with one hidden payload, its line marked `// gate: <rule>`. Validated as model-written code, each
 * must be stopped by that rule at that line. Good generated specs (the offline generator's for the demo
 * app, the scripted model answers, page objects and data tables) must pass the gate untouched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadExploreSettings } from '../../src/config/explore.ts';
import { loadOfflineVocabulary } from '../../src/config/offline.ts';
import { launchOptions } from '../../src/explore/browser.ts';
import { exploreUrl } from '../../src/explore/inventory.ts';
import { extractCode } from '../../src/llm/extract.ts';
import { OfflineProvider } from '../../src/llm/offline.ts';
import { DEMO_REQUESTS } from '../../src/workflow/demo.ts';
import { Validator } from '../../src/validate/validator.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { GOOD_SPEC, STRICT_MODE, STRICT_MODE_HEALED } from '../fixtures/model-answers.ts';

const HOSTILE = fileURLToPath(new URL('../fixtures/hostile/', import.meta.url));
const GOOD = fileURLToPath(new URL('../fixtures/gate-good/', import.meta.url));
/** A project as Scribe sees one: generated specs go into its tests/generated/<feature>/ folder. */
const PROJECT = '/work/project';
const SPEC_DIR = path.join(PROJECT, 'tests', 'generated', 'login');
const GATE_RULES = new Set(['allowed-code', 'allowed-paths']);

const critic = loadCriticConfig();
const gate = new Validator(critic, { typeCheck: false }).forUntrustedCode(PROJECT);
const gateIssues = (file: string, text: string) => gate.validateText(file, text).issues.filter((i) => GATE_RULES.has(i.rule));

interface Marker {
  rule: string;
  line: number;
}

const hostile = readdirSync(HOSTILE)
  .filter((name) => name.endsWith('.spec.ts'))
  .sort()
  .map((name) => {
    const text = readFileSync(path.join(HOSTILE, name), 'utf8');
    const markers: Marker[] = text.split('\n').flatMap((line, index) => {
      const marker = /\/\/ gate: ([a-z-]+)$/.exec(line);
      return marker ? [{ rule: marker[1]!, line: index + 1 }] : [];
    });
    return { name, text, markers };
  });

describe('the hostile corpus', () => {
  it('holds at least 46 specs, each with its payload marked and one trick of its own', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(46);
    for (const spec of hostile) expect(spec.markers.length, spec.name).toBeGreaterThan(0);
    expect(new Set(hostile.map((spec) => spec.text)).size).toBe(hostile.length);
  });

  it.each(hostile.map((spec) => [spec.name, spec] as const))('%s is stopped by the gate at its payload', (_name, spec) => {
    const found = gateIssues(path.join(SPEC_DIR, spec.name), spec.text);
    for (const marker of spec.markers) {
      expect(found.filter((i) => i.rule === marker.rule && i.line === marker.line && i.severity === 'error'), `${spec.name}:${marker.line}`).not.toEqual([]);
    }
  });

  it('is not stopped by the gate when the validator is not told the code is model-written (human suites keep their rules)', () => {
    const trusted = new Validator(critic, { typeCheck: false });
    for (const spec of hostile) expect(trusted.validateText(path.join(SPEC_DIR, spec.name), spec.text).issues.filter((i) => GATE_RULES.has(i.rule))).toEqual([]);
  });
});

describe('good generated specs pass the gate', () => {
  it.each(readdirSync(GOOD).filter((name) => name.endsWith('.spec.ts')))('%s (page objects, data tables, API and UI)', (name) => {
    expect(gateIssues(path.join(SPEC_DIR, name), readFileSync(path.join(GOOD, name), 'utf8'))).toEqual([]);
  });

  it("the scripted model's answers and the Medic's heal", () => {
    for (const spec of [GOOD_SPEC, STRICT_MODE, STRICT_MODE_HEALED]) expect(gateIssues(path.join(SPEC_DIR, 'answer.spec.ts'), spec)).toEqual([]);
  });

  describe("the offline generator's specs for the demo app", () => {
    let app: DemoApp;
    let browser: Browser;
    const specs: Array<{ description: string; code: string }> = [];

    beforeAll(async () => {
      [app, browser] = await Promise.all([startDemoApp(), chromium.launch(launchOptions())]);
      const provider = new OfflineProvider(loadOfflineVocabulary());
      const settings = loadExploreSettings();
      for (const request of DEMO_REQUESTS) {
        const url = `${app.url}${request.path}`;
        const inventory = await exploreUrl(url, { testIdAttribute: critic.testIdAttribute, settings, browser });
        const answer = await provider.complete({ messages: [], model: 'offline', temperature: 0, task: { description: request.description, feature: request.feature, url, inventory } });
        specs.push({ description: request.description, code: extractCode(answer.text)! });
      }
    }, 120_000);

    afterAll(async () => {
      await Promise.all([app?.close(), browser?.close()]);
    });

    it('pass every rule, the gate included, type-checked', () => {
      const typed = new Validator(critic, { typeCheck: true }).forUntrustedCode(PROJECT);
      expect(specs).toHaveLength(DEMO_REQUESTS.length);
      for (const spec of specs) {
        const result = typed.validateText(path.join(SPEC_DIR, 'offline.spec.ts'), spec.code);
        expect(result.issues, spec.description).toEqual([]);
      }
    });
  });
});
