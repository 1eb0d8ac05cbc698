/**
 * An untrusted run's network, in the OS sandbox: the sandbox has no network but its own loopback, and
 * each origin the run may reach (the app's, and those runner.yaml allows) gets one loopback address
 * and port there, relayed to the real origin through a Unix socket Scribe listens on. Nothing else
 * answers: not the host's other loopback services, not the model endpoint, not `scribe serve`, not a
 * cloud metadata address. The browser, `page.request`, the `request` fixture and routed requests all
 * run inside, so they all see only this, whatever the spec calls.
 *
 * A loopback origin keeps its address (127.0.0.1:3000 stays 127.0.0.1:3000, `localhost` is 127.0.0.1); a
 * named host gets an address of its own, 127.0.2.N, through the sandbox's /etc/hosts, so its URL, TLS
 * name and cookies are unchanged.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { writeFileAtomic } from '../../util/fs.ts';
import type { Setup } from '../../util/lifetimes.ts';

/** One reachable origin: where the sandbox sees it, and where Scribe connects for it. */
export interface AppRoute {
  origin: string;
  /** The address and port the relay listens on inside the sandbox. */
  address: string;
  port: number;
  /** The host and port Scribe connects to. */
  target: { host: string; port: number };
  /** The relay's socket, by its name in the network folder. */
  socket: string;
}

/** Where the sandbox sees the network folder: short, because a socket's path may not be long. */
export const NETWORK_DIR_INSIDE = '/tmp/scribe-net';

/**
 * Chromium's managed policy inside the sandbox: no file:, chrome:, view-source: or devtools: page in any
 * context, the ones a spec creates included (the browser refuses them, not a wrapper of Playwright's API).
 */
export const BROWSER_POLICY = { URLBlocklist: ['file://*', 'chrome://*', 'chrome-untrusted://*', 'view-source:*', 'devtools://*', 'chrome-extension://*'] };

/** The folders where Chromium (Debian's, Playwright's) and Chrome read managed policies. */
export const POLICY_DIRS = ['/etc/chromium/policies/managed', '/etc/opt/chrome/policies/managed'];

/**
 * An empty file of the network folder, bound over each secret file the sandbox masks (sandbox.ts): it reads as
 * empty, where a device node (/dev/null) refuses to open, and a config's `process.loadEnvFile('.env')` would throw.
 */
export const EMPTY_FILE = 'empty';

export class AppOriginError extends Error {
  constructor(origin: string) {
    super(
      `a contained run cannot reach ${origin} from its sandbox: only loopback addresses and host names are relayed, not another machine's IP address ` +
        '(use a host name for it, or set runner.yaml containment.os_sandbox to "off")',
    );
    this.name = 'AppOriginError';
  }
}

/** The routes of `origins` (the app's first): deduplicated, http(s) only. */
export function appRoutes(origins: readonly string[]): AppRoute[] {
  const unique = [...new Set(origins.map((origin) => new URL(origin).origin))].filter((origin) => /^https?:/.test(origin));
  let named = 0;
  return unique.map((origin, index) => {
    const url = new URL(origin);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const address = isLoopback(host) ? (host === 'localhost' ? '127.0.0.1' : host) : isIpAddress(host) ? undefined : `127.0.2.${++named}`;
    if (address === undefined) throw new AppOriginError(origin);
    return { origin, address, port, target: { host, port }, socket: `${index}.sock` };
  });
}

/** The sandbox's /etc/hosts: localhost, and each named host at its relay's address. */
export function hostsFile(routes: readonly AppRoute[]): string {
  const named = routes.filter((route) => route.address.startsWith('127.0.2.')).map((route) => `${route.address} ${route.target.host}`);
  return ['127.0.0.1 localhost', '::1 localhost ip6-localhost ip6-loopback', ...new Set(named)].join('\n') + '\n';
}

export interface AppNetwork {
  dir: string;
  routes: AppRoute[];
  close(): Promise<void>;
}

/**
 * Scribe's end of the routes: the network folder (the sockets, the hosts file, the browser policy) and
 * a socket per route whose every connection is piped to the real origin.
 */
export async function openAppNetwork(dir: string, routes: AppRoute[]): Promise<AppNetwork> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(path.join(dir, 'hosts'), hostsFile(routes));
  writeFileAtomic(path.join(dir, 'policy.json'), `${JSON.stringify(BROWSER_POLICY)}\n`);
  writeFileAtomic(path.join(dir, EMPTY_FILE), '');
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  try {
    for (const route of routes) {
      const server = createServer((inbound) => {
        const outbound = connect(route.target.port, route.target.host);
        // Either side failing closes both: an app that refuses the connection is then refused inside the
        // sandbox too (an environment failure at once), not a connection left hanging until a timeout.
        const closeBoth = () => {
          inbound.destroy();
          outbound.destroy();
        };
        for (const side of [inbound, outbound]) {
          sockets.add(side);
          side.on('close', () => sockets.delete(side)).on('error', closeBoth);
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path.join(dir, route.socket), resolve));
    }
  } catch (error) {
    await closeAll(servers, sockets, dir);
    throw error;
  }
  return { dir, routes, close: () => closeAll(servers, sockets, dir) };
}

/** The setup of the relay: opened, and closed (its sockets and folder removed) at teardown. */
export function relayedNetwork(dir: string, routes: AppRoute[]): Setup<AppNetwork> {
  return async () => {
    const network = await openAppNetwork(dir, routes);
    return { value: network, teardown: () => network.close() };
  };
}

async function closeAll(servers: Server[], sockets: Set<Socket>, dir: string): Promise<void> {
  for (const side of sockets) side.destroy();
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  rmSync(dir, { recursive: true, force: true });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isIpAddress(host: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':');
}
