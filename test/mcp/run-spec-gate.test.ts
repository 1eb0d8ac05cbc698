/**
 * MCP run_spec runs a file the calling model may have written: the whole hostile corpus, sent through
 * the real `scribe mcp` with the SDK's client, is refused before anything runs, each refusal naming the
 * gate rule at the payload's line; a safe spec a person wrote, which breaks the generated-spec style
 * policy, still runs and passes.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerReport } from '../../src/contracts.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { connectStdio, type StdioSession } from './harness.ts';

const HOSTILE = fileURLToPath(new URL('../fixtures/hostile/', import.meta.url));
const SPEC_DIR = path.join('tests', 'generated', 'login');
const LONG = { timeout: 120_000, resetTimeoutOnProgress: true };

/**
 * A person's spec: CSS and role selectors, `.first()`, no screenshot. The generated-spec
 * policy refuses it (require-testid-selectors, no-nth-methods, require-screenshot); it is safe, so it runs.
 */
const HUMAN_SPEC = `import { test, expect } from '@playwright/test';

test('search finds the locators guide', async ({ page }) => {
  await page.goto('/search');
  await page.locator('input[type=search]').first().fill('locators');
  await page.getByRole('button', { name: /search/i }).click();
  await expect(page.locator('[data-testid=search-results]')).toContainText('Locators and test ids');
});
`;

/** The same safe spec with a payload behind a suppression comment: the gate does not honour it. */
const DISABLED_PAYLOAD = `/* scribe-disable */
import { execSync } from 'node:child_process';
import { test, expect } from '@playwright/test';

test('search', async ({ page }) => {
  execSync('touch /tmp/scribe-hostile/marker-disabled');
  await page.goto('/search');
  await expect(page.getByTestId('search-heading')).toBeVisible();
});
`;

interface HostileSpec {
  name: string;
  markers: Array<{ rule: string; line: number }>;
}

const hostile: HostileSpec[] = readdirSync(HOSTILE)
  .filter((name) => name.endsWith('.spec.ts'))
  .sort()
  .map((name) => ({
    name,
    markers: readFileSync(path.join(HOSTILE, name), 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const marker = /\/\/ gate: ([a-z-]+)$/.exec(line);
        return marker ? [{ rule: marker[1]!, line: index + 1 }] : [];
      }),
  }));

let app: DemoApp;
let project: ScribeProject;
let session: StdioSession;

beforeAll(async () => {
  app = await startDemoApp();
  project = makeScribeProject();
  mkdirSync(path.join(project.dir, SPEC_DIR), { recursive: true });
  for (const spec of hostile) copyFileSync(path.join(HOSTILE, spec.name), path.join(project.dir, SPEC_DIR, spec.name));
  writeFileSync(path.join(project.dir, 'human.spec.ts'), HUMAN_SPEC);
  writeFileSync(path.join(project.dir, 'disabled.spec.ts'), DISABLED_PAYLOAD);
  const browser = process.env.SCRIBE_BROWSER ? { SCRIBE_BROWSER: process.env.SCRIBE_BROWSER } : {};
  session = await connectStdio({ cwd: project.dir, env: project.env('http://127.0.0.1:9/v1', browser) });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await app?.close();
  project?.remove();
});

/** The refusal's text, or the report of a run that happened. */
async function runSpec(spec: string): Promise<{ isError: boolean; text: string; report: unknown }> {
  const result = await session.client.callTool({ name: 'run_spec', arguments: { path: spec, url: app.url } }, undefined, LONG);
  return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]!.text, report: result.structuredContent };
}

/** Where a run's temporary folder goes (agents/runner.yaml paths.temp_dir under the Scribe home): made by the first run. */
const runsStarted = () => existsSync(path.join(project.home, 'tmp'));

describe('MCP run_spec gates what it runs', { timeout: 600_000 }, () => {
  it('refuses every spec of the hostile corpus before it runs, naming the gate rule at the payload', async () => {
    expect(hostile.length).toBeGreaterThanOrEqual(46);
    for (const spec of hostile) {
      const relative = path.join(SPEC_DIR, spec.name);
      const result = await runSpec(relative);
      expect(result.isError, spec.name).toBe(true);
      expect(result.text, spec.name).toMatch(new RegExp(`^refused to run ${relative.replaceAll('.', '\\.')}: it breaks `));
      for (const marker of spec.markers) expect(result.text, spec.name).toMatch(new RegExp(`:${marker.line}:\\d+ {2}${marker.rule} `));
    }
    expect(runsStarted()).toBe(false);
  });

  it('does not honour a scribe-disable comment', async () => {
    const result = await runSpec('disabled.spec.ts');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^refused to run disabled\.spec\.ts: it breaks .*no-dangerous-apis/);
    expect(result.text).toMatch(/disabled\.spec\.ts:2:\d+ {2}allowed-code /);
    expect(runsStarted()).toBe(false);
  });

  it('runs a safe spec a person wrote, whatever its style', async () => {
    const result = await runSpec('human.spec.ts');
    expect(result.isError, result.text).toBe(false);
    expect(RunnerReport.parse(result.report)).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(runsStarted()).toBe(true);
  });
});
