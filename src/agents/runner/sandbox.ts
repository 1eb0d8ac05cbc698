/**
 * The OS sandbox around a contained run, where the machine has one: bubblewrap (Debian's `bubblewrap`).
 * Playwright's processes then see a file system of their own — the system's programs and libraries
 * read-only, the project and the Playwright installation read-only (the project's secret files, .env and
 * the like, empty, a few folders deep; its .git and Scribe's home, empty folders), the run folder read-only but for its working folder (workspace.ts), and nothing else: no home folder, no other project, no /tmp,
 * no host process in /proc. The browser runs in it with the test (contained-cli.cjs launches it), and what the spec might start despite the
 * permission model (code that runs while Playwright loads the file) is inside it too. It has no network
 * but its own loopback, where the app's origins are relayed (app-network.ts); its /etc/hosts and
 * Chromium's managed policy come from the network folder. The run's temporary folder (downloads, the
 * browser profile) is a tmpfs of a capped size, and no process in it writes a file past a capped size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../util/fs.ts';
import { EMPTY_FILE, NETWORK_DIR_INSIDE, POLICY_DIRS } from './app-network.ts';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** No capability inside the sandbox, whoever starts it (the probe checks that this bubblewrap accepts it). */
const SANDBOX_CAPABILITIES = ['--cap-drop', 'ALL'];

/** System folders and files a Node process and Chromium need: programs, libraries, fonts, Debian's Chromium launcher settings, TLS roots, time zones. */
const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/nsswitch.conf', '/etc/fonts', '/etc/chromium.d', '/etc/os-release', '/etc/ssl', '/etc/ca-certificates', '/etc/localtime', '/etc/passwd', '/etc/group'];

