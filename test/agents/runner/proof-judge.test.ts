/** The proof's verdict over several copies (src/agents/runner/proof.ts judgeProofs): every group of actions must be proved by its own copy. */
import { describe, expect, it } from 'vitest';
import type { NeutralisedSpec } from '../../../src/analysis/neutralise.ts';
import type { PlaywrightReport } from '../../../src/agents/runner/playwright-report.ts';
import { judgeProofs } from '../../../src/agents/runner/proof.ts';

/** A copy whose one test (line 3) made `actions` no-ops, the lines after them its checks. */
function copy(actions: string[], firstLine: number): NeutralisedSpec {
  return { text: '', tests: [{ title: 't', line: 3, actions: actions.map((source, index) => ({ line: firstLine + index, source })), checkLines: [firstLine + actions.length, firstLine + actions.length + 1], snapshotLines: [], signIn: [], setAside: [], retriedAt: [] }] };
}

/** The copy's report: its test passed, or failed at `line` of `file`. */
function ran(file: string, failedAt?: number): PlaywrightReport {
  const result = failedAt === undefined
    ? { status: 'passed' as const, duration: 1, errors: [], attachments: [] }
    : { status: 'failed' as const, duration: 1, errors: [{ message: 'expect failed', location: { file, line: failedAt, column: 3 } }], attachments: [] };
  return { errors: [], suites: [{ title: file, specs: [{ title: 't', line: 3, tests: [{ results: [result] }] }] }] };
}

describe('judgeProofs', () => {
  const last = copy(["page.getByTestId('nav-products').click()"], 9);
  const earlier = copy(["page.getByTestId('add-to-cart').click()"], 6);

  it('is unproved when an earlier group’s copy still passes, naming that group', () => {
    const verdict = judgeProofs([
      { report: ran('a.spec.ts.proof.ts', 10), file: 'a.spec.ts.proof.ts', neutralised: last },
      { report: ran('a.spec.ts.proof2.ts'), file: 'a.spec.ts.proof2.ts', neutralised: earlier },
    ]);
    expect(verdict).toMatchObject({ verdict: 'unproved', actions: ["page.getByTestId('add-to-cart').click()"], line: 6 });
  });

  it('is proved when every copy fails after its own group, naming every group', () => {
    const verdict = judgeProofs([
      { report: ran('a.spec.ts.proof.ts', 10), file: 'a.spec.ts.proof.ts', neutralised: last },
      { report: ran('a.spec.ts.proof2.ts', 7), file: 'a.spec.ts.proof2.ts', neutralised: earlier },
    ]);
    expect(verdict).toMatchObject({ verdict: 'proved', actions: ["page.getByTestId('nav-products').click()", "page.getByTestId('add-to-cart').click()"], line: 6 });
    expect(verdict.message).toContain('each group of actions on its own');
  });

  it('names the checks set aside when the last assertions pass without the actions', () => {
    const flash: NeutralisedSpec = { ...last, tests: [{ ...last.tests[0]!, setAside: [10] }] };
    const verdict = judgeProofs([{ report: ran('a.spec.ts.proof.ts'), file: 'a.spec.ts.proof.ts', neutralised: flash }]);
    expect(verdict.verdict).toBe('unproved');
    expect(verdict.message).toMatch(/^your last assertions pass even when/);
    expect(verdict.message).toContain('the check at line 10, which the test moves on from, does not count');
  });

  it('is inconclusive, whatever the copies did, when an assertion retries an action under test', () => {
    const retrying: NeutralisedSpec = { ...last, tests: [{ ...last.tests[0]!, retriedAt: [8] }] };
    const verdict = judgeProofs([{ report: ran('a.spec.ts.proof.ts', 10), file: 'a.spec.ts.proof.ts', neutralised: retrying }]);
    expect(verdict).toMatchObject({ verdict: 'inconclusive', actions: ["page.getByTestId('nav-products').click()"], line: 9 });
    expect(verdict.message).toContain('is retried inside the assertion at line 8');
  });

  it('with one copy, is that copy’s verdict', () => {
    expect(judgeProofs([{ report: ran('a.spec.ts.proof.ts', 10), file: 'a.spec.ts.proof.ts', neutralised: last }])).toMatchObject({ verdict: 'proved', actions: ["page.getByTestId('nav-products').click()"] });
  });
});
