import { describe, expect, it } from 'vitest';
import { extractCode, extractSpec, fencedBlocks } from '../../src/llm/extract.ts';
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

describe('extractSpec: three blocks (a spec, a shell block, an alternative spec) in each order', () => {
  const ALTERNATIVE = GOOD_SPEC.replace("test('", "test('alternative: ");
  const blocks = { spec: fenced(GOOD_SPEC), shell: fenced('npx playwright install chromium\n', 'bash'), alternative: fenced(ALTERNATIVE, 'ts') };
  const orders: Array<Array<keyof typeof blocks>> = [
    ['spec', 'shell', 'alternative'],
    ['spec', 'alternative', 'shell'],
    ['shell', 'spec', 'alternative'],
    ['shell', 'alternative', 'spec'],
    ['alternative', 'spec', 'shell'],
    ['alternative', 'shell', 'spec'],
  ];

  it.each(orders)('%s, %s, %s: the first spec wins and the choice is named', (...order) => {
    const answer = order.map((name) => `Block ${name}:\n\n${blocks[name]}`).join('\n\n');
    const firstSpec = order.find((name) => name !== 'shell')!;
    const result = extractSpec(answer);
    expect(result?.code).toBe(firstSpec === 'spec' ? GOOD_SPEC : ALTERNATIVE);
    expect(result?.chosen).toBe(`block ${order.indexOf(firstSpec) + 1} of 3: imports @playwright/test and declares a test`);
  });

  it('a spec beats an earlier helper that only declares a test', () => {
    const helperOnly = "test('no import', async () => {});\n";
    const result = extractSpec(`${fenced(helperOnly, 'ts')}\n\n${fenced(GOOD_SPEC)}`);
    expect(result).toEqual({ code: GOOD_SPEC, chosen: 'block 2 of 2: imports @playwright/test and declares a test' });
  });
});