export interface SandboxPaths {
  /** The run folder: read-only, also where it sits inside a hidden folder (Scribe's home). */
  runDir: string;
  /** The run's working folder, inside the run folder: the one folder of the machine the run writes, and where it starts. */
  workDir: string;
  /** Folders inside the readable ones the run sees empty: Scribe's home (other runs, the statistics, kept evidence). */
  hidden: readonly string[];
  /** Folders and files the run reads: the run folder, the project, the spec's folder, the Playwright installation, Scribe's launcher. */
  readOnly: readonly string[];
  /**
   * The user's folders among them (the project, the spec's folder, the config's folder): where secret files are
   * looked for. Not the installation: its thousands of package folders would use up the folders a run looks
   * into before the project's deeper ones, and cost every run the reading of them.
   */
  userFolders: readonly string[];
  /** The network folder (app-network.ts): its sockets, hosts file, browser policy and the empty file secrets are masked with. */
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

/** The command prefix that runs a program in the sandbox, or why there is none here (and it is not required). */
export type SandboxChoice = { prefix: string[] } | { unavailable: string };

export function sandboxPrefix(setting: SandboxSetting, paths: SandboxPaths, env: NodeJS.ProcessEnv): SandboxChoice {
  if (setting === 'off') return { unavailable: 'runner.yaml containment.os_sandbox is "off"' };
  const problem = sandboxProblem(env);
  if (problem !== undefined) {
    if (setting === 'required') throw new SandboxUnavailableError(problem);
    return { unavailable: problem };
  }
  const bwrap = findBubblewrap(env)!;
  const nodePrefix = path.resolve(process.execPath, '..', '..');
  const readOnly = [...new Set([...SYSTEM_READ_ONLY, nodePrefix, ...paths.readOnly.map((p) => path.resolve(p))])];
  const prefix = [
    ...fileSizeLimit(paths.limits.fileBytes, env),
    bwrap,
    // Started by root, bubblewrap makes no user namespace and keeps root's capabilities: code the run starts
    // could remount a read-only bind writable (the project, /usr) or make devices. None are kept.
    ...SANDBOX_CAPABILITIES,
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    // A name of its own: the host's is not the run's to read.
    '--hostname', 'scribe-run',
    '--unshare-cgroup-try',
    '--unshare-net',
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    ...readOnly.flatMap((p) => ['--ro-bind-try', p, p]),
    // The project is readable, its secrets are not: each is an empty file in the sandbox, its .git an empty folder.
    ...secretFilesIn(paths.userFolders.map((p) => path.resolve(p))).flatMap((file) => ['--ro-bind', path.join(paths.networkDir, EMPTY_FILE), file]),
    ...hiddenFolders([...paths.hidden, ...gitFoldersIn(readOnly)], readOnly, paths.runDir).flatMap((dir) => ['--tmpfs', dir]),
    // Bound again over a hidden Scribe home that holds it.
    '--ro-bind', paths.runDir, paths.runDir,
    '--ro-bind', paths.networkDir, NETWORK_DIR_INSIDE,
    '--ro-bind', path.join(paths.networkDir, 'hosts'), '/etc/hosts',
    ...POLICY_DIRS.flatMap((dir) => ['--ro-bind', path.join(paths.networkDir, 'policy.json'), path.join(dir, 'scribe.json')]),
    // Over the run folder's read-only bind: its modules, settings, config and spec copies stay as Scribe wrote them.
    '--bind', paths.workDir, paths.workDir,
    '--size', String(paths.limits.tempBytes), '--tmpfs', paths.tempDir,
    '--chdir', paths.workDir,
    '--',
  ];
  return { prefix };
}

/** Files a project keeps secrets in, by name: .env and its variants, package registry and host credentials. */
const SECRET_FILE = /^(\.env(\..+)?|\.npmrc|\.netrc|\.pgpass|\.git-credentials)$/;
/** How deep below each folder the run reads its secret files are looked for (`config/env/.env.local` is 2 deep). */
const SECRET_DEPTH = 3;
/** At most this many folders are read per run: a large monorepo's deeper secrets stay readable rather than slow every run. */
const SECRET_FOLDERS = 2_000;
/** Folders not looked into: installed packages, a repository's own data, Scribe's home. */
const NOT_LOOKED_INTO = new Set(['node_modules', '.git', '.scribe']);

/**
 * A folder with more subfolders than this holds generated ones (a folder per test in test-results, a
 * virtualenv's or a package cache's packages): they are read after every other folder, the narrowest first,
 * so they cannot use up SECRET_FOLDERS before the project's own folders are read.
 */
const WIDE_FOLDER = 200;

interface FolderToRead {
  folder: string;
  depth: number;
  /** How many subfolders the widest folder above it (from where it was found) has: above WIDE_FOLDER, it waits. */
  width: number;
}

/** The secret files in each of the user's folders the run reads (the project, the spec's folder, the config's folder) and the folders below it, a few deep. */
export function secretFilesIn(folders: readonly string[]): string[] {
  const found = new Set<string>();
  const first: FolderToRead[] = folders.map((folder) => ({ folder, depth: 0, width: 0 }));
  const later: FolderToRead[] = [];
  let laterSorted = false;
  for (let read = 0; read < SECRET_FOLDERS; read++) {
    // Sorted once, when only folders that wait are left: the narrowest first (what they hold is read after the rest).
    if (first.length === 0 && !laterSorted) {
      later.sort((a, b) => a.width - b.width);
      laterSorted = true;
    }
    const next = first.shift() ?? later.shift();
    if (next === undefined) break;
    let entries;
    try {
      entries = readdirSync(next.folder, { withFileTypes: true });
    } catch {
      continue;
    }
    const subfolders: string[] = [];
    for (const entry of entries) {
      const full = path.join(next.folder, entry.name);
      if (SECRET_FILE.test(entry.name) && (entry.isFile() || entry.isSymbolicLink())) found.add(full);
      else if (entry.isDirectory() && !NOT_LOOKED_INTO.has(entry.name)) subfolders.push(full);
    }
    if (next.depth === SECRET_DEPTH) continue;
    const width = Math.max(next.width, subfolders.length);
    (width > WIDE_FOLDER ? later : first).push(...subfolders.map((folder) => ({ folder, depth: next.depth + 1, width })));
  }
  return [...found];
}

/**
 * The folders to show empty: each inside a folder the run reads (elsewhere there is nothing to hide), and none
 * that holds another one it reads but the run folder, which is bound again over it (a spec kept for review under
 * Scribe's home, run from there, still reads its own folder).
 */
export function hiddenFolders(hidden: readonly string[], readOnly: readonly string[], runDir: string): string[] {
  const resolved = [...new Set(hidden.map((dir) => path.resolve(dir)))];
  return resolved.filter((dir) => readOnly.some((folder) => isInside(folder, dir)) && !readOnly.some((folder) => folder !== runDir && (folder === dir || isInside(dir, folder))));
}

/** The `.git` folder at the top of each folder the run reads: a remote's URL may carry a token, and no run needs it. */
function gitFoldersIn(folders: readonly string[]): string[] {
  return [...new Set(folders.map((folder) => path.join(folder, '.git')))].filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
}

/** util-linux's prlimit, where there is one: no process of the run writes a file larger than `bytes`. */
export function fileSizeLimit(bytes: number, env: NodeJS.ProcessEnv): string[] {
  const prlimit = findProgram('prlimit', env);
  return prlimit ? [prlimit, `--fsize=${bytes}`, '--'] : [];
}

/** Whether a contained run here gets the OS sandbox (with `auto`). */
export function osSandboxAvailable(env: NodeJS.ProcessEnv): boolean {
  return sandboxProblem(env) === undefined;
}

/** Why bubblewrap cannot make a sandbox here, or undefined when it can. */
function sandboxProblem(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform !== 'linux') return 'not on Linux';
  const bwrap = findBubblewrap(env);
  return bwrap === undefined ? 'bwrap not found' : probed(bwrap);
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

/** How long one probe may take: bwrap starts in milliseconds, but a loaded machine may hold it for seconds. */
const PROBE_TIMEOUT_MS = 20_000;

/**
 * The probe's answer for each bwrap, kept for the process: whether user namespaces work is a fact of the
 * machine, and probing before every run on a loaded machine cost each run the wait, and under `auto` a run
 * whose probe timed out went without the sandbox. A probe that timed out twice is not kept.
 */
const probes = new Map<string, string | undefined>();

function probed(bwrap: string): string | undefined {
  if (probes.has(bwrap)) return probes.get(bwrap);
  const first = probe(bwrap);
  const answer = first.timedOut ? probe(bwrap) : first;
  if (answer.timedOut) return `bwrap did not answer its probe within ${PROBE_TIMEOUT_MS / 1000} s, twice (a loaded machine?)`;
  probes.set(bwrap, answer.problem);
  return answer.problem;
}

/** Whether bwrap can make a sandbox here (user namespaces may be off, or the container may forbid them). */
function probe(bwrap: string): { problem?: string; timedOut: boolean } {
  try {
    execFileSync(bwrap, [...SANDBOX_CAPABILITIES, '--ro-bind', '/', '/', '--unshare-pid', '--proc', '/proc', '--dev', '/dev', 'true'], { stdio: 'pipe', timeout: PROBE_TIMEOUT_MS });
    return { timedOut: false };
  } catch (error) {
    const failure = error as { stderr?: Buffer; code?: string; message: string };
    if (failure.code === 'ETIMEDOUT') return { timedOut: true };
    const stderr = String(failure.stderr ?? '').trim();
    return { problem: `bwrap failed: ${stderr || failure.message}`, timedOut: false };
  }
}
