import { describe, expect, it } from 'vitest';
import { extractCode, fencedBlocks } from '../../src/llm/extract.ts';
import { GOOD_SPEC, chatty, fenced } from '../fixtures/model-answers.ts';

describe('extractCode', () => {
  it('takes the code of a typescript block out of prose', () => {
    expect(extractCode(chatty(GOOD_SPEC))).toBe(GOOD_SPEC);
  });

  it.each(['ts', 'js', 'javascript', ''])('accepts a block tagged "%s"', (language) => {
    expect(extractCode(fenced(GOOD_SPEC, language))).toBe(GOOD_SPEC);
  });

  it('returns null for an answer with no code', () => {
    expect(extractCode('I am sorry, I cannot write tests for this page.')).toBeNull();
    expect(extractCode('')).toBeNull();
  });

  it('ignores blocks in other languages', () => {
    expect(extractCode('Install it first:\n```bash\nnpm i -D @playwright/test\n```\nThat is all.')).toBeNull();
  });

  it('with several blocks, picks the one that holds the test', () => {
    const helper = "export const searchFor = (term: string) => term.trim();\n";
    const answer = `First a helper:\n\n${fenced(helper, 'ts')}\n\nThen install:\n\n${fenced('npm i -D @playwright/test\n', 'bash')}\n\nAnd the test:\n\n${fenced(GOOD_SPEC)}\n\nDone.`;
    expect(extractCode(answer)).toBe(GOOD_SPEC);
  });

  it('prefers the test even when it comes first', () => {
    const answer = `${fenced(GOOD_SPEC)}\n\nYou could also add:\n\n${fenced('const extra = 1;\n', 'ts')}`;
    expect(extractCode(answer)).toBe(GOOD_SPEC);
  });

  it('keeps a block the answer never closed (a cut-off answer), so validation can say what is wrong', () => {
    expect(extractCode(`Here:\n\`\`\`typescript\n${GOOD_SPEC}`)).toBe(GOOD_SPEC);
  });

  it('accepts an answer that is nothing but a spec', () => {
    expect(extractCode(GOOD_SPEC)).toBe(GOOD_SPEC);
  });

  it('does not close a block on a fence with a language tag or a shorter fence', () => {
    const blocks = fencedBlocks('````md\n```ts\nx\n```\n````');
    expect(blocks).toEqual([{ language: 'md', code: '```ts\nx\n```' }]);
  });
});
