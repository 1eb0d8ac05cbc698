/**
 * Scribe as a user gets it: `npm pack`, the tarball installed into a fresh project, run as a user who
 * is not root with a read-only node_modules (as `nobody` when the tests run as root). Then the whole
 * journey in that project: its own playwright.config.ts (testDir ./e2e, baseURL, testIdAttribute
 * 'data-test', a setup project that signs in and saves a storageState, a webServer) and a partial
 * agents/critic.yaml; `scribe generate` with a scripted model explores with data-test, writes into the
 * testDir, its run uses the signed-in state; then the user's own `npx playwright test` passes the spec.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findBrowser } from '../../src/explore/browser.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { packedTarball } from './packed.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const NOBODY = { uid: 65534, gid: 65534 };
/** Run as `nobody` when root can switch users; otherwise as the current (already unprivileged) user. */
const switchUser = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; asUser?: boolean; timeoutMs?: number }): Promise<Run> {
  const [file, argv] = options.asUser && switchUser
    ? ['/usr/bin/setpriv', [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', command, ...args]]
    : [command, args];
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 240_000, maxBuffer: 20 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A shop with a sign-in: `/` greets a guest, or the signed-in user when the session cookie is there. */
const APP = `const http = require('node:http');
const page = (body) => '<!doctype html><html><head><title>Shop</title></head><body>' + body + '</body></html>';
http.createServer((req, res) => {
  const signedIn = /(^|; )session=ada(;|$)/.test(req.headers.cookie || '');
  if (req.method === 'POST' && req.url === '/login') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const ok = form.get('username') === 'ada' && form.get('password') === 'lovelace-42';
      res.writeHead(303, ok ? { location: '/', 'set-cookie': 'session=ada; Path=/; HttpOnly' } : { location: '/login' });
      res.end();
    });
    return;
  }
  res.setHeader('content-type', 'text/html');
  if (req.url === '/login') {
    res.end(page('<form method="post" action="/login"><label>User <input name="username" data-test="username"></label><label>Password <input type="password" name="password" data-test="password"></label><button data-test="sign-in">Sign in</button></form>'));
    return;
  }
  res.end(page('<nav><a href="/login" data-test="login-link">Sign in</a></nav><h1 data-test="greeting">Hello, ' + (signedIn ? 'ada' : 'guest') + '</h1><button data-test="basket">Basket</button>'));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

function playwrightConfig(port: number, browser: string): string {
  return `import { defineConfig } from '@playwright/test';

const baseURL = 'http://127.0.0.1:${port}';

export default defineConfig({
  testDir: './e2e',
  reporter: 'list',
  use: {
    baseURL,
    testIdAttribute: 'data-test',
    launchOptions: { executablePath: ${JSON.stringify(browser)}, args: ${JSON.stringify(CHROMIUM_ARGS)} },
  },
  webServer: { command: 'node app.cjs', url: baseURL, reuseExistingServer: true, env: { PORT: '${port}' } },
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    { name: 'shop', use: { storageState: '.auth/user.json' }, dependencies: ['setup'] },
  ],
});
`;
}

const SETUP = `import { test as setup, expect } from '@playwright/test';

setup('sign in', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
  await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
  await page.getByTestId('sign-in').click();
  await expect(page.getByTestId('greeting')).toHaveText('Hello, ada');
  await page.context().storageState({ path: '.auth/user.json' });
});
`;

/** What the scripted model writes: it passes only in a signed-in browser. */
const SIGNED_IN_SPEC = [
  '```ts',
  "import { test, expect } from '@playwright/test';",
  '',
  "test('the shop greets the signed-in user', async ({ page }) => {",
  "  await page.goto('/');",
  "  await expect(page.getByTestId('greeting')).toHaveText('Hello, ada');",
  "  await page.screenshot({ path: 'test-results/greeting.png' });",
  '});',
  '```',
].join('\n');

let work: string;
let project: string;
let tarball: string;
let fake: FakeOpenAI;
let port: number;
let userEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'scribe-package-'));
  chmodSync(work, 0o755);
  tarball = await packedTarball();

  project = path.join(work, 'shop');
  mkdirSync(path.join(project, 'e2e'), { recursive: true });
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const installed = await run('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', tarball, '@playwright/test@1.65.1'], { cwd: project, env: process.env });
  expect(installed.code, installed.stderr).toBe(0);
  // node_modules read-only; the project itself belongs to the user who runs Scribe in it.
  await run('chmod', ['-R', 'a-w', path.join(project, 'node_modules')], { cwd: project, env: process.env });

  port = await freePort();
  writeFileSync(path.join(project, 'app.cjs'), APP);
  writeFileSync(path.join(project, 'playwright.config.ts'), playwrightConfig(port, findBrowser(process.env).executablePath));
  writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP);
  mkdirSync(path.join(project, 'agents'));
  writeFileSync(path.join(project, 'agents', 'critic.yaml'), '# Only what this project changes.\nrules:\n  max-steps:\n    options:\n      max: 8\n');
  const home = path.join(work, 'home');
  mkdirSync(home);
  if (switchUser) {
    const owner = `${NOBODY.uid}:${NOBODY.gid}`;
    await run('find', [project, home, '-path', path.join(project, 'node_modules'), '-prune', '-o', '-exec', 'chown', owner, '{}', '+'], { cwd: work, env: process.env });
  }
  fake = await startFakeOpenAI();
  userEnv = { PATH: process.env.PATH, HOME: home, npm_config_cache: path.join(home, '.npm'), E2E_USERNAME: 'ada', E2E_PASSWORD: 'lovelace-42', SCRIBE_BROWSER: process.env.SCRIBE_BROWSER };
}, 600_000);

