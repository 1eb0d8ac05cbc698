/**
 * Text a spec or a model wrote, made safe to print on a terminal: no escape sequence (OSC 52 sets the
 * clipboard, OSC 0 the window title, CSI 2J clears the screen, cursor moves rewrite what was printed),
 * no other control character but newline and tab, and no bidirectional override that makes text read
 * differently from what it is. Scribe's own colours are added after, around it.
 */
import { stripVTControlCharacters } from 'node:util';

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return stripVTControlCharacters(text).replace(UNPRINTABLE, '');
}
