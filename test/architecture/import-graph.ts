/**
 * The imports between the parts of src/ (its folders and its top-level files), read as the compiler
 * reads them (ts.preProcessFile: static and dynamic imports, type-only imports, re-exports, require),
 * and the two ways they can break the layering: an arrow the table does not allow, and a cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';

/** One relative import; `file` and `target` are relative to src/. */
export interface SourceImport {
  file: string;
  /** As written in the file. */
  specifier: string;
  target: string;
}

export type Layers = Readonly<Record<string, readonly string[]>>;

const MODULE_FILE = /\.[cm]?[jt]s$/;

/** Every module under `srcDir`, relative to it, with forward slashes. */
export function moduleFiles(srcDir: string): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => MODULE_FILE.test(file) && !file.endsWith('.d.ts'))
    .sort();
}

/** Every relative import of every module under `srcDir`. */
export function readImports(srcDir: string): SourceImport[] {
  return moduleFiles(srcDir).flatMap((file) => importsOf(file, readFileSync(path.join(srcDir, file), 'utf8')));
}

/** The relative imports in one module's text; packages and Node's modules are outside the layering. */
export function importsOf(file: string, text: string): SourceImport[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ file, specifier, target: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)) }));
}

/** The part a file belongs to: its top folder under src/, or the file itself at the top. */
export function partOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash);
}

function leavesSrc(target: string): boolean {
  return target === '..' || target.startsWith('../');
}

/** Each import the table does not allow, as a message naming the file, the import and the rule it breaks. */
export function layeringViolations(imports: readonly SourceImport[], layers: Layers): string[] {
  return imports.flatMap(({ file, specifier, target }) => {
    const where = `src/${file} imports '${specifier}'`;
    if (leavesSrc(target)) return [`${where}: it leaves src/ (rule: src/ imports only src/ and packages)`];
    const from = partOf(file);
    const to = partOf(target);
    if (from === to) return [];
    const allowed = layers[from];
    if (!allowed) return [`${where}: ${from} has no entry in the layering table (rule: every part of src/ says what it may import)`];
    if (allowed.includes(to)) return [];
    return [`${where}: ${from} may not import ${to} (rule: ${from} may import ${allowed.length > 0 ? allowed.join(', ') : 'nothing outside itself'})`];
  });
}

/** Each cycle between parts, as a message with the import behind each of its arrows. */
export function importCycles(imports: readonly SourceImport[]): string[] {
  const arrows = new Map<string, SourceImport>();
  for (const entry of imports) {
    const from = partOf(entry.file);
    const to = partOf(entry.target);
    if (from !== to && !leavesSrc(entry.target) && !arrows.has(`${from} ${to}`)) arrows.set(`${from} ${to}`, entry);
  }
  const graph = new Map<string, string[]>();
  for (const key of arrows.keys()) {
    const [from, to] = key.split(' ') as [string, string];
    graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  return findCycles(graph).map(({ parts, loop }) => {
    const because = loop.slice(1).map((to, i) => arrows.get(`${loop[i]} ${to}`)!).map((entry) => `src/${entry.file} imports '${entry.specifier}'`);
    const tangle = parts.length > loop.length - 1 ? `${parts.join(', ')} all reach each other; one loop: ` : '';
    return `import cycle between parts of src/: ${tangle}${loop.join(' -> ')} (${because.join('; ')}) (rule: no two parts import each other, directly or around a loop)`;
  });
}

/** Each cycle between files of src/ (inside a part too), as a message with the import behind each of its arrows. */
export function fileCycles(imports: readonly SourceImport[]): string[] {
  const arrows = new Map<string, SourceImport>();
  const graph = new Map<string, string[]>();
  for (const entry of imports) {
    if (leavesSrc(entry.target) || arrows.has(`${entry.file} ${entry.target}`)) continue;
    arrows.set(`${entry.file} ${entry.target}`, entry);
    graph.set(entry.file, [...(graph.get(entry.file) ?? []), entry.target]);
  }
  return findCycles(graph).map(({ loop }) => {
    const because = loop.slice(1).map((to, i) => arrows.get(`${loop[i]} ${to}`)!).map((entry) => `src/${entry.file} imports '${entry.specifier}'`);
    return `import cycle between files of src/: ${loop.join(' -> ')} (${because.join('; ')}) (rule: no two modules import each other, directly or around a loop; type-only imports count)`;
  });
}

/** A group of nodes that all reach each other (a strongly connected component), and its shortest loop. */
export interface Cycle {
  parts: string[];
  /** [a, b, …, a] */
  loop: string[];
}

/** Each group of nodes that reach each other, with one shortest loop through it. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): Cycle[] {
  return stronglyConnected(graph)
    .filter((component) => component.length > 1)
    .map((parts) => ({ parts, loop: shortestCycle(graph, new Set(parts)) }));
}

/** Tarjan's algorithm; each component sorted, for stable messages. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) !== order.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!order.has(node)) visit(node);
  return components;
}

/** The shortest way from the component's first node around and back, breadth first. */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  // The queue grows as it is read: for…of over an array visits what is pushed during the loop.
  for (const node of queue) {
    for (const next of graph.get(node) ?? []) {
      if (next === start) return [...pathTo(node, start, cameFrom), start];
      if (component.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  throw new Error(`no cycle through ${start}, though it is in a strongly connected component`);
}

function pathTo(node: string, start: string, cameFrom: ReadonlyMap<string, string>): string[] {
  return node === start ? [start] : [...pathTo(cameFrom.get(node)!, start, cameFrom), node];
}
