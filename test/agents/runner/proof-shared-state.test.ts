/**
 * A spec that tries to pass its proof through state it leaves behind. The specs below assert only what the
 * search page shows before any action (vacuous: its proof must say `unproved`), unless it finds a trace of
 * an earlier run of itself, in which case it asserts text the page never shows, so that its proof copy fails
 * and looks proved. Each is checked by the real gate, as every generated spec is; those the gate passes run
 * contained with their proof copy, which must not see what the spec's run left: a module variable, the
 * context's cookies, a context left open in the browser, a custom matcher, a project module's exported array.
 * What the gate refuses (globalThis, process.env, storage written by a page function) never runs.
 *
 * Why the proof copy has a worker process of its own: run after the spec in the spec's worker (tried, with
 * `workers: 1`), it saw the last three (the browser connection's contexts, expect's matchers and the module
 * cache are the worker's), and none of them can be reset through Playwright's API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContained } from '../../../src/agents/contained-run.ts';
import { loadCriticConfig } from '../../../src/config/critic.ts';
import { startDemoApp, type DemoApp } from '../../../src/demo-app/server.ts';
import { passGate, untrustedValidator } from '../../../src/validate/gate.ts';
import { bundledRunTarget } from '../../fixtures/run-target.ts';

let app: DemoApp;
let project: string;

beforeAll(async () => {
  app = await startDemoApp();
  project = mkdtempSync(path.join(tmpdir(), 'scribe-proof-state-'));
  // A project module with an exported array, as test data modules have: generated code may call its members.
  writeFileSync(path.join(project, 'data.ts'), 'export const visits: string[] = [];\n');
});
afterAll(async () => {
  await app.close();
  rmSync(project, { recursive: true, force: true });
});

/** The spec: `seen` is how much of an earlier run it can see; the mark leaves a trace of this one after the actions. */
function hostileSpec({ imports = '', declare = '', seen, mark }: { imports?: string; declare?: string; seen: string; mark: string }): string {
  return `import { test, expect } from '@playwright/test';
${imports}${declare}
test('search', async ({ page }) => {
  await page.goto('/search.html');
  const seen = ${seen};
  await page.getByTestId('search-input').fill('playwright');
  await page.getByTestId('search-button').click();
  ${mark}
  await expect(page.getByTestId('search-heading')).toHaveText(['Search the docs', 'never shown'].at(seen) ?? '');
  await page.screenshot({ path: 'search.png' });
});
`;
}

/**
 * Every channel at once, in one spec (one contained run): its `seen` counts what it finds of an earlier run in
 * a module variable, the context's cookies and storage (which it reads; a page function may not write it), the
 * browser connection's contexts, expect's matchers and a project module's exported array. Any one of them seen by the proof copy makes it fail, and look proved.
 */
const LEAKING_SPEC = hostileSpec({
  imports: "import { visits } from './data';\n",
  declare: 'let runs = 0;\n',
  seen: [
    'runs',
    '(await page.context().cookies()).length',
    'await page.evaluate(() => localStorage.length)',
    'page.context().browser()!.contexts().length - 1',
    "['function'].indexOf(typeof expect(1).toBeSeen) + 1",
    'visits.length',
  ].join(' + '),
  mark: [
    'runs += 1;',
    "await page.context().addCookies([{ name: 'seen', value: '1', url: page.url() }]);",
    'await page.context().browser()!.newContext();',
    "expect.extend({ toBeSeen: (received: number) => ({ pass: received > 0, message: () => 'seen' }) });",
    "visits.push('search');",
  ].join('\n  '),
});

const REFUSED: Record<string, string> = {
  globalThis: hostileSpec({ seen: 'Number((globalThis as Record<string, unknown>).scribeSeen ?? 0)', mark: '(globalThis as Record<string, unknown>).scribeSeen = 1;' }),
  'process.env': hostileSpec({ seen: 'Number(process.env.SCRIBE_SEEN ?? 0)', mark: "process.env.SCRIBE_SEEN = '1';" }),
  // A page function may only read (no-page-state-scripts): the context's storage is written through the page or not at all.
  'storage written by a page function': hostileSpec({ seen: 'await page.evaluate(() => localStorage.length)', mark: "await page.evaluate(() => localStorage.setItem('seen', '1'));" }),
};

const gate = () => untrustedValidator(loadCriticConfig(), { projectRoot: project, typeCheck: false });

describe('a spec that leaves state behind for its proof copy', { timeout: 180_000 }, () => {
  it('through a module variable, cookies, an open context, a matcher or a project module passes the gate, runs green, and is still not proved', async () => {
    const verdict = passGate(gate(), path.join(project, 'search.spec.ts'), LEAKING_SPEC);
    if (!verdict.passed) throw new Error(`the gate refused it: ${verdict.issues.map((issue) => issue.message).join('; ')}`);
    const report = await runContained(verdict.spec, { baseURL: app.url, cwd: project, proof: {}, ...bundledRunTarget() });
    expect(report.classification, report.error_message ?? '').toBe('pass');
    expect(report.proof?.verdict, report.proof?.message).toBe('unproved');
  });

  it.each(Object.entries(REFUSED))('through %s is refused by the gate before anything runs', (_, text) => {
    const verdict = passGate(gate(), path.join(project, 'search.spec.ts'), text);
    expect(verdict.passed).toBe(false);
  });
});
