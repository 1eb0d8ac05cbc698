import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** A text file's content, or undefined when it cannot be read (absent, a folder, no permission). */
export function readTextIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes a file so that readers see the old content or the new, never half of it. `exclusive` refuses a
 * name already taken (EEXIST), even one taken meanwhile: a hard link fails where a rename would replace.
 */
export function writeFileAtomic(file: string, content: string, { exclusive = false }: { exclusive?: boolean } = {}): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(temporary, content);
    if (exclusive) linkSync(temporary, file);
    else renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Whether `file` (absolute, or relative to `dir`) lies inside `dir`, by its path: `dir` itself is not inside it. */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, path.resolve(dir, file));
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** How far `filesBreadthFirst` looks, and what it enters and keeps. */
export interface FileWalk {
  depth: number;
  /** The most files it returns; it stops at the level that reaches them. */
  files: number;
  /** Whether it goes into a folder (it never goes into hidden ones). */
  enters: (entry: Dirent, full: string) => boolean;
  keeps: (entry: Dirent, full: string) => boolean;
}

/** The files below `root` that `walk` keeps, level by level (each level's entries by name), within its bounds; unreadable folders skipped. */
export function filesBreadthFirst(root: string, walk: FileWalk): string[] {
  const found: string[] = [];
  let level = [root];
  for (let depth = 0; depth < walk.depth && level.length > 0 && found.length < walk.files; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && walk.enters(entry, full)) next.push(full);
        } else if (entry.isFile() && walk.keeps(entry, full)) {
          found.push(full);
        }
      }
    }
    level = next;
  }
  return found;
}
