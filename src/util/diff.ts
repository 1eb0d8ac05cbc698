/**
 * A unified diff of two texts, line by line (longest common subsequence), as `diff -u` prints it: what
 * `scribe heal --dry-run` shows and the report keeps of a heal.
 */

/** Lines of context around each change. */
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** `--- a/<name>` / `+++ b/<name>` and the hunks; empty when the texts are the same. */
export function unifiedDiff(before: string, after: string, name: string): string {
  const ops = lineOps(splitLines(before), splitLines(after));
  if (ops.every((op) => op.kind === ' ')) return '';
  const lines = [`--- a/${name}`, `+++ b/${name}`];
  for (const hunk of hunks(ops)) lines.push(hunk.header, ...hunk.ops.map((op) => `${op.kind}${op.line}`));
  return `${lines.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`: kept, removed and added lines in order. */
function lineOps(a: string[], b: string[]): Op[] {
  // common[i][j]: the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  return ops;
}

/** The changes with their context, changes closer than twice the context joined in one hunk. */
function hunks(ops: Op[]): Array<{ header: string; ops: Op[] }> {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const ranges: Array<[number, number]> = [];
  for (const index of changed) {
    const start = Math.max(0, index - CONTEXT);
    const end = Math.min(ops.length, index + CONTEXT + 1);
    const last = ranges.at(-1);
    if (last && start <= last[1]) last[1] = end;
    else ranges.push([start, end]);
  }
  return ranges.map(([start, end]) => {
    const before = ops.slice(0, start);
    const oldStart = before.filter((op) => op.kind !== '+').length + 1;
    const newStart = before.filter((op) => op.kind !== '-').length + 1;
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    return { header: `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ops: slice };
  });
}
