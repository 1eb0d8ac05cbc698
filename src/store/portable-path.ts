/**
 * Paths as a provenance record keeps them: no absolute machine path (a record is committed and shared).
 * A file in the project is relative to its root; one elsewhere under the home folder is `~/…`; any other
 * is relative to the root too. Reading a record turns them back into paths on this machine.
 */
import path from 'node:path';

export interface PathRoots {
  /** The project's root: what a record's relative paths are relative to. */
  project: string;
  /** The user's home folder ($HOME), when known. */
  home?: string;
}

/** `/home/ann/shop/e2e/x.png` → `e2e/x.png`; `/home/ann/.cache/x` → `~/.cache/x`; `/tmp/x` → `../../../tmp/x`. */
export function portablePath(file: string, roots: PathRoots): string {
  const absolute = path.resolve(roots.project, file);
  const fromProject = path.relative(roots.project, absolute);
  if (!fromProject.startsWith('..') && !path.isAbsolute(fromProject)) return toPosix(fromProject) || '.';
  if (roots.home && isInside(absolute, roots.home)) return `~/${toPosix(path.relative(roots.home, absolute))}`;
  return toPosix(fromProject);
}

/** The inverse of portablePath: the record's path as a path on this machine. */
export function localPath(recorded: string, roots: PathRoots): string {
  if (recorded.startsWith('~/') && roots.home) return path.join(roots.home, recorded.slice(2));
  return path.resolve(roots.project, recorded);
}

/** A message with the project's root and the home folder written as the record writes paths (`./`, `~/`). */
export function portableText(text: string, roots: PathRoots): string {
  const project = path.resolve(roots.project);
  const home = roots.home ? path.resolve(roots.home) : undefined;
  const withoutProject = text.replace(folderPattern(project), (_, separator: string | undefined) => (separator ? '' : '.'));
  return home && !isInside(home, project) ? withoutProject.replace(folderPattern(home), (_, separator: string | undefined) => (separator ? '~/' : '~')) : withoutProject;
}

/** The folder itself, or the folder and a separator: never a longer name that starts like it (`/srv/shop` in `/srv/shopping`). */
function folderPattern(folder: string): RegExp {
  const escaped = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escaped}(?:([\\\\/])|(?![\\w.-]))`, 'g');
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}
