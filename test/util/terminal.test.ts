import { describe, expect, it } from 'vitest';
import { printable } from '../../src/util/terminal.ts';

describe('printable', () => {
  it('drops escape sequences and control characters, keeps text, newlines and tabs', () => {
    expect(printable('a\u001b]52;c;ZWNobyBwd25lZA==\u0007b')).toBe('ab');
    expect(printable('a\u001b]0;title\u001b\\b')).toBe('ab');
    expect(printable('\u001b[2J\u001b[3J\u001b[Hclear')).toBe('clear');
    expect(printable('red \u001b[31mtext\u001b[0m')).toBe('red text');
    expect(printable('bell\u0007 back\bspace\rreturn\u009b1m')).toBe('bell backspacereturn');
    expect(printable('safe\u202e\u2066txet')).toBe('safetxet');
    expect(printable('line one\n\tline two — é ✔')).toBe('line one\n\tline two — é ✔');
  });
});
