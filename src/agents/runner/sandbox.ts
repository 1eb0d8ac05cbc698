/**
 * The OS sandbox around a contained run, where the machine has one: bubblewrap (Debian's `bubblewrap`).
 * Playwright's processes then see a file system of their own — the system's programs and libraries
 * read-only, the project and the Playwright installation read-only, the run folder writable, and
 * nothing else: no home folder, no other project, no /tmp, no host process in /proc. What the spec
 * might start despite the permission model (code that runs while Playwright loads the file) is inside
 * it too. It has no network but its own loopback: the one connection a run needs, to the browser
 * Scribe launched, is relayed through a Unix socket (openBrowserRelay here, contained-cli.cjs inside),
 * so the test reaches the app only through the browser.
 */
import { execFileSync } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** System folders and files a Node process needs: programs, libraries, name resolution, TLS roots, time zones. */
const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/hosts', '/etc/resolv.conf', '/etc/nsswitch.conf', '/etc/os-release', '/etc/ssl', '/etc/ca-certificates', '/etc/localtime', '/etc/passwd', '/etc/group'];

export interface SandboxPaths {
  runDir: string;
  /** Folders and files the run reads: the project, the spec's folder, the Playwright installation, Scribe's launcher. */
  readOnly: readonly string[];
  /** The relay's socket on this machine, and where the sandbox sees it. */
  relay?: { socket: string; inside: string };
}

/** Where the sandbox sees the browser relay's socket: short, because a socket path may not be long. */
export const RELAY_SOCKET_INSIDE = '/tmp/scribe-browser.sock';

export class SandboxUnavailableError extends Error {
  constructor(detail: string) {
    super(`runner.yaml containment.os_sandbox is "required" but no OS sandbox works here (${detail}); install bubblewrap (apt-get install bubblewrap) or set it to "auto"`);
    this.name = 'SandboxUnavailableError';
  }
}

/** The command prefix that runs a program in the sandbox, or undefined where there is none (and it is not required). */
export function sandboxPrefix(setting: SandboxSetting, paths: SandboxPaths, env: NodeJS.ProcessEnv): string[] | undefined {
  if (setting === 'off' || process.platform !== 'linux') {
    if (setting === 'required') throw new SandboxUnavailableError(`not on Linux`);
    return undefined;
  }
  const bwrap = findBubblewrap(env);
  const problem = bwrap === undefined ? 'bwrap not found' : probe(bwrap);
  if (problem !== undefined) {
    if (setting === 'required') throw new SandboxUnavailableError(problem);
    return undefined;
  }
  const nodePrefix = path.resolve(process.execPath, '..', '..');
  const readOnly = [...new Set([...SYSTEM_READ_ONLY, nodePrefix, ...paths.readOnly.map((p) => path.resolve(p))])];
  return [
    bwrap!,
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--unshare-net',
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    ...readOnly.flatMap((p) => ['--ro-bind-try', p, p]),
    '--bind', paths.runDir, paths.runDir,
    ...(paths.relay ? ['--bind', paths.relay.socket, paths.relay.inside] : []),
    '--chdir', paths.runDir,
    '--',
  ];
}

function findBubblewrap(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'bwrap');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Whether bwrap can make a sandbox here (user namespaces may be off, or the container may forbid them). */
function probe(bwrap: string): string | undefined {
  try {
    execFileSync(bwrap, ['--ro-bind', '/', '/', '--unshare-pid', '--proc', '/proc', '--dev', '/dev', 'true'], { stdio: 'pipe', timeout: 5000 });
    return undefined;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return `bwrap failed: ${stderr || (error as Error).message}`;
  }
}

/**
 * Scribe's end of the browser relay: a Unix socket whose every connection is piped to the browser's
 * WebSocket port on 127.0.0.1. Inside the sandbox, contained-cli.cjs listens on that same port of the
 * sandbox's own loopback and pipes to the socket, so the test's wsEndpoint works unchanged.
 */
export async function openBrowserRelay(socket: string, port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    for (const side of [inbound, outbound]) {
      sockets.add(side);
      side.on('close', () => sockets.delete(side)).on('error', () => side.destroy());
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const side of sockets) side.destroy();
        server.close(() => resolve());
      }),
  };
}
