/**
 * Takes the spec out of a model's answer. Models wrap code in prose, add a shell block for installing
 * things, or show a helper before the test; the spec is the block that holds the test.
 */

/** Block languages that can hold a spec; an untagged block counts as code too. */
const CODE_LANGUAGES = new Set(['', 'typescript', 'ts', 'tsx', 'javascript', 'js', 'jsx', 'plain', 'text', 'txt']);

const FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;
const PLAYWRIGHT_IMPORT = /\bfrom\s+['"]@playwright\/test['"]|require\(\s*['"]@playwright\/test['"]\s*\)/;
const TEST_CALL = /\btest(?:\.(?:describe|only|skip|fixme|step))?\s*\(/;

export interface CodeBlock {
  language: string;
  code: string;
}

export interface ExtractedSpec {
  code: string;
  /** Which block was taken and why, for logs and provenance: "block 1 of 3: imports @playwright/test and declares a test". */
  chosen: string;
}

/** The spec's code, or null when the answer holds none (a failed attempt, answered with feedback). */
export function extractCode(answer: string): string | null {
  return extractSpec(answer)?.code ?? null;
}

/**
 * The block that is a spec: the first one that imports @playwright/test and declares a test; without
 * such a block, the first that does one of the two; else the first code block.
 */
export function extractSpec(answer: string): ExtractedSpec | null {
  const all = fencedBlocks(answer);
  const blocks = all.filter((b) => CODE_LANGUAGES.has(b.language) && b.code.trim() !== '');
  if (blocks.length === 0) return looksLikeBareSpec(answer) ? { code: `${answer.trim()}\n`, chosen: 'the whole answer (no code block): imports @playwright/test and declares a test' } : null;
  const best = blocks.reduce((chosen, block) => (testScore(block.code) > testScore(chosen.code) ? block : chosen));
  const code = best.code.endsWith('\n') ? best.code : `${best.code}\n`;
  return { code, chosen: `block ${all.indexOf(best) + 1} of ${all.length}: ${SCORE_MEANING[testScore(best.code)]}` };
}

const SCORE_MEANING = ['neither imports @playwright/test nor declares a test', 'imports @playwright/test or declares a test, not both', 'imports @playwright/test and declares a test'];

/** Every fenced block, in order. A last block the answer never closed (a cut-off answer) runs to the end. */
export function fencedBlocks(answer: string): CodeBlock[] {
  const lines = answer.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  let open: { fence: string; language: string; body: string[] } | undefined;
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (!open) {
      if (match) open = { fence: match[1]!, language: match[2]!.toLowerCase(), body: [] };
      continue;
    }
    const closes = match !== null && match[2] === '' && match[1]![0] === open.fence[0] && match[1]!.length >= open.fence.length;
    if (closes) {
      blocks.push({ language: open.language, code: open.body.join('\n') });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  if (open) blocks.push({ language: open.language, code: open.body.join('\n') });
  return blocks;
}

/** 2: imports Playwright and calls test(); 1: one of the two; 0: neither. Ties go to the earlier block. */
function testScore(code: string): number {
  return Number(PLAYWRIGHT_IMPORT.test(code)) + Number(TEST_CALL.test(code));
}

/** An answer that is nothing but a spec, without fences (some local models answer so). */
function looksLikeBareSpec(answer: string): boolean {
  const text = answer.trim();
  return /^(?:import|const|\/\/|\/\*)/.test(text) && testScore(text) === 2;
}
