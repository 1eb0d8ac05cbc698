/**
 * One generation's context: built once by the pipeline when the request is settled, and handed to every
 * stage. Stages take their configuration from it (the project's agents), never load it themselves.
 */
import type { StartedContainedRun } from '../agents/contained-run.ts';
import type { Critic } from '../agents/critic.ts';
import type { Medic } from '../agents/medic.ts';
import type { GenerationReporter, StageStatus } from '../agents/reporter.ts';
import type { ResolvedRequest } from '../agents/request.ts';
import type { Scribe } from '../agents/scribe.ts';
import type { ProjectContext } from '../project/context.ts';
import type { SpecStore } from '../store/spec-store.ts';
import type { Validator } from '../validate/validator.ts';
import type { StageClock } from './stage-clock.ts';

export interface GenerationContext {
  /** The generation's id in the statistics. */
  generation: string;
  /** Its folder, environment, agents (the configuration of every stage) and Playwright project. */
  project: ProjectContext;
  /** The request, settled against the project. */
  request: ResolvedRequest;
  /** Where everything that happens goes: the statistics, the stage lines, the caller's own reporter. */
  reporter: GenerationReporter;
  signal?: AbortSignal;
  /** The validator for untrusted code every candidate was checked with: a run takes only what it passes. */
  gate: Validator;
  /** Each stage's time so far, for the provenance record and `timings_ms`. */
  clock: StageClock;
  /** Run the spec against the app (the request's `run`, default true). */
  run: boolean;
  /** The contained run started when the request was settled, for its spec's file: the first run claims it. */
  startedRun?: StartedContainedRun;
}

/** The stages themselves, made from the context. */
export interface Stages {
  scribe: Scribe;
  critic: Critic;
  /** Made on first use: healing needs the model, which a run that passes never asks twice. */
  medic: () => Promise<Medic>;
  /** Writes the accepted spec, or keeps one for review. */
  store: SpecStore;
}

/** A stage line (started, done, failed or info) to the generation's reporter. */
export function reportStage(context: GenerationContext, stage: string, status: StageStatus, message: string): void {
  context.reporter.report({ type: 'stage', stage, status, message });
}
