/**
 * `--untrusted` on the command line: `scribe validate --untrusted` adds the allow-list gate to the rules,
 * and `scribe run --untrusted` refuses a spec the gate stops before anything runs, and runs one it passes,
 * saying so when it runs without the OS sandbox.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Issue, RunnerReport } from '../../src/contracts.ts';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { osSandboxAvailable } from '../../src/agents/runner/sandbox.ts';
import { FAKE_BWRAP_ERROR, fakeBwrap } from '../fixtures/fake-bwrap.ts';
import { scribe } from './cli-harness.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const HOSTILE = fileURLToPath(new URL('../fixtures/hostile/', import.meta.url));
const SCREENSHOT_PAYLOAD = '29-screenshot-absolute-path.spec.ts';
const GOOD = `import { test, expect } from '@playwright/test';

test('the login page shows its heading', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-heading')).toBeVisible();
  await page.screenshot({ path: 'screenshots/login.png' });
});
`;

let dir: string;
let app: DemoApp;

beforeAll(async () => {
  app = await startDemoApp();
  // Inside the repository, so a run resolves @playwright/test as a user's project would.
  dir = mkdtempSync(path.join(REPO, 'test', '.untrusted-run-'));
  copyFileSync(path.join(HOSTILE, SCREENSHOT_PAYLOAD), path.join(dir, 'hostile.spec.ts'));
  writeFileSync(path.join(dir, 'good.spec.ts'), GOOD);
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('scribe validate --untrusted', () => {
  it('adds the gate to the rules; without the flag a human suite keeps its rules', async () => {
    const plain = await scribe(['validate', 'hostile.spec.ts', '--no-type-check', '--json'], { cwd: dir });
    const gated = await scribe(['validate', 'hostile.spec.ts', '--no-type-check', '--untrusted', '--json'], { cwd: dir });
    const rules = (stdout: string) => (JSON.parse(stdout) as { files: Array<{ issues: Issue[] }> }).files[0]!.issues.map((i) => `${i.line}:${i.rule}`);
    expect(rules(plain.stdout)).not.toContain('11:allowed-paths');
    expect(rules(gated.stdout)).toContain('11:allowed-paths');
    expect(gated.code).toBe(1);
  });
});

describe('terminal output of what a spec wrote', () => {
  it('prints findings without control sequences: no clipboard write (OSC 52), title, clear screen or bidi override', async () => {
    const sequences = '\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b]0;pwned\u0007\u001b[2J\u001b[H\u202e';
    writeFileSync(path.join(dir, 'control.spec.ts'), GOOD.replace("'screenshots/login.png'", `'/tmp/${sequences}shot.png'`));
    const validate = await scribe(['validate', 'control.spec.ts', '--no-type-check', '--untrusted'], { cwd: dir });
    const run = await scribe(['run', 'control.spec.ts', '--untrusted', '--url', app.url], { cwd: dir });
    for (const { stdout, stderr } of [validate, run]) {
      expect(stdout).toContain('allowed-paths');
      expect(stdout).toContain('"/tmp/shot.png" is an absolute path');
      expect(stdout + stderr).not.toMatch(/[\u0007\u001b\u202e]/);
    }
    // --json keeps the text as it is, escaped by JSON.
    const json = await scribe(['validate', 'control.spec.ts', '--no-type-check', '--untrusted', '--json'], { cwd: dir });
    expect(json.stdout).toContain('\\u001b]52;c;');
  });
});

describe('scribe run --untrusted', () => {
  it('refuses a spec the gate stops, names the line, and runs nothing', async () => {
    const run = await scribe(['run', 'hostile.spec.ts', '--untrusted', '--url', app.url], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^REFUSED {2}hostile\.spec\.ts {2}not run: the allow-list gate for untrusted code found\n/);
    expect(run.stdout).toContain("  hostile.spec.ts:11:29  allowed-paths  screenshot() option `path`: \"/tmp/scribe-hostile/marker.png\" is an absolute path");
    expect(existsSync(path.join(dir, 'test-results'))).toBe(false);

    const json = await scribe(['run', 'hostile.spec.ts', '--untrusted', '--url', app.url, '--json'], { cwd: dir });
    const document = JSON.parse(json.stdout) as RunnerReport & { issues: Issue[] };
    expect(RunnerReport.parse(document)).toMatchObject({ status: 'error', classification: 'test_bug', duration_ms: 0, error_line: 11 });
    expect(document.issues.map((i) => i.rule)).toEqual(['allowed-paths']);
    expect(json.code).toBe(1);
  });

  it('runs a spec the gate passes', async () => {
    const run = await scribe(['run', 'good.spec.ts', '--untrusted', '--url', app.url, '--json'], { cwd: dir });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'pass', classification: 'pass', containment: { os_sandbox: osSandboxAvailable(process.env) } });
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(dir, 'good.spec.ts'), 'utf8')).toBe(GOOD);
  });

  it('says so, and why, when the run goes without the OS sandbox (`auto` where bubblewrap cannot make one)', async () => {
    const fake = fakeBwrap();
    try {
      const run = await scribe(['run', 'good.spec.ts', '--untrusted', '--url', app.url], { cwd: dir, env: { PATH: fake.path } });
      expect(run.stdout).toMatch(/^PASS {2}good\.spec\.ts/);
      expect(run.stdout).toContain(`Ran without the OS sandbox: bwrap failed: ${FAKE_BWRAP_ERROR}`);
      expect(run.code).toBe(0);
      expect(fake.starts()).toBe(1);
    } finally {
      fake.remove();
    }
  });
});
