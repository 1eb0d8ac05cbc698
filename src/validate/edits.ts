/** The fixer's text edits: applied from the end so offsets hold, and a fix whose edits overlap a chosen one's left for the next round. */
import type { TextEdit } from '../rules/types.ts';

/** A fix's identity across rounds: its rule and the text it replaces. */
export function fixKey(fix: { rule: string; before: string }): string {
  return `${fix.rule}\0${fix.before}`;
}

/** The fixes, in order, whose edits overlap none chosen before them. */
export function nonOverlapping<T extends { edits: TextEdit[] }>(fixes: T[]): T[] {
  const chosen: T[] = [];
  const taken: TextEdit[] = [];
  for (const fix of fixes) {
    if (fix.edits.some((e) => taken.some((t) => e.start < t.end && t.start < e.end))) continue;
    chosen.push(fix);
    taken.push(...fix.edits);
  }
  return chosen;
}

/** The text with the edits applied (their offsets are into the original text). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
