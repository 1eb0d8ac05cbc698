/**
 * How many model calls Scribe's autofix saves. Each case is a first answer with a typical model
 * mistake; a scripted model answers every feedback with the corrected spec (the best case for the
 * model: it fixes everything it is told in one go). The same cases run through the real Scribe loop
 * (real validator, type-check on) with autofix on and off, and the model calls are counted.
 *
 *   npx tsx bench/autofix-savings.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Scribe } from '../src/agents/scribe.ts';
import { loadCriticConfig } from '../src/config/critic.ts';
import { loadScribeConfig } from '../src/config/scribe.ts';
import type { Completion, CompletionRequest, ModelProvider } from '../src/llm/types.ts';
import { Validator } from '../src/validate/validator.ts';
import { GOOD_SPEC, chatty } from '../test/fixtures/model-answers.ts';

const replace = (from: string, to: string) => (spec: string) => {
  if (!spec.includes(from)) throw new Error(`bench case does not apply: ${from}`);
  return spec.replace(from, to);
};

const CASES: Array<{ name: string; mistake: (spec: string) => string }> = [
  { name: 'missing await', mistake: replace("    await page.getByTestId('search-submit').click();", "    page.getByTestId('search-submit').click();") },
  { name: 'test.only', mistake: replace("test('search finds a product'", "test.only('search finds a product'") },
  { name: 'force: true', mistake: replace(".getByTestId('search-submit').click();", ".getByTestId('search-submit').click({ force: true });") },
  { name: 'waitForTimeout', mistake: replace("    await page.goto('/search');", "    await page.goto('/search');\n    await page.waitForTimeout(2000);") },
  { name: "waitForLoadState('networkidle')", mistake: replace("    await page.goto('/search');", "    await page.goto('/search');\n    await page.waitForLoadState('networkidle');") },
  { name: 'absolute localhost URL', mistake: replace("page.goto('/search')", "page.goto('http://localhost:3000/search')") },
  { name: "locator('[data-testid=…]')", mistake: replace("page.getByTestId('search-input')", "page.locator('[data-testid=\"search-input\"]')") },
  {
    name: 'all of the above at once',
    mistake: (spec) => CASES.slice(0, 7).reduce((text, c) => c.mistake(text), spec),
  },
  { name: 'control: invented API (no autofix)', mistake: replace("await page.getByTestId('search-submit').click();", "await page.getByTestId('search-submit').tap({ twice: true });") },
];

/** First call: the mistaken spec; every later call: the corrected one. */
class ScriptedModel implements ModelProvider {
  readonly name = 'scripted';
  calls = 0;
  constructor(private readonly first: string) {}

  async complete(request: CompletionRequest): Promise<Completion> {
    this.calls++;
    return { text: chatty(this.calls === 1 ? this.first : GOOD_SPEC), model: request.model, usage: { prompt: 0, completion: 0, total: 0 }, attempts: 1 };
  }
}

const critic = loadCriticConfig();
const validator = new Validator(critic, { typeCheck: true });
const cwd = mkdtempSync(path.join(tmpdir(), 'scribe-bench-'));

async function modelCalls(first: string, autofix: boolean): Promise<{ calls: number; success: boolean }> {
  const model = new ScriptedModel(first);
  const scribe = new Scribe({ cwd, env: {}, config: loadScribeConfig(), critic, validator, provider: model, autofix, stats: false });
  const candidate = await scribe.generate({ description: 'search for milk', feature: 'search', complexity: 'medium', file: path.join(cwd, 'search.spec.ts') });
  return { calls: model.calls, success: candidate.success };
}

try {
  const rows: Array<[string, number, number]> = [];
  for (const c of CASES) {
    const first = c.mistake(GOOD_SPEC);
    const withFix = await modelCalls(first, true);
    const without = await modelCalls(first, false);
    if (!withFix.success || !without.success) throw new Error(`case "${c.name}" did not end in a valid spec`);
    rows.push([c.name, withFix.calls, without.calls]);
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${'case'.padEnd(width)}  calls with autofix  without  saved`);
  for (const [name, withFix, without] of rows) console.log(`${name.padEnd(width)}  ${String(withFix).padStart(18)}  ${String(without).padStart(7)}  ${String(without - withFix).padStart(5)}`);
  const totalWith = rows.reduce((s, r) => s + r[1], 0);
  const totalWithout = rows.reduce((s, r) => s + r[2], 0);
  console.log(`\nmodel calls: ${totalWith} with autofix, ${totalWithout} without — autofix saved ${totalWithout - totalWith} of ${totalWithout} (${Math.round(((totalWithout - totalWith) / totalWithout) * 100)}%) over ${rows.length} cases`);
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
