/**
 * The package as `npm pack` makes it, packed once for every package test of a run. Its build (the
 * prepack script) rewrites the repository's dist/, so two test files packing at once would race there,
 * and each pack costs half a minute of CPU. The tarball is kept in the temporary folder under a hash of
 * everything the package is made from: a later file, or run, with the same sources takes it as it is.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What the package is built and packed from: its shipped files, the build and the locked dependencies the CLI bundles. */
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE', 'agents', 'docs', 'scripts', 'src'];
const CACHE = path.join(tmpdir(), 'scribe-test-packed');
const LOCK = path.join(CACHE, 'packing.lock');

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(entry, file))
    .filter((file) => statSync(path.join(ROOT, file)).isFile())
    .sort();
}

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(`${file}\0`).update(readFileSync(path.join(ROOT, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function pack(destination: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['pack', '--pack-destination', destination, '--json'], { cwd: ROOT, timeout: 600_000, maxBuffer: 20 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm pack failed: ${String(stderr).slice(-4000)}`));
      else resolve(path.join(destination, (JSON.parse(String(stdout)) as Array<{ filename: string }>)[0]!.filename));
    });
  });
}

/** Holds the lock while `work` runs; a lock whose process is gone is taken over. */
async function locked<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder();
      if (holder !== undefined && !alive(holder)) rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The pid that holds the lock; undefined while its holder has not written it yet, or once the lock is gone. */
function lockHolder(): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The path of the packed tarball for the sources as they are now. */
export async function packedTarball(): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  return locked(async () => {
    const folder = path.join(CACHE, fingerprint());
    const tarball = existsSync(folder) ? readdirSync(folder).find((file) => file.endsWith('.tgz')) : undefined;
    if (tarball) return path.join(folder, tarball);
    // Older sources' tarballs go; the new one appears whole or not at all.
    for (const old of readdirSync(CACHE)) if (old !== path.basename(LOCK)) rmSync(path.join(CACHE, old), { recursive: true, force: true });
    const temporary = `${folder}.tmp-${process.pid}`;
    mkdirSync(temporary);
    const packed = await pack(temporary);
    renameSync(temporary, folder);
    return path.join(folder, path.basename(packed));
  });
}
