/**
 * The OS sandbox around a contained run, where the machine has one: bubblewrap (Debian's `bubblewrap`).
 * Playwright's processes then see a file system of their own — the system's programs and libraries
 * read-only, the project and the Playwright installation read-only, the run folder writable, and
 * nothing else: no home folder, no other project, no /tmp, no host process in /proc. What the spec
 * might start despite the permission model (code that runs while Playwright loads the file) is inside
 * it too. The network is shared: the test must reach the browser Scribe launched on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** System folders and files a Node process needs: programs, libraries, name resolution, TLS roots, time zones. */
const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/hosts', '/etc/resolv.conf', '/etc/nsswitch.conf', '/etc/os-release', '/etc/ssl', '/etc/ca-certificates', '/etc/localtime', '/etc/passwd', '/etc/group'];

export interface SandboxPaths {
  runDir: string;
  /** Folders and files the run reads: the project, the spec's folder, the Playwright installation, Scribe's launcher. */
  readOnly: readonly string[];
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
    bwrap!,
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    ...readOnly.flatMap((p) => ['--ro-bind-try', p, p]),
    '--bind', paths.runDir, paths.runDir,
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
