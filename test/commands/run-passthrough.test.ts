/**
 * `scribe run` with Playwright's test flags: --grep picks tests by title as Playwright does, --reporter
 * shows Playwright's own reporter, and the summary is per test; a relative --url resolves against the base URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerReport } from '../../src/contracts.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { scribe } from './cli-harness.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TWO_TESTS = `import { test, expect } from '@playwright/test';

test('the login page shows its heading', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-heading')).toBeVisible();
});

test('the search page shows a heading it does not have', async ({ page }) => {
  await page.goto('/search');
  await expect(page.getByTestId('no-such-heading')).toBeVisible({ timeout: 500 });
});
`;

let dir: string;
let app: DemoApp;

beforeAll(async () => {
  app = await startDemoApp();
  // Inside the repository, so a run resolves @playwright/test as a user's project would.
  dir = mkdtempSync(path.join(REPO, 'test', '.run-passthrough-'));
  writeFileSync(path.join(dir, 'two.spec.ts'), TWO_TESTS);
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('scribe run with Playwright flags', () => {
  it('reports each test; --grep runs only the matching one; --reporter list shows Playwright’s own lines', async () => {
    const both = await scribe(['run', 'two.spec.ts', '--url', app.url, '--json'], { cwd: dir });
    const report = RunnerReport.parse(JSON.parse(both.stdout));
    expect(both.code).toBe(1);
    expect(report.tests?.map((t) => [t.line, t.title, t.status])).toEqual([
      [3, 'the login page shows its heading', 'passed'],
      [8, 'the search page shows a heading it does not have', 'failed'],
    ]);

    const grep = await scribe(['run', 'two.spec.ts', '--url', app.url, '--grep', 'login page', '--reporter', 'list'], { cwd: dir });
    expect(grep.code, grep.stderr).toBe(0);
    expect(grep.stdout).toMatch(/✓ +1 .*the login page shows its heading/);
    expect(grep.stdout).toMatch(/PASS {2}two\.spec\.ts/);
    expect(grep.stdout).toMatch(/✓ two\.spec\.ts:3 {2}the login page shows its heading/);
    expect(grep.stdout).not.toMatch(/search page/);
  }, 240_000);

  it('resolves a relative --url against BASE_URL; refuses flags to pass through to a contained run', async () => {
    const relative = await scribe(['run', 'two.spec.ts', '--url', '/', '--grep', 'login', '--json'], { cwd: dir, env: { BASE_URL: app.url } });
    expect(relative.code, relative.stderr).toBe(0);
    const contained = await scribe(['run', 'two.spec.ts', '--url', app.url, '--untrusted', '--headed'], { cwd: dir });
    expect(contained.code).toBe(2);
    expect(contained.stderr).toContain('pass through to trusted runs only');
  }, 240_000);
});
