/**
 * Where an accepted spec goes and how it is written: atomically, never over an existing spec unless
 * forced, with a provenance record beside it saying how it came to be.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Complexity, Issue } from '../contracts.ts';
import { writeFileAtomic } from '../util/fs.ts';

const MAX_SLUG_LENGTH = 60;

/** `Log in with a valid account!` → `log-in-with-a-valid-account`; cut at a word, never empty. */
export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_LENGTH) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, MAX_SLUG_LENGTH) || 'spec';
}

/** `<cwd>/<output_dir>/<feature-slug>/<request-slug>.spec.ts`, or the given path resolved from cwd. */
export function specPath(cwd: string, outputDir: string, feature: string, description: string, explicit?: string): string {
  if (explicit) return path.resolve(cwd, explicit);
  return path.resolve(cwd, outputDir, slugify(feature), `${slugify(description)}.spec.ts`);
}

/** A spec's path without its `.spec.ts` (or `.test.js`, `.ts`, …) ending: the name its companions share. */
export function specStem(spec: string): string {
  return spec.replace(/\.(spec|test)\.[cm]?[jt]sx?$|\.[cm]?[jt]sx?$/, '');
}

/** `login.spec.ts` → `login.provenance.json`, beside it. */
export function provenancePath(spec: string): string {
  return `${specStem(spec)}.provenance.json`;
}

export const Provenance = z.object({
  version: z.literal(1),
  request: z.string(),
  feature: z.string(),
  complexity: Complexity,
  url: z.string().nullable(),
  provider: z.string(),
  model: z.string(),
  attempts: z.number().int().positive(),
  rules: z.object({
    /** Paths in a record are relative to the project's root, or `~/…` (store/portable-path.ts). */
    critic_config: z.string(),
    passed: z.boolean(),
    issues: z.array(Issue),
    autofixed: z.array(z.object({ rule: z.string(), line: z.number().int(), before: z.string(), changes: z.array(z.object({ removed: z.string(), inserted: z.string() })).optional() })),
  }),
  prompt_sha256: z.string(),
  spec_sha256: z.string(),
  generation: z.string(),
  created_at: z.string(),
  /** accepted: passed the rules, the Critic and (unless not asked to run) a green run; the others need a person. */
  status: z.enum(['accepted', 'not_run', 'needs_review']).optional(),
  note: z.string().optional(),
  critic: z.object({ status: z.enum(['approved', 'rejected']), estimated_duration_ms: z.number(), estimated_cost: z.number() }).optional(),
  runner: z
    .object({ status: z.string(), classification: z.string(), duration_ms: z.number(), error_message: z.string().nullable(), screenshots: z.array(z.string()), traces: z.array(z.string()).optional() })
    .optional(),
  /** Wall time per pipeline stage up to the write, and `total`, in ms. */
  timings_ms: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type Provenance = z.infer<typeof Provenance>;

export class SpecExistsError extends Error {
  readonly file: string;

  constructor(file: string) {
    super(`${file} already exists; pass --force (force: true) to overwrite it`);
    this.name = 'SpecExistsError';
    this.file = file;
  }
}

/** Writes the spec, then its provenance. Without `force`, an existing spec is an error, even one that appears meanwhile. */
export function writeSpec(file: string, code: string, provenance: Provenance, force: boolean): void {
  if (force) writeFileAtomic(file, code);
  else writeFileExclusive(file, code);
  writeFileAtomic(provenancePath(file), `${JSON.stringify(Provenance.parse(provenance), null, 2)}\n`);
}

export function assertWritable(file: string, force: boolean): void {
  if (!force && existsSync(file)) throw new SpecExistsError(file);
}

/** Atomic and no-clobber, so two writers cannot both win. */
function writeFileExclusive(file: string, content: string): void {
  try {
    writeFileAtomic(file, content, { exclusive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new SpecExistsError(file);
    throw error;
  }
}
