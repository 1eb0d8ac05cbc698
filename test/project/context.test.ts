/**
 * The project read once, in a real user project: a TypeScript playwright.config.ts read by Playwright's
 * own loader (testDir, baseURL, testIdAttribute, a setup project and its storageState, a webServer),
 * precedence of flags, environment, agents/*.yaml and the Playwright config, `scribe init`, and
 * `scribe run` without --url starting the config's web server and stopping it after.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load.ts';
import { loadProject } from '../../src/project/context.ts';
import { startWebServers } from '../../src/project/web-server.ts';
import { scribe } from '../commands/cli-harness.ts';
import { answers, closedUrl, freePort } from '../fixtures/closed-url.ts';
import { SHOP_APP } from '../fixtures/web-server-project.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function playwrightConfig(port: number, extra = ''): string {
  return `import { defineConfig } from '@playwright/test';

const baseURL: string = 'http://127.0.0.1:${port}';

export default defineConfig({
  testDir: './e2e',
  use: { baseURL, testIdAttribute: 'data-test' },
  webServer: { command: 'node app.cjs', url: baseURL, reuseExistingServer: true, env: { PORT: '${port}' } },
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    { name: 'shop', use: { storageState: '.auth/user.json' }, dependencies: ['setup'] },
  ],${extra}
});
`;
}



let dir: string;
let port: number;
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(dir, '.scribe'), SCRIBE_BROWSER: process.env.SCRIBE_BROWSER, BASE_URL: '', ...extra });

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-user-project-'));
  port = await freePort();
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'app.cjs'), SHOP_APP);
  writeFileSync(path.join(dir, 'playwright.config.ts'), playwrightConfig(port));
  mkdirSync(path.join(dir, 'e2e'));
  mkdirSync(path.join(dir, '.auth'));
  writeFileSync(path.join(dir, '.auth', 'user.json'), '{"cookies":[],"origins":[]}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadProject', () => {
  it("reads the TypeScript Playwright config as Playwright does and puts generated specs in its testDir", async () => {
    const project = await loadProject({ cwd: dir, env: env() });
    expect(project.playwright).toMatchObject({
      configFile: path.join(dir, 'playwright.config.ts'),
      project: { name: 'shop', testDir: path.join(dir, 'e2e'), dependencies: ['setup'], use: { baseURL: `http://127.0.0.1:${port}`, testIdAttribute: 'data-test', storageState: path.join(dir, '.auth', 'user.json') } },
      webServers: [{ command: 'node app.cjs', url: `http://127.0.0.1:${port}`, reuseExistingServer: true, cwd: dir }],
    });
    expect(project.outputDir).toBe(path.join(dir, 'e2e', 'generated'));
    expect(project.playwright!.matches(path.join(dir, 'e2e', 'generated', 'cart', 'buy.spec.ts'))).toBe(true);
    expect(project.playwright!.matches(path.join(dir, 'e2e', 'generated', 'cart', 'buy.needs-review.ts'))).toBe(false);
    expect(project.agents.critic.testIdAttribute).toBe('data-test');
    expect(project.baseURL).toBe(`http://127.0.0.1:${port}`);
    expect(project.provider).toBe('offline');
    expect(project.warnings).toEqual([]);
  });

  it('precedence: environment over the Playwright config, agents/*.yaml over the Playwright config', async () => {
    mkdirSync(path.join(dir, 'agents'));
    writeFileSync(path.join(dir, 'agents', 'critic.yaml'), 'settings:\n  test_id_attribute: data-qa\n');
    writeFileSync(path.join(dir, 'agents', 'scribe.yaml'), 'generation:\n  output_dir: e2e/scribe\n');
    const project = await loadProject({ cwd: dir, env: env({ BASE_URL: 'http://127.0.0.1:9/' }), provider: 'openai' });
    expect(project.agents.critic.testIdAttribute).toBe('data-qa');
    expect(project.outputDir).toBe(path.join(dir, 'e2e', 'scribe'));
    expect(project.baseURL).toBe('http://127.0.0.1:9/');
    expect(project.provider).toBe('openai');
  });

  it('warns when the output folder is outside what the config runs', async () => {
    mkdirSync(path.join(dir, 'agents'));
    writeFileSync(path.join(dir, 'agents', 'scribe.yaml'), 'generation:\n  output_dir: elsewhere\n');
    const project = await loadProject({ cwd: dir, env: env() });
    expect(project.warnings).toEqual([expect.stringMatching(/elsewhere do not match the testDir\/testMatch of project "shop"/)]);
  });

  it('a config Playwright refuses is a configuration error naming the file (exit 2)', async () => {
    writeFileSync(path.join(dir, 'playwright.config.ts'), playwrightConfig(port, '\n  workers: -1,'));
    await expect(loadProject({ cwd: dir, env: env() })).rejects.toThrow(ConfigError);
    const run = await scribe(['validate', 'e2e'], { cwd: dir, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(dir, 'playwright.config.ts')}:0: Playwright cannot load this config`);
  });

  it('without a Playwright config, generated-tests/ stays the output folder', async () => {
    rmSync(path.join(dir, 'playwright.config.ts'));
    const project = await loadProject({ cwd: dir, env: env() });
    expect(project.playwright).toBeUndefined();
    expect(project.outputDir).toBe(path.join(dir, 'generated-tests'));
    expect(project.agents.critic.testIdAttribute).toBe('data-testid');
  });
});

describe('scribe init', () => {
  it('writes a commented override, says what it found, and never overwrites without --force', async () => {
    writeFileSync(path.join(dir, 'e2e', 'auth.setup.ts'), "import { test } from '@playwright/test';\n\ntest('sign in', async () => {\n  void [process.env.SHOP_LOGIN, process.env.SHOP_SECRET];\n});\n");
    const first = await scribe(['init'], { cwd: dir, env: env({ E2E_USERNAME: 'someone', SHOP_LOGIN: 'qa' }) });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/setup reads\s+SHOP_LOGIN \(set\), SHOP_SECRET \(not set\) \(passed to the runs Scribe contains/);
    expect(first.stdout).toMatch(/Playwright config\s+playwright\.config\.ts/);
    expect(first.stdout).toMatch(/testDir\s+e2e/);
    expect(first.stdout).toMatch(/test id attribute\s+data-test/);
    expect(first.stdout).toMatch(new RegExp(`baseURL\\s+http://127\\.0\\.0\\.1:${port}`));
    expect(first.stdout).toMatch(/credentials\s+E2E_USERNAME \(set\), E2E_PASSWORD \(not set\)/);
    expect(first.stdout).toMatch(/specs go to\s+e2e\/generated\/<feature>\//);
    const critic = readFileSync(path.join(dir, 'agents', 'critic.yaml'), 'utf8');
    expect(critic).toMatch(/^# /);
    // Everything is commented out: the project still runs on the bundled rules and its Playwright config.
    const project = await loadProject({ cwd: dir, env: env() });
    expect(project.agents.critic.testIdAttribute).toBe('data-test');
    expect(project.agents.critic.rules.length).toBeGreaterThan(20);

    writeFileSync(path.join(dir, 'agents', 'critic.yaml'), 'rules:\n  max-steps:\n    options:\n      max: 12\n');
    const again = await scribe(['init'], { cwd: dir, env: env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(path.join(dir, 'agents', 'critic.yaml'));
    expect(readFileSync(path.join(dir, 'agents', 'critic.yaml'), 'utf8')).toContain('max: 12');

    const forced = await scribe(['init', '--force'], { cwd: dir, env: env() });
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(dir, 'agents', 'critic.yaml'), 'utf8')).toBe(critic);
  });

  it('offers the recommended preset for the suite, adds .scribe/ to .gitignore once, and lists scribe mcp for agent hosts without overwriting theirs', async () => {
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/');
    const first = await scribe(['init'], { cwd: dir, env: env() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/your own suite\s+scribe validate e2e/);
    expect(first.stdout).toContain('.gitignore updated');
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\n.scribe/\n');
    expect((await loadProject({ cwd: dir, env: env() })).agents.critic.validatePreset).toBe('recommended');

    // An initialised project: agents/ is kept, the host configs are added beside what they list.
    writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] } } }));
    const hosts = await scribe(['init', '--mcp', 'claude,vscode'], { cwd: dir, env: env() });
    expect(hosts.code).toBe(0);
    expect(hosts.stdout).toContain('kept agents/ as it is');
    expect(hosts.stdout).toContain('.gitignore already set');
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\n.scribe/\n');
    expect(JSON.parse(readFileSync(path.join(dir, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] }, scribe: { command: 'npx', args: ['scribe', 'mcp'] } } });
    expect(JSON.parse(readFileSync(path.join(dir, '.vscode', 'mcp.json'), 'utf8'))).toEqual({ servers: { scribe: { type: 'stdio', command: 'npx', args: ['scribe', 'mcp'] } } });

    // A different scribe server of the user's is never replaced silently, and nothing is written.
    const theirs = JSON.stringify({ mcpServers: { scribe: { command: 'node', args: ['my-scribe.js'] } } });
    mkdirSync(path.join(dir, '.cursor'));
    writeFileSync(path.join(dir, '.cursor', 'mcp.json'), theirs);
    const refused = await scribe(['init', '--mcp', 'all'], { cwd: dir, env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${path.join(dir, '.cursor', 'mcp.json')} already lists a different "scribe" server; pass --force to replace it`);
    expect(readFileSync(path.join(dir, '.cursor', 'mcp.json'), 'utf8')).toBe(theirs);

    const unknown = await scribe(['init', '--mcp', 'emacs'], { cwd: dir, env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--mcp: unknown agent host emacs');
  });
});

describe('scribe run in the project', () => {
  it("without --url uses the config's baseURL, starts its webServer and stops it after", async () => {
    const url = `http://127.0.0.1:${port}`;
    writeFileSync(
      path.join(dir, 'e2e', 'home.spec.ts'),
      `import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Welcome');\n  await page.screenshot({ path: 'home.png' });\n});\n`,
    );
    expect(await answers(url)).toBe(false);
    const run = await scribe(['run', 'e2e/home.spec.ts', '--json'], { cwd: dir, env: env() });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(run.code).toBe(0);
    expect(await answers(url)).toBe(false);
  });

  it('a webServer that cannot start is said plainly (exit 1)', async () => {
    writeFileSync(path.join(dir, 'app.cjs'), 'process.exit(3);\n');
    writeFileSync(path.join(dir, 'e2e', 'home.spec.ts'), "import { test } from '@playwright/test';\ntest('x', async () => {});\n");
    const run = await scribe(['run', 'e2e/home.spec.ts'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the app could not be started: the webServer command `node app\.cjs` exited \(code 3\)/);
  });
});

describe('the webServer, as Playwright runs it', () => {
  it('reuses an app that already answers when reuseExistingServer allows, and leaves it running; refuses otherwise', async () => {
    const url = `http://127.0.0.1:${port}`;
    const app = await startWebServers([{ command: 'node app.cjs', url, reuseExistingServer: false, cwd: dir, env: { PORT: String(port) } }], env());
    expect(app.notes).toEqual([`started the app (node app.cjs) at ${url}`]);
    try {
      const reused = await startWebServers([{ command: 'node missing.cjs', url, reuseExistingServer: true, cwd: dir }], env());
      expect(reused.notes).toEqual([`reusing the app already running at ${url}`]);
      await reused.stop();
      expect(await answers(url)).toBe(true);
      await expect(startWebServers([{ command: 'node missing.cjs', url, reuseExistingServer: false, cwd: dir }], env())).rejects.toThrow(/is already used/);
    } finally {
      await app.stop();
    }
    expect(await answers(url)).toBe(false);
  });

  it('waits for a port when the config gives no url', async () => {
    const app = await startWebServers([{ command: 'node app.cjs', port, reuseExistingServer: false, cwd: dir, env: { PORT: String(port) } }], env());
    expect(await answers(`http://127.0.0.1:${port}`)).toBe(true);
    await app.stop();
    expect(await answers(`http://127.0.0.1:${port}`)).toBe(false);
  });
});

describe('specs kept for review', () => {
  it("stay outside the user's testMatch: under .scribe/review/ when their name beside the target would match", async () => {
    writeFileSync(path.join(dir, 'playwright.config.ts'), "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './e2e', testMatch: '**/*.ts' });\n");
    const url = await closedUrl();
    const run = await scribe(['generate', 'see the welcome title', '--feature', 'home', '--url', url, '--provider', 'offline', '--json'], { cwd: dir, env: env() });
    const document = JSON.parse(run.stdout) as { success: boolean; testPath: string };
    expect(document.success).toBe(false);
    expect(document.testPath).toBe('.scribe/review/e2e/generated/home/see-the-welcome-title.not-run.ts');
    expect(existsSync(path.join(dir, 'e2e', 'generated'))).toBe(false);
  });
});
