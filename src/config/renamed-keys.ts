/**
 * Keys of agents/*.yaml that were renamed. A file that still writes an old name is read as if it wrote the
 * current one, and says so: each old key becomes a deprecation (file, line, key, and the key to write), which
 * every run reports as a warning. A problem with the value still names the key as the file writes it.
 */
import { hasKey, isMapping, removeAt, setAt, valueAt } from './key-paths.ts';
import { ConfigError, keyPath, type ConfigProblem, type YamlSource } from './load.ts';

export interface RenamedKey {
  /** The key as older files write it. */
  old: readonly string[];
  /** Its name now. */
  current: readonly string[];
  /** Keys that now say apart what the old one also meant: each takes the old value unless the file sets it. */
  alsoSets?: readonly (readonly string[])[];
}

/** A source with its deprecated keys under their current names, and a deprecation for each. */
export interface Renamed {
  source: YamlSource;
  deprecations: ConfigProblem[];
}

export function withRenamedKeys(source: YamlSource, renames: readonly RenamedKey[]): Renamed {
  const present = renames.filter((rename) => hasKey(source.data, rename.old));
  if (present.length === 0 || !isMapping(source.data)) return { source, deprecations: [] };
  const data = structuredClone(source.data);
  // Where a current key now holds what the file wrote under an old one.
  const moved: Array<{ to: readonly string[]; from: readonly string[] }> = [];
  const deprecations: ConfigProblem[] = [];
  const conflicts: ConfigProblem[] = [];
  for (const rename of present) {
    const at = { file: source.file, key: keyPath(rename.old), line: source.lineOf(rename.old) };
    if (hasKey(data, rename.current)) {
      conflicts.push({ ...at, message: `the old name of ${keyPath(rename.current)}, which this file also sets; keep only ${keyPath(rename.current)}` });
      continue;
    }
    const value = valueAt(data, rename.old);
    removeAt(data, rename.old);
    const targets = [rename.current, ...(rename.alsoSets ?? []).filter((key) => !hasKey(data, key))];
    for (const target of targets) {
      setAt(data, target, value);
      moved.push({ to: target, from: rename.old });
    }
    deprecations.push({ ...at, message: `deprecated: read as ${targets.map(keyPath).join(' and ')}; write ${targets.length === 1 ? 'that' : 'those'} instead` });
  }
  if (conflicts.length > 0) throw new ConfigError(conflicts);
  const asWritten = (path: readonly PropertyKey[]): readonly PropertyKey[] => {
    const hit = moved.find(({ to }) => to.every((key, i) => path[i] === key));
    return hit ? [...hit.from, ...path.slice(hit.to.length)] : path;
  };
  const renamed: YamlSource = {
    ...source,
    data,
    lineOf: (path) => source.lineOf(asWritten(path)),
    writtenAs: (path) => source.writtenAs?.(asWritten(path)) ?? asWritten(path),
  };
  return { source: renamed, deprecations };
}
