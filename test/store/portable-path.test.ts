import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localPath, portablePath, portableText } from '../../src/store/portable-path.ts';

const roots = { project: '/home/ann/shop', home: '/home/ann' };

describe('portablePath', () => {
  it('writes a file in the project relative to its root, one elsewhere in the home folder as ~/, any other relative to the root', () => {
    expect(portablePath('/home/ann/shop/.scribe/runs/1/home.png', roots)).toBe('.scribe/runs/1/home.png');
    expect(portablePath('/home/ann/shop', roots)).toBe('.');
    expect(portablePath('/home/ann/.cache/scribe/x.png', roots)).toBe('~/.cache/scribe/x.png');
    expect(portablePath('/tmp/scribe-run-1/x.png', roots)).toBe('../../../tmp/scribe-run-1/x.png');
    expect(portablePath('/tmp/scribe-run-1/x.png', { project: '/home/ann/shop' })).toBe('../../../tmp/scribe-run-1/x.png');
    // A sibling whose name starts like the project is not inside it.
    expect(portablePath('/home/ann/shopping/x.png', roots)).toBe('~/shopping/x.png');
  });

  it('is read back as the same file on this machine', () => {
    for (const file of ['/home/ann/shop/e2e/a.png', '/home/ann/.cache/b.png', '/tmp/c.png']) {
      expect(localPath(portablePath(file, roots), roots)).toBe(path.resolve(file));
    }
  });
});

describe('portableText', () => {
  it("rewrites the project's root and the home folder in a message, and nothing that only starts like them", () => {
    expect(portableText('Error at /home/ann/shop/e2e/a.spec.ts:3:5 (cwd /home/ann/shop)', roots)).toBe('Error at e2e/a.spec.ts:3:5 (cwd .)');
    expect(portableText('cannot read /home/ann/.auth/user.json', roots)).toBe('cannot read ~/.auth/user.json');
    expect(portableText('see /home/ann/shopping/x and /home/annie/y', roots)).toBe('see ~/shopping/x and /home/annie/y');
    expect(portableText('no paths here', roots)).toBe('no paths here');
  });

  it('escapes the folder name: a root with regex characters matches only itself', () => {
    expect(portableText('at /srv/a+b (1)/x.ts and /srv/aab (1)/x.ts', { project: '/srv/a+b (1)' })).toBe('at x.ts and /srv/aab (1)/x.ts');
  });
});
