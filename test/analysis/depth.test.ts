/**
 * One depth budget: how far a chain (alias of an alias, member of a member, helper of a helper) is followed
 * is said once, in analysis/depth.ts, so the model, the rules and the gate stop at the same link.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file: file.split(path.sep).join('/'), text: readFileSync(path.join(SRC, file), 'utf8') }));

describe('the depth budget', () => {
  it('is defined once, in analysis/depth.ts', () => {
    expect(sources.filter(({ text }) => /\bconst MAX_DEPTH\s*=/.test(text)).map(({ file }) => file)).toEqual(['analysis/depth.ts']);
  });

  it('is the one the rules and the gate compare against', () => {
    const users = sources.filter(({ text }) => /depth [<>]=? MAX_DEPTH/.test(text));
    expect(users.length).toBeGreaterThanOrEqual(10);
    for (const { file, text } of users.filter(({ file }) => file !== 'analysis/depth.ts')) expect(text, file).toMatch(/import \{ MAX_DEPTH \} from '(\.\.\/)+analysis\/depth\.ts'|from '\.\/depth\.ts'/);
  });
});
