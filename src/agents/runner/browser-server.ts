/**
 * The browser a contained run's test connects to. Scribe launches it (`browserType.launchServer`), so
 * the test process never starts a process of its own, and a generation's explore and runs can share
 * one. A client must be the same Playwright as the server: one server per Playwright package.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserServer, LaunchOptions } from '@playwright/test';
import { resolvePlaywright } from './workspace.ts';

export class SharedBrowser {
  private readonly launch: LaunchOptions;
  private readonly servers = new Map<string, Promise<BrowserServer>>();

  constructor(launch: LaunchOptions) {
    this.launch = launch;
  }

  /** The WebSocket endpoint of the browser for the @playwright/test in `packageDir`, launched on first need. */
  async endpoint(packageDir: string): Promise<string> {
    let server = this.servers.get(packageDir);
    if (!server) {
      const { chromium } = createRequire(path.join(packageDir, 'package.json'))(packageDir) as typeof import('@playwright/test');
      server = chromium.launchServer({ ...this.launch, host: '127.0.0.1' });
      this.servers.set(packageDir, server);
    }
    return (await server).wsEndpoint();
  }

  /** The browser for Scribe's own use (exploring), through Scribe's @playwright/test; the caller closes the connection. */
  async connect(): Promise<Browser> {
    const own = resolvePlaywright(path.dirname(fileURLToPath(import.meta.url)));
    const { chromium } = createRequire(path.join(own.packageDir, 'package.json'))(own.packageDir) as typeof import('@playwright/test');
    return chromium.connect(await this.endpoint(own.packageDir));
  }

  async close(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(servers.map(async (server) => (await server.catch(() => undefined))?.close()));
  }
}
