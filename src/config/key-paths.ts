/** Reading and writing parsed YAML data (plain mappings) by key path. */

export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value at the path; undefined when a key on the way is missing. */
export function valueAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const key of path) {
    if (!isMapping(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

export function hasKey(data: unknown, path: readonly string[]): boolean {
  return valueAt(data, path) !== undefined;
}

/** Sets the value at the path, making the mappings on the way. */
export function setAt(data: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = data;
  for (const key of path.slice(0, -1)) {
    if (!isMapping(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

export function removeAt(data: unknown, path: readonly string[]): void {
  const parent = valueAt(data, path.slice(0, -1));
  if (isMapping(parent)) delete parent[path.at(-1)!];
}
