/**
 * Playwright's and eslint's command-line habits, through the real CLI: --version, the environment in
 * --help, -c/--config naming another Playwright config, and a request URL checked before anything is
 * explored or written (exit 2).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scribe } from './cli-harness.ts';

const packageJson = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };
let dir: string;

/** Every file under the folder, relative, sorted. */
function files(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-conventions-'));
  mkdirSync(path.join(dir, 'e2e'));
  writeFileSync(path.join(dir, 'playwright.config.ts'), "export default { testDir: './e2e', use: { baseURL: 'http://127.0.0.1:9' } };\n");
  writeFileSync(path.join(dir, 'staging.config.ts'), "export default { testDir: './staging-e2e', projects: [{ name: 'chromium' }] };\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line', () => {
  it('--version and -V print the version; --help lists the environment variables', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await scribe([flag], { cwd: dir });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(packageJson.version);
    }
    const help = await scribe(['--help'], { cwd: dir });
    expect(help.stdout).toMatch(/Environment variables:\n {2}BASE_URL +the app under test/);
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SCRIBE_MODEL', 'SCRIBE_BROWSER', 'SCRIBE_HOME', 'SCRIBE_API_TOKEN']) expect(help.stdout).toContain(`  ${name} `);
  });

  it.each(['notaurl', 'ftp://example.com/login', 'localhost:3000', '//evil.example/login', 'javascript:alert(1)'])('generate --url %s is a usage error before anything is explored or written', async (url) => {
    const before = files(dir);
    const run = await scribe(['generate', 'log in and see the dashboard', '--url', url, '--provider', 'offline'], { cwd: dir, env: { BASE_URL: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("scribe: --url: must be an http:// or https:// URL, or a path starting with / resolved against the base URL");
    expect(files(dir)).toEqual(before);
  });

  it('a path needs a base URL: with -c naming a config without one, generate --url /login is a usage error, nothing written', async () => {
    const before = files(dir);
    const run = await scribe(['generate', 'log in', '--url', '/login', '-c', 'staging.config.ts', '--provider', 'offline'], { cwd: dir, env: { BASE_URL: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--url: /login is a path: it needs a base URL');
    expect(files(dir)).toEqual(before);
  });

  it('-c names another Playwright config: generate writes into its testDir; a missing one is exit 2', async () => {
    const run = await scribe(['generate', 'the page loads', '--provider', 'offline', '--no-run', '-c', 'staging.config.ts', '--project', 'chromium', '--json'], { cwd: dir, env: { BASE_URL: '' } });
    const document = JSON.parse(run.stdout) as { testPath: string | null; review_path?: string | null };
    // No page explored: the offline generator writes a smoke test, kept for review beside the staging testDir's output.
    expect(JSON.stringify(document)).toMatch(/staging-e2e\/generated/);
    expect(files(dir).some((file) => file.startsWith(path.join('staging-e2e', 'generated')))).toBe(true);
    expect(files(dir).some((file) => file.startsWith(path.join('e2e', 'generated')))).toBe(false);

    const missing = await scribe(['generate', 'the page loads', '-c', 'nope.config.ts'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.config\.ts:0: no such Playwright config/);

    // With a URL, Scribe's browser launches while the config is read: a config it cannot read is still exit 2,
    // said once, with nothing explored or written, and the command ends (its browser closed) rather than hanging.
    writeFileSync(path.join(dir, 'broken.config.ts'), 'export default {\n');
    const before = files(dir);
    const broken = await scribe(['generate', 'the page loads', '--url', 'http://127.0.0.1:9/', '-c', 'broken.config.ts'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.config\.ts:0: Playwright cannot load this config/);
    expect(broken.stderr).not.toMatch(/exploring/);
    expect(files(dir)).toEqual(before);
  });
});