afterAll(async () => {
  await fake?.close();
  if (work) {
    await run('chmod', ['-R', 'u+w', work], { cwd: tmpdir(), env: process.env });
    rmSync(work, { recursive: true, force: true });
  }
});

describe('the packed package', () => {
  it('ships the build, agents, docs, README and LICENSE, and nothing of the repository besides', async () => {
    const listing = await run('tar', ['-tzf', tarball], { cwd: work, env: process.env });
    const files = listing.stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'agents/critic.yaml', 'dist/cli/bin.mjs', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/project/read-playwright-config.cjs']));
    const outside = files.filter((f) => !/^(dist\/|agents\/[^/]+\.yaml$|docs\/|package\.json$|README\.md$|LICENSE$)/.test(f));
    expect(outside).toEqual([]);
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    // Nothing of test/ ships; the demo app (`scribe demo`) ships in the build, its pages beside its modules.
    expect(files.filter((f) => f.startsWith('dist/test/'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/src/demo-app/server.js', 'dist/src/demo-app/static-server.js', 'dist/src/demo-app/login.html', 'dist/src/demo-app/demo-account.json']));
  });

  it('runs `scribe --help` and `scribe validate` as a user with a read-only node_modules, compiling nothing into it', async () => {
    const help = await run(path.join(project, 'node_modules/.bin/scribe'), ['--help'], { cwd: project, env: userEnv, asUser: true });
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/generate \[options\] \[description\]/);
    expect(help.stdout).toMatch(/init \[options\]/);

    writeFileSync(path.join(project, 'e2e', 'bad.spec.ts'), "import { test } from '@playwright/test';\n\ntest('waits', async ({ page }) => {\n  await page.goto('/');\n  await page.waitForTimeout(500);\n});\n");
    if (switchUser) chownSync(path.join(project, 'e2e', 'bad.spec.ts'), NOBODY.uid, NOBODY.gid);
    const validate = await run('npx', ['--offline', 'scribe', 'validate', 'e2e/bad.spec.ts', '--json'], { cwd: project, env: userEnv, asUser: true });
    rmSync(path.join(project, 'e2e', 'bad.spec.ts'));
    expect(validate.code, validate.stderr).toBe(1);
    const rules = (JSON.parse(validate.stdout) as { files: Array<{ issues: Array<{ rule: string }> }> }).files[0]!.issues.map((i) => i.rule);
    expect(rules).toEqual(expect.arrayContaining(['no-wait-for-timeout', 'expect-expect']));
    expect(existsSync(path.join(project, 'node_modules', '.cache'))).toBe(false);
  });

  it('imports from plain JavaScript as `scribe-playwright`', async () => {
    writeFileSync(
      path.join(project, 'use-scribe.mjs'),
      `import { Validator, loadCriticConfig, slugify } from 'scribe-playwright';\n` +
        `const validator = new Validator(loadCriticConfig(), { typeCheck: false });\n` +
        `const result = validator.validateText('x.spec.ts', "import { test } from '@playwright/test';\\ntest('a', async ({ page }) => { await page.waitForTimeout(100); });\\n");\n` +
        `console.log(JSON.stringify({ slug: slugify('Hello World'), rules: result.issues.map((i) => i.rule) }));\n`,
    );
    const imported = await run('node', ['use-scribe.mjs'], { cwd: project, env: userEnv, asUser: true });
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toEqual({ slug: 'hello-world', rules: expect.arrayContaining(['no-wait-for-timeout', 'expect-expect']) });
  });
});

describe('Scribe inside the user’s Playwright project', () => {
  it('generate explores with data-test, writes into the testDir, runs signed in; the user’s own `npx playwright test` passes the spec', async () => {
    fake.reply({ text: SIGNED_IN_SPEC });
    const env = { ...userEnv, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' };
    const generated = await run('npx', ['--offline', 'scribe', 'generate', 'the shop greets the signed-in user', '--feature', 'account', '--json'], { cwd: project, env, asUser: true });
    const document = JSON.parse(generated.stdout) as { success: boolean; testPath: string; runner: { classification: string } | null; error: string | null };

    // Explored with the config's test id attribute: the prompt carries the page's data-test ids.
    const prompt = (fake.requests[0]?.body.messages ?? []).map((m) => m.content).join('\n');
    expect(prompt).toContain('"data-test"');
    expect(prompt).toMatch(/greeting/);
    expect(prompt).toMatch(/login-link/);

    expect(document.error).toBeNull();
    expect(document.testPath).toBe('e2e/generated/account/the-shop-greets-the-signed-in-user.spec.ts');
    expect(document.runner?.classification).toBe('pass');
    expect(document.success).toBe(true);
    expect(generated.code).toBe(0);
    expect(existsSync(path.join(project, 'e2e', 'generated', 'account', 'the-shop-greets-the-signed-in-user.provenance.json'))).toBe(true);

    const own = await run('npx', ['--offline', 'playwright', 'test'], { cwd: project, env: userEnv, asUser: true });
    expect(own.code, `${own.stdout}\n${own.stderr}`).toBe(0);
    expect(own.stdout).toMatch(/the-shop-greets-the-signed-in-user\.spec\.ts/);
    expect(own.stdout).toMatch(/2 passed/);
    expect(readFileSync(path.join(project, 'e2e', 'generated', 'account', 'the-shop-greets-the-signed-in-user.spec.ts'), 'utf8')).toContain("toHaveText('Hello, ada')");
    // Two whole CLI runs as another user: on a loaded machine past the suite's 60 s, each within run()'s own limit.
  }, 300_000);
});
