import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
