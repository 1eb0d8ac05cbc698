/**
 * Where a job's spec will be written, checked before the job is queued: inside the output folder
 * (generated-tests/), by its letters and by where the file system really leads (symbolic links
 * followed). A caller's outputPath is taken relative to that folder; a leading `generated-tests/` is
 * accepted too, so the testPath of an earlier result can be sent back as is. The path itself is the
 * pipeline's: the request is settled by the same resolveRequest.
 */
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ProjectContext } from '../project/context.ts';
import { provenancePath } from '../store/spec-files.ts';
import { resolveRequest, type RequestInput } from '../workflow/request.ts';
import { HttpError, type FieldProblem } from './errors.ts';

const SPEC_FILE = /\.(spec|test)\.ts$/;

/**
 * The absolute spec path for the request, or a 400 naming the field that would lead outside the
 * project's output folder.
 */
export function checkedSpecTarget(project: ProjectContext, request: RequestInput): string {
  const root = project.outputDir;
  const outputDir = path.relative(project.cwd, root) || '.';
  const problems: FieldProblem[] = [];
  if (request.feature !== undefined) problems.push(...nameProblems('feature', request.feature));
  if (request.outputPath !== undefined) problems.push(...outputPathProblems(request.outputPath));
  if (problems.length > 0) throw HttpError.invalid(problems);

  const field = request.outputPath !== undefined ? 'outputPath' : request.feature !== undefined ? 'feature' : 'description';
  const outputPath = request.outputPath === undefined ? undefined : path.resolve(root, withoutRootPrefix(request.outputPath, path.relative(project.cwd, root)));
  const settled = resolveRequest({ ...request, outputPath }, project);
  if (!settled.ok) throw HttpError.invalid([{ field: settled.field ?? field, message: settled.error }]);
  const file = settled.value.file;
  const realRoot = realLocation(root);
  for (const written of [file, provenancePath(file)]) {
    if (!isInside(root, written)) throw HttpError.invalid([{ field, message: `must stay inside ${outputDir}/` }]);
    const real = realLocation(written);
    if (real === null || realRoot === null || !isInside(realRoot, real)) {
      throw HttpError.invalid([{ field, message: `leads outside ${outputDir}/ through a symbolic link` }]);
    }
  }
  return file;
}

/**
 * A file or folder a caller asks Scribe to read (validate, run): inside the project folder, by its
 * letters and by where symbolic links lead, and existing; else a 400 naming `field`.
 */
export function checkedProjectPath(cwd: string, value: string, field: string): string {
  const characters = characterProblems(field, value);
  if (characters.length > 0) throw HttpError.invalid(characters);
  const root = path.resolve(cwd);
  const file = path.resolve(root, value);
  if (file !== root && !isInside(root, file)) throw HttpError.invalid([{ field, message: 'must stay inside the project folder' }]);
  const real = realLocation(file);
  const realRoot = realLocation(root);
  if (real === null || realRoot === null || (real !== realRoot && !isInside(realRoot, real))) {
    throw HttpError.invalid([{ field, message: 'leads outside the project folder through a symbolic link' }]);
  }
  if (!existsSync(file)) throw HttpError.invalid([{ field, message: `${value}: no such file or folder` }]);
  return file;
}

/** Text that must never reach a file name: NUL and other control characters, backslashes. */
function characterProblems(field: string, value: string): FieldProblem[] {
  if (/[\u0000-\u001f\u007f]/.test(value)) return [{ field, message: 'must not contain control characters (NUL included)' }];
  if (value.includes('\\')) return [{ field, message: 'must not contain backslashes' }];
  return [];
}

/** A feature is a name: it may read like "Login / Auth", but never like a way up or out. */
function nameProblems(field: string, value: string): FieldProblem[] {
  const characters = characterProblems(field, value);
  if (characters.length > 0) return characters;
  if (value.trim() === '') return [{ field, message: 'must not be empty' }];
  if (isAbsoluteLike(value) || value.split('/').some((segment) => segment.trim() === '..')) {
    return [{ field, message: 'must be a name, not a path (no "..", no leading "/")' }];
  }
  return [];
}

function outputPathProblems(value: string): FieldProblem[] {
  const field = 'outputPath';
  const characters = characterProblems(field, value);
  if (characters.length > 0) return characters;
  if (isAbsoluteLike(value)) return [{ field, message: 'must be relative to generated-tests/, not absolute' }];
  if (value.split('/').some((segment) => segment === '..')) return [{ field, message: 'must not contain ".." segments' }];
  if (!SPEC_FILE.test(value)) return [{ field, message: 'must name a spec file ending in .spec.ts or .test.ts' }];
  return [];
}

/** Absolute on any platform a caller may think in: /x, C:/x, //host/x, ~/x. */
function isAbsoluteLike(value: string): boolean {
  return value.startsWith('/') || value.startsWith('~') || /^[A-Za-z]:/.test(value);
}

function withoutRootPrefix(outputPath: string, rootFromCwd: string): string {
  const prefix = `${rootFromCwd.split(path.sep).join('/')}/`;
  return rootFromCwd && !rootFromCwd.startsWith('..') && outputPath.startsWith(prefix) ? outputPath.slice(prefix.length) : outputPath;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * Where a path really leads: the real path of its deepest existing ancestor plus the parts that do not
 * exist yet. null when a part is a symbolic link that points nowhere (what it would create is unknown).
 */
function realLocation(file: string): string | null {
  const missing: string[] = [];
  let current = file;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      if (isSymbolicLink(current)) return null;
      const parent = path.dirname(current);
      if (parent === current) return file;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isSymbolicLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
