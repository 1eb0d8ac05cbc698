/**
 * The spec store: where the pipeline's specs end up. An accepted spec is written where its request asked,
 * with its provenance record beside it. A validated spec that is not accepted (not run, an app bug, a
 * Medic fallback, a stand-in) is kept for a person's review beside that place as `<name>.<status>.ts`,
 * outside Playwright's testMatch (under .scribe/review/ when the user's testMatch would pick that name
 * up), and never over an existing file.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GenerationReporter } from '../agents/reporter.ts';
import type { ResolvedRequest } from '../agents/request.ts';
import type { Candidate } from '../agents/scribe.ts';
import type { CriticVerdict, RunnerReport } from '../contracts.ts';
import type { ProjectContext } from '../project/context.ts';
import { statsHome } from '../stats/log.ts';
import { portablePath, portableText, type PathRoots } from './portable-path.ts';
import { specStem, writeSpec, type Provenance } from './spec-files.ts';

/** What the later stages found, for the provenance record. */
export interface SpecEvidence {
  verdict?: CriticVerdict;
  /** The last run; none when the spec was not run. */
  report?: RunnerReport;
  /** Wall time per stage up to the write, and `total`, in ms. */
  timings?: Record<string, number>;
}

/** Why a spec is kept for review: it could not be run, or it needs a person's judgement. */
export type ReviewStatus = 'not_run' | 'needs_review';

export interface SpecStoreOptions {
  /** Its testMatch and .scribe/ decide where a spec kept for review goes; its critic.yaml is named in every record. */
  project: ProjectContext;
  reporter: GenerationReporter;
  /** Overwrite an existing spec where a request asks for it (a spec kept for review never overwrites). */
  force: boolean;
}

/** What an accepted spec that was not run says of itself. */
const NOT_RUN_NOTE = 'not run: no app URL or --no-run';

export class SpecStore {
  constructor(private readonly options: SpecStoreOptions) {}

  /**
   * Writes an accepted spec where its request asked, `accepted` when it ran (green) and `not_run` when it
   * was not asked to run; returns its path. A spec already there is a SpecExistsError unless forced.
   */
  accept(candidate: Candidate, request: ResolvedRequest, evidence: SpecEvidence): string {
    const status = evidence.report ? 'accepted' : 'not_run';
    return this.write(candidate, request, request.file, { status, ...(evidence.report ? {} : { note: NOT_RUN_NOTE }) }, evidence, this.options.force);
  }

  /** Keeps a spec that is not accepted for a person's review, with why in its record; returns where. */
  keep(candidate: Candidate, request: ResolvedRequest, status: ReviewStatus, note: string, evidence: SpecEvidence): string {
    const file = freeReviewPath(request.file, status, this.options.project);
    return this.write(candidate, request, file, { status, note }, evidence, false);
  }

  private write(candidate: Candidate, request: ResolvedRequest, file: string, outcome: Pick<Provenance, 'status' | 'note'>, evidence: SpecEvidence, force: boolean): string {
    if (!candidate.success || candidate.code === null) throw new Error('only a validated candidate can be written');
    // A record is committed beside its spec: its paths are the project's or the home folder's, not this machine's.
    const roots: PathRoots = { project: this.options.project.cwd, home: this.options.project.env.HOME };
    const provenance = { ...provenanceOf(candidate, candidate.code, request, portablePath(this.options.project.agents.critic.file, roots)), ...outcome, ...evidenceRecord(evidence, roots) };
    writeSpec(file, candidate.code, provenance, force);
    this.options.reporter.report({ type: 'written', testPath: file });
    return file;
  }
}

/** How the spec came to be: the request, the model, the attempts and what the rules found. */
function provenanceOf(candidate: Candidate, code: string, request: ResolvedRequest, criticConfig: string): Provenance {
  return {
    version: 1,
    request: request.description,
    feature: request.feature,
    complexity: request.complexity,
    url: request.url ?? null,
    provider: candidate.provider,
    model: candidate.model,
    attempts: candidate.attempts,
    rules: { critic_config: criticConfig, passed: true, issues: candidate.issues, autofixed: candidate.autofixed },
    prompt_sha256: candidate.promptHash,
    spec_sha256: createHash('sha256').update(code).digest('hex'),
    generation: candidate.generation,
    created_at: new Date().toISOString(),
  };
}

/** The Critic's verdict, the last run and the timings, as the record keeps them (paths made portable). */
function evidenceRecord({ verdict, report, timings }: SpecEvidence, roots: PathRoots): Pick<Provenance, 'critic' | 'runner' | 'timings_ms'> {
  return {
    ...(verdict ? { critic: { status: verdict.status, estimated_duration_ms: verdict.estimated_duration_ms, estimated_cost: verdict.estimated_cost } } : {}),
    ...(report
      ? {
          runner: {
            status: report.status,
            classification: report.classification,
            duration_ms: report.duration_ms,
            error_message: report.error_message === null ? null : portableText(report.error_message, roots),
            screenshots: report.screenshots.map((file) => portablePath(file, roots)),
            ...(report.traces ? { traces: report.traces.map((file) => portablePath(file, roots)) } : {}),
          },
        }
      : {}),
    ...(timings ? { timings_ms: timings } : {}),
  };
}

/** `<name>.not-run.ts` or `<name>.needs-review.ts` beside the spec (or under .scribe/review/), numbered past any file already there. */
function freeReviewPath(file: string, status: ReviewStatus, project: ProjectContext): string {
  const suffix = status === 'not_run' ? 'not-run' : 'needs-review';
  const beside = specStem(file);
  const matched = project.playwright?.matches(`${beside}.${suffix}.ts`) === true;
  const base = matched ? path.join(statsHome(project.env, project.cwd), 'review', path.relative(project.cwd, beside).replace(/^(\.\.[\\/])+/, '')) : beside;
  for (let n = 1; ; n++) {
    const candidate = `${base}.${suffix}${n === 1 ? '' : `-${n}`}.ts`;
    if (!existsSync(candidate)) return candidate;
  }
}
