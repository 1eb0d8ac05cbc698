/**
 * The browser a contained run's test connects to. Scribe launches it (`browserType.launchServer`), so
 * the test process never starts a process of its own, and a generation's explore and runs can share
 * one. A client must be the same Playwright as the server: one server per Playwright package.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BrowserServer, LaunchOptions } from '@playwright/test';

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

  async close(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(servers.map(async (server) => (await server.catch(() => undefined))?.close()));
  }
}
