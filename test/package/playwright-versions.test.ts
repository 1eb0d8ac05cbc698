/**
 * Scribe beside the user's own Playwright: the packed package installed next to the oldest supported
 * @playwright/test, one from the middle of the range and the newest, each from the npm registry, in its own
 * project (a config with testDir, baseURL and a webServer). The middle one is installed by pnpm with hoisting
 * off, its strictest layout: node_modules holds links into its .pnpm folder, and a package reaches only what it
 * declares (Scribe finds `playwright` through @playwright/test, whose dependency it is). Under each: one copy of @playwright/test in the
 * tree (the user's: Scribe's is a peer dependency, never nested), `scribe generate` with the offline
 * generator writes a spec that its run passes, and the user's own `npx playwright test` passes it too.
 * Browsers are not downloaded: the system Chromium (SCRIBE_BROWSER, else Scribe's finder).
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findBrowser } from '../../src/explore/browser.ts';
import { packedTarball } from './packed.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>; devDependencies: Record<string, string> };

/** The oldest version the peer range allows, one from the middle, and the newest (the one this repository develops on). */
const VERSIONS = ['1.50.1', '1.57.0', packageJson.devDependencies['@playwright/test']!];
/** The package manager of each project: pnpm's linked layout for the middle version, npm's for the others. */
const managerOf = (version: string): 'npm' | 'pnpm' => (version === VERSIONS[1] ? 'pnpm' : 'npm');
/** This repository's pinned pnpm (a devDependency). */
const PNPM = path.join(repoRoot, 'node_modules', '.bin', 'pnpm');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env, timeout: 300_000, maxBuffer: 20 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
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

/** A todo list: a form that adds an item to the list. */
const APP = `const http = require('node:http');
const PAGE = \`<!doctype html><html><head><title>Todos</title></head><body><main>
<h1 data-testid="todos-heading">Todos</h1>
<form data-testid="todo-form"><label for="t">New todo</label><input id="t" data-testid="new-todo-input"><button type="submit" data-testid="add-todo-button">Add</button></form>
<ul data-testid="todo-list"></ul>
<script>
document.querySelector('form').addEventListener('submit', (e) => {
  e.preventDefault();
  const li = document.createElement('li');
  li.textContent = document.querySelector('input').value;
  document.querySelector('ul').append(li);
});
</script></main></body></html>\`;
http.createServer((req, res) => { res.setHeader('content-type', 'text/html'); res.end(PAGE); }).listen(Number(process.env.PORT), '127.0.0.1');
`;

function playwrightConfig(port: number, browser: string): string {
  return `import { defineConfig } from '@playwright/test';

const baseURL = 'http://127.0.0.1:${port}';

export default defineConfig({
  testDir: './e2e',
  reporter: 'list',
  use: { baseURL, launchOptions: { executablePath: ${JSON.stringify(browser)}, args: ${JSON.stringify(CHROMIUM_ARGS)} } },
  webServer: { command: 'node app.cjs', url: baseURL, reuseExistingServer: false, env: { PORT: '${port}' } },
});
`;
}

let work: string;
let tarball: string;
const browser = findBrowser(process.env).executablePath;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_cache: process.env.npm_config_cache, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', SCRIBE_BROWSER: browser };

/** A project on this Playwright version with Scribe installed beside it (installs run at once: they wait on the network). */
async function installProject(version: string): Promise<{ dir: string; install: Run }> {
  const dir = path.join(work, `project-${version}`);
  mkdirSync(path.join(dir, 'e2e'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `todos-${version.replaceAll('.', '-')}`, version: '1.0.0', private: true }, null, 2)}\n`);
  const install =
    managerOf(version) === 'pnpm'
      ? await run(PNPM, ['add', '--save-dev', '--config.hoist=false', '--store-dir', path.join(work, 'pnpm-store'), `@playwright/test@${version}`, tarball], { cwd: dir, env })
      : await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', `@playwright/test@${version}`, tarball], { cwd: dir, env });
  const port = await freePort();
  writeFileSync(path.join(dir, 'app.cjs'), APP);
  writeFileSync(path.join(dir, 'playwright.config.ts'), playwrightConfig(port, browser));
  return { dir, install };
}

const projects = new Map<string, Promise<{ dir: string; install: Run }>>();

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'scribe-versions-'));
  tarball = await packedTarball();
  for (const version of VERSIONS) projects.set(version, installProject(version));
  await Promise.all(projects.values());
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 300_000);

describe('the peer dependency range', () => {
  it('covers every version this test installs, from 1.50 on', () => {
    expect(packageJson.peerDependencies['@playwright/test']).toBe('>=1.50.0 <2');
    expect(VERSIONS[0]).toBe('1.50.1');
  });
});

describe.each(VERSIONS.map((version) => [version, managerOf(version)]))('Scribe beside @playwright/test %s, installed by %s', (version, manager) => {
  it('installs with the user’s Playwright as the only copy, generates a spec that passes, and the user’s own run passes it', async () => {
    const { dir, install } = await projects.get(version)!;
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    // pnpm's layout: the top-level package is a link into .pnpm, and nothing is hoisted for undeclared requires.
    expect(lstatSync(path.join(dir, 'node_modules/@playwright/test')).isSymbolicLink()).toBe(manager === 'pnpm');
    if (manager === 'pnpm') expect(existsSync(path.join(dir, 'node_modules/.pnpm/node_modules'))).toBe(false);
    // One copy: the user's, at the top; none nested under Scribe.
    expect(JSON.parse(readFileSync(path.join(dir, 'node_modules/@playwright/test/package.json'), 'utf8')).version).toBe(version);
    expect(existsSync(path.join(dir, 'node_modules/scribe-playwright/node_modules/@playwright'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules/scribe-playwright/node_modules/playwright'))).toBe(false);
    // TypeScript 7 is an optional peer: installing Scribe puts no `tsc` of its own on the project's path.
    expect(existsSync(path.join(dir, 'node_modules/.bin/tsc'))).toBe(false);

    const version_ = await run('npx', ['--offline', 'scribe', '--version'], { cwd: dir, env });
    expect(version_.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version);

    const generated = await run('npx', ['--offline', 'scribe', 'generate', 'add "Water the plants" and see it in the list', '--feature', 'todos', '--provider', 'offline', '--json'], { cwd: dir, env });
    expect(`${generated.stdout}\n${generated.stderr}`).not.toMatch(/second time/);
    const document = JSON.parse(generated.stdout) as { success: boolean; testPath: string; runner: { classification: string } | null; error: string | null };
    expect(document.error, generated.stderr).toBeNull();
    expect(document.runner?.classification).toBe('pass');
    expect(document.success).toBe(true);
    expect(document.testPath).toBe('e2e/generated/todos/add-water-the-plants-and-see-it-in-the-list.spec.ts');
    expect(generated.code).toBe(0);
    expect(readFileSync(path.join(dir, document.testPath), 'utf8')).toContain("getByTestId('todo-list')");

    const own = await run('npx', ['--offline', 'playwright', 'test'], { cwd: dir, env });
    expect(own.code, `${own.stdout}\n${own.stderr}`).toBe(0);
    expect(own.stdout).toMatch(/1 passed/);
  }, 600_000);
});
