/** The typed segments the pipeline's blocks pass along (agents/workflow.yaml). */
import type { ResolvedRequest } from '../agents/request.ts';
import type { Candidate } from '../agents/scribe.ts';
import type { CriticVerdict, Issue, RunnerReport, TestResultSegment } from '../contracts.ts';

export type PipelineSegment =
  /** The settled request, first in every payload. */
  | { type: 'REQUEST'; task: ResolvedRequest }
  | { type: 'CANDIDATE'; candidate: Candidate; origin: 'scribe' | 'medic' }
  | { type: 'SCRIBE_FAILURE'; candidate: Candidate }
  | { type: 'VERDICT'; verdict: CriticVerdict }
  | (TestResultSegment & { report: RunnerReport })
  | { type: 'HEAL'; outcome: 'healed' | 'refused' | 'failed'; reasons: string[] }
  /** A green candidate its proof run did not prove: what the model is told. */
  | { type: 'UNPROVED'; issue: Issue }
  | { type: 'OUTCOME'; status: 'accepted' | 'not_run' | 'needs_review'; testPath: string; message: string; issues?: Issue[] }
  /** Accepted, but a spec appeared at its path meanwhile (written by someone else): nothing was written. */
  | { type: 'OUTCOME'; status: 'exists'; testPath: null; message: string };
