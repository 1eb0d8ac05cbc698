/**
 * Fuzzing `validate` and `validate --fix`: mutated specs (characters and lines dropped, doubled or
 * swapped, typical model mistakes inserted, imports removed, a script without imports added) go through
 * the real Validator. It counts:
 * - crashes: validate or fix threw;
 * - lost assertions: the fixed file's assertions (each expect chain's text, counted independently of the
 *   fix verification) differ from the mutant's, or a file that does not parse was edited;
 * - batch-dependent files: with type-check on, a file's issues when validated in a batch of others
 *   differ from its issues validated alone by a fresh validator.
 *
 *   npx tsx bench/fuzz-validate.ts [mutants=2000] [batch-checked=60] [seed=1]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCriticConfig } from '../src/config/critic.ts';
import { SpecModel } from '../src/analysis/model.ts';
import { Validator, type FileValidation } from '../src/validate/validator.ts';
import { GOOD_SPEC, STRICT_MODE } from '../test/fixtures/model-answers.ts';

const [mutantCount = 2000, batchChecked = 60, seed = 1] = process.argv.slice(2).map(Number);
const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');
const SEEDS = [GOOD_SPEC, STRICT_MODE, read('../test/fixtures/specs/clean.spec.ts'), read('../test/fixtures/specs/planted.spec.ts'), read('./fixtures/realistic.spec.ts')];

const INSERTS = [
  "  await page.waitForTimeout(1000);",
  "  await page.waitForLoadState('networkidle');",
  "  await page.waitForLoadState('networkidle'');",
  "  await page.getByTestId('buy').click({ force: true });",
  "  await page.goto('http://localhost:3000/login');",
  "  page.getByTestId('buy').click();",
  "  await page.pause();",
  "test.only('x', async ({ page }) => { await expect(page).toHaveTitle('x'); });",
  "const password = 'hunter2';",
  "  await expect(page.getByTestId('menu')).toBeHidden();",
  "  await page.locator('.css-1x2y3z').click();",
  "})",
  "{",
];

/** A small deterministic generator (mulberry32), so a run can be repeated exactly. */
function random(seedValue: number): () => number {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, rnd: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  const lines = text.split('\n');
  const at = Math.floor(rnd() * lines.length);
  const mutations: Array<() => string> = [
    () => { const i = Math.floor(rnd() * text.length); return text.slice(0, i) + text.slice(i + 1); },
    () => { const i = Math.floor(rnd() * text.length); return text.slice(0, i) + pick(["'", '"', '(', ')', '{', '}', ';', '`']) + text.slice(i); },
    () => lines.filter((_, i) => i !== at).join('\n'),
    () => [...lines.slice(0, at), lines[at]!, ...lines.slice(at)].join('\n'),
    () => { const other = Math.floor(rnd() * lines.length); const copy = [...lines]; [copy[at], copy[other]] = [copy[other]!, copy[at]!]; return copy.join('\n'); },
    () => [...lines.slice(0, at), pick(INSERTS), ...lines.slice(at)].join('\n'),
    () => lines.filter((l) => !l.startsWith('import ')).join('\n'),
  ];
  let out = text;
  const rounds = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < rounds; i++) out = pick(mutations)();
  return out;
}

function assertionsOf(file: string, text: string): string[] {
  const model = SpecModel.fromText(file, text);
  return model.expectations().map((e) => model.text(e.call).replace(/\s+/g, '')).sort();
}

const signature = (v: FileValidation) => v.issues.map((i) => `${i.rule}@${i.line}:${i.column} ${i.message}`).join('\n');

const rnd = random(seed);
const critic = loadCriticConfig();
const mutants = Array.from({ length: mutantCount }, (_, i) => ({ file: `/virtual/fuzz/m${i}.spec.ts`, text: mutate(SEEDS[i % SEEDS.length]!, rnd) }));

let crashes = 0;
let lost = 0;
let editedUnparsable = 0;
const crashSamples: string[] = [];
const validator = new Validator(critic, { typeCheck: false });
for (const [i, mutant] of mutants.entries()) {
  try {
    validator.validateText(mutant.file, mutant.text);
    const fixed = validator.fix(mutant.file, mutant.text);
    const broken = SpecModel.fromText(mutant.file, mutant.text).syntaxDiagnostics().length > 0;
    if (broken && fixed.text !== mutant.text) editedUnparsable++;
    if (!broken && assertionsOf(mutant.file, fixed.text).join('\n') !== assertionsOf(mutant.file, mutant.text).join('\n')) lost++;
  } catch (error) {
    crashes++;
    if (crashSamples.length < 3) crashSamples.push(`m${i}: ${(error as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
  }
  if (process.stderr.isTTY && i % 100 === 0) process.stderr.write(`\rvalidate + fix: ${i}/${mutants.length}`);
}
if (process.stderr.isTTY) process.stderr.write('\n');

// Batch dependence: the first `batchChecked` mutants in batches of 10 (one shared type-checker per
// batch, as `scribe validate DIR` does), each against a fresh validator that sees it alone.
let dependent = 0;
const dependentSamples: string[] = [];
const checked = mutants.slice(0, batchChecked);
for (let start = 0; start < checked.length; start += 10) {
  const batch = checked.slice(start, start + 10);
  const together = new Validator(critic, { typeCheck: true }).validateMany(batch);
  batch.forEach((mutant, i) => {
    const alone = new Validator(critic, { typeCheck: true }).validateText(mutant.file, mutant.text);
    if (signature(alone) !== signature(together[i]!)) {
      dependent++;
      if (dependentSamples.length < 3) dependentSamples.push(`${mutant.file}: alone ${signature(alone)} vs batch ${signature(together[i]!)}`);
    }
  });
  if (process.stderr.isTTY) process.stderr.write(`\rbatch dependence: ${Math.min(start + 10, checked.length)}/${checked.length}`);
}
if (process.stderr.isTTY) process.stderr.write('\n');

console.log(JSON.stringify({ seed, mutants: mutants.length, crashes, lost_assertions: lost, unparsable_files_edited: editedUnparsable, batch_checked: checked.length, batch_dependent_files: dependent, crash_samples: crashSamples, dependent_samples: dependentSamples }, null, 2));
process.exitCode = crashes + lost + editedUnparsable > 0 ? 1 : 0;
