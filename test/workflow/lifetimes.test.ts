/**
 * What a generation and a run hold, set up for real and torn down in reverse: the Playwright config's web
 * server (a real process), Scribe's browser (a real Chromium) and a contained run's network relay (real Unix
 * sockets). A later setup that fails, or cancellation while one is under way, leaves no process of them and
 * no relay behind: counted in /proc before and after.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appRoutes, relayedNetwork } from '../../src/agents/runner/app-network.ts';
import { launchedBrowser } from '../../src/explore/browser.ts';
import { loadProject, webServers, type ProjectContext } from '../../src/project/context.ts';
import { withLifetimes } from '../../src/util/lifetimes.ts';
import { answers, freePort } from '../fixtures/closed-url.ts';
import { descendants } from '../mcp/harness.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const APP = "require('node:http').createServer((req, res) => res.end('<title>Shop</title>')).listen(Number(process.env.PORT), '127.0.0.1');\n";

let dir: string;
let url: string;
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(dir, '.scribe'), SCRIBE_BROWSER: process.env.SCRIBE_BROWSER, BASE_URL: '' });

/** A user's project whose app runs through its Playwright config's webServer. */
async function projectWithApp(command: string, appUrl: string): Promise<ProjectContext> {
  const port = new URL(appUrl).port;
  writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './e2e', webServer: { command: ${JSON.stringify(command)}, url: '${appUrl}', env: { PORT: '${port}' }, timeout: 60000 } });\n`,
  );
  return loadProject({ cwd: dir, env: env() });
}

/**
 * This test process's descendants started since `before` was read, by command name: the web server's node and
 * Chromium's processes. Test files share this worker process (isolate: false): a process an earlier file left to
 * end on its own (a type checker's idle time) is in `before`, not the generation's.
 */
function heldSince(before: ReadonlySet<number>): string[] {
  return descendants(process.pid).filter((pid) => !before.has(pid)).flatMap((pid) => {
    try {
      return [path.basename(readFileSync(`/proc/${pid}/comm`, 'utf8').trim())];
    } catch {
      return [];
    }
  });
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-lifetimes-'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'app.cjs'), APP);
  url = `http://127.0.0.1:${await freePort()}`;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('lifetimes held by a generation and a run', () => {
  it('a later setup that fails tears down the relay, the browser and the web server set up before it', async () => {
    const project = await projectWithApp('node app.cjs', url);
    const before = new Set(descendants(process.pid));
    const networkDir = path.join(dir, 'net');
    const seen: string[][] = [];
    await expect(
      withLifetimes(undefined, async (lifetimes) => {
        await lifetimes.acquire('the web server', webServers(project, () => undefined));
        const browser = await lifetimes.acquire('the browser', launchedBrowser(env()));
        await lifetimes.acquire('the network relay', relayedNetwork(networkDir, appRoutes([url])));
        seen.push(heldSince(before));
        expect(browser.isConnected()).toBe(true);
        expect(await answers(url)).toBe(true);
        expect(existsSync(networkDir)).toBe(true);
        // A second Scribe's web server where the first already answers: Playwright's "already used".
        await lifetimes.acquire('a second web server', webServers(project, () => undefined));
      }),
    ).rejects.toThrow(/is already used/);
    // While held, the count sees them: the app's process and Chromium's.
    expect(seen[0]!.length).toBeGreaterThan(1);
    expect(seen[0]!.some((name) => /chrom/i.test(name))).toBe(true);
    expect(heldSince(before)).toEqual([]);
    expect(await answers(url)).toBe(false);
    expect(existsSync(networkDir)).toBe(false);
  });

  it('cancelled while a web server is starting: that one is stopped, and everything set up before it torn down', async () => {
    const project = await projectWithApp('node app.cjs', url);
    // An app that never answers: its setup is still waiting when the generation is cancelled.
    const silentUrl = `http://127.0.0.1:${await freePort()}`;
    const silent = await loadProject({ cwd: dir, env: env() }).then((loaded) => ({ ...loaded, playwright: loaded.playwright && { ...loaded.playwright, webServers: [{ command: 'node -e "setInterval(() => {}, 1000)"', url: silentUrl, reuseExistingServer: false, cwd: dir, timeout: 60_000 }] } }));
    const before = new Set(descendants(process.pid));
    const networkDir = path.join(dir, 'net');
    const controller = new AbortController();
    const seen: string[][] = [];
    await expect(
      withLifetimes(controller.signal, async (lifetimes) => {
        await lifetimes.acquire('the web server', webServers(project, () => undefined));
        await lifetimes.acquire('the browser', launchedBrowser(env()));
        await lifetimes.acquire('the network relay', relayedNetwork(networkDir, appRoutes([url])));
        setTimeout(() => {
          seen.push(heldSince(before));
          controller.abort(new Error('stopped by SIGINT'));
        }, 500);
        await lifetimes.acquire('the silent web server', webServers(silent, () => undefined));
      }),
      // The abort's own error, not the silent server's timeout: its wait was cut short.
    ).rejects.toThrow('stopped by SIGINT');
    expect(seen[0]!.some((name) => /chrom/i.test(name))).toBe(true);
    expect(heldSince(before)).toEqual([]);
    expect(await answers(url)).toBe(false);
    expect(existsSync(networkDir)).toBe(false);
  });
});
