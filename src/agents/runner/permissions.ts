/**
 * Node's permission model for a contained run: what Playwright's processes may read and write, as
 * NODE_OPTIONS. The runner process may start its worker processes and the browser (contained-cli.cjs);
 * the workers, where the spec runs, may start no process (they connect to that browser), and all write
 * only in the run's working folder and its temporary folder (not the run folder's modules, settings, config
 * or spec copies), with a capped heap.
 * Reads are limited to what a run needs: the run folder, the project, the Playwright installation, and
 * the few files Playwright probes outside them — not the user's home, other projects, /proc (another
 * process's environment) or /etc.
 */
import path from 'node:path';

/** Files Playwright reads at start wherever it runs (the platform probes of its user agent and WSL check). */
const PROBED_FILES = ['/etc/os-release', '/proc/sys/fs/binfmt_misc/WSLInterop', '/run/WSL'];

/** Looked up in every folder above a loaded file (module type, TypeScript config): absent is fine, unreadable is an error. */
const LOOKED_UP = ['package.json', 'tsconfig.json', 'jsconfig.json'];

export interface PermissionPaths {
  /** The run's working folder and its temporary folder: the only places written. */
  writable: readonly string[];
  /** Folders read whole (the project, the spec's own folder, the Playwright installation's node_modules) and single files. */
  readable: readonly string[];
  /** The JavaScript heap of each process, in MB. */
  heapMb: number;
  /** Modules every process requires before its own code, in order (readable must include them). */
  preloads?: readonly string[];
}

export interface RunPermissions {
  /** NODE_OPTIONS of Playwright's runner process. */
  runner: string;
  /** NODE_OPTIONS of its worker processes. */
  workers: string;
}

export function runPermissions(paths: PermissionPaths): RunPermissions {
  const folders = [...new Set([...paths.writable, ...paths.readable].map((folder) => path.resolve(folder)))];
  const lookedUp = [...new Set(folders.flatMap(ancestors))].flatMap((folder) => LOOKED_UP.map((name) => path.join(folder, name)));
  const reads = [...folders, ...PROBED_FILES, ...lookedUp].map((file) => nodeOption('--allow-fs-read', file));
  // Worker threads (Playwright's module loader runs in one) inherit every restriction of their process.
  const common = [
    permissionFlag(),
    '--no-warnings',
    '--allow-worker',
    `--max-old-space-size=${paths.heapMb}`,
    ...reads,
    ...paths.writable.map((folder) => nodeOption('--allow-fs-write', folder)),
    ...preloadOptions(paths.preloads ?? []),
  ];
  return { runner: [...common, '--allow-child-process'].join(' '), workers: common.join(' ') };
}

function ancestors(folder: string): string[] {
  const found: string[] = [];
  for (let current = path.dirname(folder); ; current = path.dirname(current)) {
    found.push(current);
    if (path.dirname(current) === current) return found;
  }
}

/** Node 20 names it --experimental-permission; later Nodes --permission. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

/** NODE_OPTIONS flags that have each process require `preloads` first, in order (throws as nodeOption does). */
export function preloadOptions(preloads: readonly string[]): string[] {
  return preloads.map((preload) => nodeOption('--require', preload));
}

/** A flag with a path NODE_OPTIONS can carry: quoted, so a space in a folder name does not split it. */
export function nodeOption(name: string, value: string): string {
  if (/["\\,]/.test(value)) throw new Error(`cannot run contained: the path ${value} holds a quote, backslash or comma`);
  return `${name}="${value}"`;
}
