/**
 * `scribe eval` in a user's Playwright project whose app only runs through the config's webServer: the
 * app is started (and stopped after) as generate starts it, the specs go under Scribe's home and never
 * into the testDir, and an eval in which nothing was accepted exits 1.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scribe } from './cli-harness.ts';
import { answers } from '../fixtures/closed-url.ts';
import { webServerProject, type WebServerProject } from '../fixtures/web-server-project.ts';

let project: WebServerProject;
let dir: string;
let url: string;
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: '', BASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });

beforeEach(async () => {
  project = await webServerProject();
  ({ dir, url } = project);
});
afterEach(() => project.remove());

function writeRequests(...descriptions: string[]): void {
  writeFileSync(path.join(dir, 'requests.yaml'), `requests:\n${descriptions.map((d) => `  - description: ${JSON.stringify(d)}\n    feature: home\n`).join('')}`);
}

describe('scribe eval in a Playwright project', () => {
  // Each is a whole generation with its run through a real browser: slow on a shared machine.
  it("starts the config's webServer, writes its specs under .scribe/eval/ and none in the testDir", async () => {
    writeRequests('see the title "Welcome"');
    expect(await answers(url)).toBe(false);
    const run = await scribe(['eval', 'requests.yaml', '--json'], { cwd: dir, env: env() });
    const report = JSON.parse(run.stdout) as { specs_dir: string; requests: Array<{ accepted: boolean; run: string | null; spec: string | null }> };
    expect(report.requests).toMatchObject([{ accepted: true, run: 'pass' }]);
    expect(run.code).toBe(0);
    expect(path.relative(path.join(dir, '.scribe', 'eval'), report.specs_dir)).toMatch(/^\d{8}T\d{6}$/);
    expect(readdirSync(report.specs_dir)).toEqual(['01-see-the-title-welcome.provenance.json', '01-see-the-title-welcome.spec.ts']);
    // Its provenance record names no absolute machine path: its critic.yaml and screenshots are the project's.
    const record = readFileSync(path.join(report.specs_dir, '01-see-the-title-welcome.provenance.json'), 'utf8');
    const provenance = JSON.parse(record) as { rules: { critic_config: string }; runner: { screenshots: string[] } };
    expect(provenance.runner.screenshots.length).toBeGreaterThan(0);
    for (const file of [provenance.rules.critic_config, ...provenance.runner.screenshots]) expect(path.isAbsolute(file)).toBe(false);
    expect(provenance.runner.screenshots.every((file) => existsSync(path.join(dir, file)))).toBe(true);
    expect(record).not.toContain(dir);
    expect(readdirSync(path.join(dir, 'e2e'))).toEqual([]);
    expect(existsSync(path.join(dir, 'generated-tests'))).toBe(false);
    // Stopped after, as Playwright stops it.
    expect(await answers(url)).toBe(false);
  }, 240_000);

  it('exits 1 when no spec was accepted', async () => {
    writeRequests('order a large pizza with extra cheese and pay by invoice');
    const run = await scribe(['eval', 'requests.yaml'], { cwd: dir, env: env() });
    expect(run.stdout).toContain('accepted and green 0%');
    expect(run.code).toBe(1);
    expect(readdirSync(path.join(dir, 'e2e'))).toEqual([]);
  }, 240_000);

  it("refuses a description over the request contract's limit, naming the file, key and line, before starting anything", async () => {
    writeFileSync(path.join(dir, 'requests.yaml'), `requests:\n  - description: see the title\n  - description: ${'x'.repeat(100_000)}\n`);
    const run = await scribe(['eval', 'requests.yaml'], { cwd: dir, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(dir, 'requests.yaml')}:3: requests[1].description: must be at most 4000 characters`);
    expect(await answers(url)).toBe(false);
    expect(existsSync(path.join(dir, '.scribe'))).toBe(false);
  });
});
