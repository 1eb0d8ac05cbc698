/** The typed segments the pipeline's blocks pass along (agents/workflow.yaml). */
import type { Candidate } from '../agents/scribe.ts';
import type { Complexity, CriticVerdict, Issue, RunnerReport, TestResultSegment } from '../contracts.ts';

/** The request with every default settled: what the blocks work from. */
export interface ResolvedTask {
  description: string;
  feature: string;
  complexity: Complexity;
  /** The app under test, when known (--url or BASE_URL). */
  url?: string;
  /** Where the accepted spec goes. */
  file: string;
  run: boolean;
  force: boolean;
}

export type PipelineSegment =
  | { type: 'REQUEST'; task: ResolvedTask }
  | { type: 'CANDIDATE'; candidate: Candidate; origin: 'scribe' | 'medic' }
  | { type: 'SCRIBE_FAILURE'; candidate: Candidate }
  | { type: 'VERDICT'; verdict: CriticVerdict }
  | (TestResultSegment & { report: RunnerReport })
  | { type: 'HEAL'; outcome: 'healed' | 'refused' | 'failed'; reasons: string[] }
  | { type: 'OUTCOME'; status: 'accepted' | 'not_run' | 'needs_review'; testPath: string | null; message: string; issues?: Issue[] };
