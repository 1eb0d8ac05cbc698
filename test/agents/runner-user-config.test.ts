/**
 * The Runner under the user's own Playwright config: a project with a TypeScript config (testDir,
 * testIdAttribute 'data-test', a setup project that signs in and saves a storageState the spec's project
 * uses), an app behind a login on 127.0.0.1. The candidate needs the signed-in state; the result must be
 * the one the user's own `npx playwright test` gives.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpec } from '../../src/agents/runner.ts';
import type { RunnerReport } from '../../src/contracts.ts';
import { loadProject, runTarget } from '../../src/project/context.ts';
import { browserCandidates, CHROMIUM_ARGS, findBrowser } from '../../src/explore/browser.ts';
import { loadRunnerConfig, type RunnerConfig } from '../../src/config/runner.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';
import { readTrace, screencastFrames, snapshottedActions } from '../fixtures/trace.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Signed in with a session cookie: the page greets the user; signed out, a guest. */
function startApp(): Promise<{ url: string; close(): Promise<void> }> {
  const page = (body: string) => `<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`;
  const server: Server = createServer((req, res) => {
    const signedIn = /(^|;\s*)session=ada/.test(req.headers.cookie ?? '');
    if (req.method === 'POST' && req.url === '/login') {
      res.writeHead(303, { location: '/', 'set-cookie': 'session=ada; Path=/; HttpOnly' }).end();
      return;
    }
    res.setHeader('content-type', 'text/html');
    if (req.url === '/login') {
      res.end(page('<form method="post" action="/login"><button data-test="sign-in">Sign in</button></form>'));
      return;
    }
    res.end(page(`<h1 data-test="greeting">Hello, ${signedIn ? 'ada' : 'guest'}</h1>`));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

const SETUP = `import { test as setup, expect } from '@playwright/test';

setup('sign in', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('sign-in').click();
  await expect(page.getByTestId('greeting')).toHaveText('Hello, ada');
  await page.context().storageState({ path: '.auth/user.json' });
});
`;

const SIGNED_IN = `import { test, expect } from '@playwright/test';

test('greets the signed-in user', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('greeting')).toHaveText('Hello, ada');
});
`;

function userConfig(baseURL: string): string {
  return `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  reporter: 'list',
  use: {
    baseURL: ${JSON.stringify(baseURL)},
    testIdAttribute: 'data-test',
    launchOptions: { executablePath: ${JSON.stringify(findBrowser(process.env).executablePath)}, args: ${JSON.stringify(CHROMIUM_ARGS)} },
  },
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    { name: 'shop', use: { storageState: '.auth/user.json' }, dependencies: ['setup'] },
    { name: 'other', testMatch: /never-matches/ },
  ],
});
`;
}

let app: { url: string; close(): Promise<void> };
let project: string;

beforeAll(async () => {
  app = await startApp();
  project = mkdtempSync(path.join(tmpdir(), 'scribe-user-project-'));
  mkdirSync(path.join(project, 'e2e', 'generated'), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'), 'junction');
  writeFileSync(path.join(project, 'package.json'), '{ "name": "shop", "private": true }\n');
  writeFileSync(path.join(project, 'playwright.config.ts'), userConfig(app.url));
  writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP);
});
afterAll(async () => {
  await app.close();
  rmSync(project, { recursive: true, force: true });
});

/** The bundled limits but an assertion's: 1.5 s, not 5 s, which the guest's and the failing setup's checks wait out. */
const bundled = loadRunnerConfig();
const config: RunnerConfig = { ...bundled, timeouts: { ...bundled.timeouts, expect_ms: 1500 } };

const run = (specText: string, options: { untrusted?: boolean; storageState?: string } = {}) =>
  runSpec({
    ...options,
    specText,
    fileName: 'greeting.spec.ts',
    sourceDir: path.join(project, 'e2e', 'generated'),
    baseURL: app.url,
    cwd: project,
    env: process.env,
    playwrightConfigFile: path.join(project, 'playwright.config.ts'),
    project: 'shop',
    ...bundledRunTarget(config),
  });

describe('a run under the user’s Playwright config', () => {
  /** Scribe's run of the signed-in spec, on the project as the user made it (before any other run wrote to it). */
  let signedIn: RunnerReport;
  let projectAfterwards: { top: string[]; generated: string[] };
  beforeAll(async () => {
    signedIn = await run(SIGNED_IN);
    projectAfterwards = { top: readdirSync(project).sort(), generated: readdirSync(path.join(project, 'e2e', 'generated')) };
  }, 60_000);

  it('runs the setup project the spec’s project depends on, so the candidate is signed in, and passes', () => {
    expect(signedIn.error_message).toBeNull();
    expect(signedIn).toMatchObject({ status: 'pass', classification: 'pass' });
    // The config's testIdAttribute was used: getByTestId found data-test elements.
    expect(signedIn.segment?.content).toMatch(/2 passed/);
  });

  it('leaves nothing in the project: its state and results stay in its own run folder', () => {
    expect(projectAfterwards).toEqual({ top: ['.scribe', 'e2e', 'node_modules', 'package.json', 'playwright.config.ts'], generated: [] });
  });

  it('is signed in: a spec that expects a guest fails, showing the signed-in greeting', async () => {
    const guest = SIGNED_IN.replace("toHaveText('Hello, ada')", "toHaveText('Hello, guest')");
    const report = await run(guest);
    expect(report.status).toBe('fail');
    expect(report.error_message).toContain('Hello, ada');
  });

  it('gives the result the user’s own `npx playwright test` gives', async () => {
    writeFileSync(path.join(project, 'e2e', 'generated', 'greeting.spec.ts'), SIGNED_IN);
    try {
      const own = await new Promise<{ code: number; out: string }>((resolve) =>
        execFile(process.execPath, [path.join(repoRoot, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--project', 'shop'], { cwd: project }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
        ),
      );
      expect(own.code, own.out).toBe(0);
      expect(own.out).toMatch(/2 passed/);
      expect(signedIn.status).toBe('pass');
    } finally {
      rmSync(path.join(project, 'e2e', 'generated', 'greeting.spec.ts'));
      rmSync(path.join(project, '.auth'), { recursive: true, force: true });
      rmSync(path.join(project, 'test-results'), { recursive: true, force: true });
    }
  });
});

describe('a contained run (model-written code) under a config that finds its browser as Scribe does', () => {
  it('lets the config look for the browser where Scribe looks, and passes (this repository’s own config does so)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scribe-browser-config-'));
    try {
      mkdirSync(path.join(dir, 'e2e'));
      symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
      writeFileSync(path.join(dir, 'package.json'), '{ "name": "shop", "private": true }\n');
      writeFileSync(
        path.join(dir, 'playwright.config.ts'),
        `import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const executablePath = ${JSON.stringify(browserCandidates(process.env))}.find((file) => existsSync(file));

export default defineConfig({ testDir: './e2e', use: { testIdAttribute: 'data-test', launchOptions: { executablePath, args: ${JSON.stringify(CHROMIUM_ARGS)} } } });
`,
      );
      const report = await runSpec({
        ...bundledRunTarget(),
        specText: SIGNED_IN.replace("toHaveText('Hello, ada')", "toHaveText('Hello, guest')"),
        fileName: 'greeting.spec.ts',
        sourceDir: path.join(dir, 'e2e'),
        baseURL: app.url,
        cwd: dir,
        env: process.env,
        playwrightConfigFile: path.join(dir, 'playwright.config.ts'),
        untrusted: true,
      });
      expect(report.error_message).toBeNull();
      expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('says so, naming the path and the fix, when a contained run’s setup project writes its storage state to an absolute path', async () => {
    // Playwright's own guide writes it to path.join(__dirname, …): a path in the project, which a contained run may only read.
    const absolute = path.join(project, '.auth', 'absolute-user.json');
    writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP.replace("{ path: '.auth/user.json' }", `{ path: ${JSON.stringify(absolute)} }`));
    writeFileSync(path.join(project, 'playwright.config.ts'), userConfig(app.url).replace("storageState: '.auth/user.json'", `storageState: ${JSON.stringify(absolute)}`));
    try {
      const { storageState } = runTarget(await loadProject({ cwd: project, env: process.env }));
      const report = await run(SIGNED_IN, { untrusted: true, storageState });
      expect(report.classification).toBe('environment');
      expect(report.error_message).toContain(`setup project 'setup' failed at e2e/auth.setup.ts:7`);
      expect(report.error_message).toContain(`writes its storage state to ${absolute}, outside the contained run's folder`);
      expect(report.error_message).toContain("storageState({ path: '.auth/absolute-user.json' })");
      expect(existsSync(absolute)).toBe(false);
    } finally {
      writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP);
      writeFileSync(path.join(project, 'playwright.config.ts'), userConfig(app.url));
    }
  });

  it('records Scribe’s trace of a model’s spec whatever the config says, and keeps the user’s own trace option for their own spec (heal, run)', async () => {
    writeFileSync(path.join(project, 'playwright.config.ts'), userConfig(app.url).replace('\n  use: {\n', "\n  use: {\n    trace: 'off',\n"));
    try {
      const own = await run(SIGNED_IN);
      expect(own.status, own.error_message ?? '').toBe('pass');
      expect(own.traces ?? []).toEqual([]);
      const models = await run(SIGNED_IN, { untrusted: true });
      expect(models.status, models.error_message ?? '').toBe('pass');
      expect(models.traces).toHaveLength(1);
      // Scribe's trace: each action with its DOM snapshots before and after (what show-trace renders), no screencast.
      const trace = readTrace(path.resolve(project, models.traces![0]!));
      expect(snapshottedActions(trace)).toEqual([{ method: 'expect', selector: 'internal:testid=[data-test="greeting"s]', snapshots: ['after', 'before'] }]);
      expect(screencastFrames(trace)).toBe(0);
      // The run's route (non-http(s) requests aborted) left the app's requests to Playwright's server: none was handed to the test to go on.
      expect(trace.events.filter((event) => event.type === 'before' && event.method === 'continue')).toEqual([]);
    } finally {
      writeFileSync(path.join(project, 'playwright.config.ts'), userConfig(app.url));
    }
  }, 120_000);

  it('blames a failing setup project on the environment, naming its file, line and project, not the spec', async () => {
    // The setup signs in as someone the app does not greet: a wrong password, as the app sees it.
    writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP.replace("'Hello, ada'", "'Hello, bob'"));
    try {
      const report = await run(SIGNED_IN);
      expect(report.classification).toBe('environment');
      expect(report.error_message).toMatch(/^setup project 'setup' failed at e2e\/auth\.setup\.ts:6: /);
      expect(report.error_line).toBeNull();
    } finally {
      writeFileSync(path.join(project, 'e2e', 'auth.setup.ts'), SETUP);
    }
  });
});
