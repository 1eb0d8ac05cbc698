/**
 * What the pipeline's workers know about the generation so far, read from the payload in the order it
 * was gathered. Workers ask for "the last run" or "the heals used" instead of scanning segments, so no
 * worker depends on how the payload happens to be ordered.
 */
import type { Candidate } from '../agents/scribe.ts';
import type { CriticVerdict } from '../contracts.ts';
import type { ResolvedRequest } from '../agents/request.ts';
import type { PipelineSegment } from './segments.ts';

type SegmentOfType<T extends PipelineSegment['type']> = Extract<PipelineSegment, { type: T }>;
export type RunSegment = SegmentOfType<'TEST_RESULT'>;
export type HealSegment = SegmentOfType<'HEAL'>;

export class RunState {
  constructor(private readonly payload: readonly PipelineSegment[]) {}

  /** The settled request the generation works from. */
  task(): ResolvedRequest {
    const request = this.newest('REQUEST');
    if (!request) throw new Error('the pipeline was started without a REQUEST segment');
    return request.task;
  }

  /** The spec being worked on: the newest candidate, from Scribe or from a heal. */
  candidate(): SegmentOfType<'CANDIDATE'> {
    const candidate = this.newest('CANDIDATE');
    if (!candidate || candidate.candidate.code === null) throw new Error('no candidate spec to work on');
    return candidate;
  }

  /** The newest run, which is the run of the current candidate whenever the Medic is asked. */
  lastRun(): RunSegment | undefined {
    return this.newest('TEST_RESULT');
  }

  lastVerdict(): CriticVerdict | undefined {
    return this.newest('VERDICT')?.verdict;
  }

  /** Candidates sent back: rejected by the Critic, or green but not proved by the proof run. */
  rejections(): number {
    return this.all('VERDICT').filter((s) => s.verdict.status === 'rejected').length + this.all('UNPROVED').length;
  }

  /** Why the current candidate was sent back, when it was: the newest rejection or unproved run since it was made. */
  sentBack(): SegmentOfType<'VERDICT'> | SegmentOfType<'UNPROVED'> | undefined {
    for (let i = this.payload.length - 1; i >= 0; i--) {
      const segment = this.payload[i]!;
      if (segment.type === 'CANDIDATE') return undefined;
      if (segment.type === 'UNPROVED' || (segment.type === 'VERDICT' && segment.verdict.status === 'rejected')) return segment;
    }
    return undefined;
  }

  healsUsed(): number {
    return this.all('HEAL').length;
  }

  /** The reasons of the newest refused heal, for the next fix request. */
  lastRefusal(): string[] | undefined {
    return this.all('HEAL').reverse().find((h) => h.outcome === 'refused')?.reasons;
  }

  /** The last candidate the Critic approved (each one was run); else the current one. */
  bestCandidate(): Candidate {
    let best: Candidate | undefined;
    let candidate: Candidate | undefined;
    for (const segment of this.payload) {
      if (segment.type === 'CANDIDATE') candidate = segment.candidate;
      if (segment.type === 'VERDICT' && segment.verdict.status === 'approved') best = candidate;
    }
    return best ?? this.candidate().candidate;
  }

  /** Model attempts Scribe used across every generation round. */
  attempts(): number {
    return this.payload.reduce((sum, s) => sum + ((s.type === 'CANDIDATE' && s.origin === 'scribe') || s.type === 'SCRIBE_FAILURE' ? s.candidate.attempts : 0), 0);
  }

  newest<T extends PipelineSegment['type']>(type: T): SegmentOfType<T> | undefined {
    for (let i = this.payload.length - 1; i >= 0; i--) if (this.payload[i]!.type === type) return this.payload[i] as SegmentOfType<T>;
    return undefined;
  }

  private all<T extends PipelineSegment['type']>(type: T): SegmentOfType<T>[] {
    return this.payload.filter((s): s is SegmentOfType<T> => s.type === type);
  }
}
