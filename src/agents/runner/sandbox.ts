/**
 * The OS sandbox around a contained run, where the machine has one: bubblewrap (Debian's `bubblewrap`).
 * Playwright's processes then see a file system of their own — the system's programs and libraries
 * read-only, the project and the Playwright installation read-only (its secret files, .env and the
 * like, empty), the run folder read-only but for its working folder (workspace.ts), and nothing else: no home folder, no other project, no /tmp,
 * no host process in /proc. The browser runs in it with the test (contained-cli.cjs launches it), and what the spec might start despite the
 * permission model (code that runs while Playwright loads the file) is inside it too. It has no network
 * but its own loopback, where the app's origins are relayed (app-network.ts); its /etc/hosts and
 * Chromium's managed policy come from the network folder. The run's temporary folder (downloads, the
 * browser profile) is a tmpfs of a capped size, and no process in it writes a file past a capped size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { NETWORK_DIR_INSIDE, POLICY_DIRS } from './app-network.ts';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** System folders and files a Node process and Chromium need: programs, libraries, fonts, Debian's Chromium launcher settings, TLS roots, time zones. */
const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/nsswitch.conf', '/etc/fonts', '/etc/chromium.d', '/etc/os-release', '/etc/ssl', '/etc/ca-certificates', '/etc/localtime', '/etc/passwd', '/etc/group'];

export interface SandboxPaths {
  /** The run's working folder, inside the run folder: the one folder of the machine the run writes, and where it starts. */
  workDir: string;
  /** Folders and files the run reads: the run folder, the project, the spec's folder, the Playwright installation, Scribe's launcher. */
  readOnly: readonly string[];
  /** The network folder (app-network.ts): its sockets, hosts file and browser policy. */
  networkDir: string;
  /** The run's temporary folder, a tmpfs inside the sandbox, and its size. */
  tempDir: string;
  limits: { tempBytes: number; fileBytes: number };
}

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
    ...fileSizeLimit(paths.limits.fileBytes, env),
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
    // The project is readable, its secrets are not: each is an empty file in the sandbox.
    ...secretFilesIn(readOnly).flatMap((file) => ['--ro-bind', '/dev/null', file]),
    '--ro-bind', paths.networkDir, NETWORK_DIR_INSIDE,
    '--ro-bind', path.join(paths.networkDir, 'hosts'), '/etc/hosts',
    ...POLICY_DIRS.flatMap((dir) => ['--ro-bind', path.join(paths.networkDir, 'policy.json'), path.join(dir, 'scribe.json')]),
    // Over the run folder's read-only bind: its modules, settings, config and spec copies stay as Scribe wrote them.
    '--bind', paths.workDir, paths.workDir,
    '--size', String(paths.limits.tempBytes), '--tmpfs', paths.tempDir,
    '--chdir', paths.workDir,
    '--',
  ];
}

/** Files a project keeps secrets in, by name: .env and its variants, package registry and host credentials. */
const SECRET_FILE = /^(\.env(\..+)?|\.npmrc|\.netrc|\.pgpass|\.git-credentials)$/;

/** The secret files at the top of each folder the run reads (the project, the spec's folder, the user's config folder). */
export function secretFilesIn(folders: readonly string[]): string[] {
  return folders.flatMap((folder) => {
    try {
      return readdirSync(folder, { withFileTypes: true })
        .filter((entry) => SECRET_FILE.test(entry.name) && (entry.isFile() || entry.isSymbolicLink()))
        .map((entry) => path.join(folder, entry.name));
    } catch {
      return [];
    }
  });
}

/** util-linux's prlimit, where there is one: no process of the run writes a file larger than `bytes`. */
export function fileSizeLimit(bytes: number, env: NodeJS.ProcessEnv): string[] {
  const prlimit = findProgram('prlimit', env);
  return prlimit ? [prlimit, `--fsize=${bytes}`, '--'] : [];
}

/** Whether a contained run here gets the OS sandbox (with `auto`). */
export function osSandboxAvailable(env: NodeJS.ProcessEnv): boolean {
  const bwrap = process.platform === 'linux' ? findBubblewrap(env) : undefined;
  return bwrap !== undefined && probe(bwrap) === undefined;
}

function findBubblewrap(env: NodeJS.ProcessEnv): string | undefined {
  return findProgram('bwrap', env);
}

function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, name);
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
