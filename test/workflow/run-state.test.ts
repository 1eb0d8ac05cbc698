import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/agents/scribe.ts';
import type { CriticVerdict, RunnerReport } from '../../src/contracts.ts';
import { RunState } from '../../src/workflow/run-state.ts';
import type { PipelineSegment } from '../../src/workflow/segments.ts';

const task = { description: 'd', feature: 'f', complexity: 'easy' as const, file: '/x.spec.ts', run: true, force: false };
const candidate = (code: string, attempts = 1): Candidate => ({ success: true, code, file: '/x.spec.ts', attempts, issues: [] }) as unknown as Candidate;
const verdict = (status: CriticVerdict['status']): CriticVerdict => ({ status, reason: status, issues_found: [], estimated_cost: 0, estimated_duration_ms: 1 });
const run = (error: string): PipelineSegment =>
  ({ type: 'TEST_RESULT', content: error, outcome: 'FAIL', report: { status: 'fail', classification: 'test_bug', error_message: error } as RunnerReport }) as PipelineSegment;

describe('RunState', () => {
  const payload: PipelineSegment[] = [
    { type: 'REQUEST', task },
    { type: 'CANDIDATE', candidate: candidate('first', 2), origin: 'scribe' },
    { type: 'VERDICT', verdict: verdict('approved') },
    run('first error'),
    { type: 'HEAL', outcome: 'refused', reasons: ['dropped an assertion'] },
    { type: 'HEAL', outcome: 'healed', reasons: [] },
    { type: 'CANDIDATE', candidate: candidate('second'), origin: 'medic' },
    { type: 'VERDICT', verdict: verdict('rejected') },
    run('second error'),
  ];
  const state = new RunState(payload);

  it('answers with the newest run, candidate and verdict, whatever came between', () => {
    expect(state.lastRun()?.report.error_message).toBe('second error');
    expect(state.candidate().candidate.code).toBe('second');
    expect(state.lastVerdict()?.status).toBe('rejected');
    expect(state.task()).toBe(task);
  });

  it('counts heals and rejections, remembers the last refusal, and picks the last approved candidate as the best', () => {
    expect(state.healsUsed()).toBe(2);
    expect(state.rejections()).toBe(1);
    expect(state.lastRefusal()).toEqual(['dropped an assertion']);
    expect(state.bestCandidate().code).toBe('first');
    expect(state.attempts()).toBe(2);
  });

  it('says what is missing instead of answering with nothing', () => {
    expect(() => new RunState([]).task()).toThrow(/REQUEST/);
    expect(new RunState([{ type: 'REQUEST', task }]).lastRun()).toBeUndefined();
  });
});
