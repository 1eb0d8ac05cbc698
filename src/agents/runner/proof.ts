/**
 * The proof run's verdict, from the Playwright report of a run that held the spec and its neutralised
 * copies (analysis/neutralise.ts, one per group of actions; each judged on its own): the copy's tests that act must fail, each on a line it reaches after its
 * first neutralised action. Everything before that line ran as in the spec's green run, so such a failure
 * is caused by the actions not happening; a pass means the assertions hold without them.
 */
import type { ProofResult } from '../../contracts.ts';
import type { NeutralisedSpec, NeutralisedTest } from '../../analysis/neutralise.ts';
import { errorText, testsOf, type ExecutedTest, type PlaywrightReport } from './playwright-report.ts';

/** The report without the proof copies' tests (the spec's own verdict is judged on it), and each copy's, in the order of `proofNames`. */
export function splitReport(report: PlaywrightReport, proofNames: readonly string[]): { spec: PlaywrightReport; proofs: PlaywrightReport[] } {
  const isNamed = (title: string, name: string) => title === name || title.endsWith(`/${name}`);
  return {
    spec: { ...report, suites: report.suites.filter((suite) => !proofNames.some((name) => isNamed(suite.title, name))) },
    proofs: proofNames.map((name) => ({ ...report, suites: report.suites.filter((suite) => isNamed(suite.title, name)) })),
  };
}

/**
 * The verdict of a proof run of several copies (one per group of actions, the last group's first): each copy
 * must prove its group. The first copy that does not (unproved before inconclusive) is the verdict; when all
 * do, the actions of every copy are proved.
 */
export function judgeProofs(copies: ReadonlyArray<{ report: PlaywrightReport; file: string; neutralised: NeutralisedSpec }>): ProofResult {
  const retrying = copies.map((copy) => retried(copy.neutralised)).find((verdict) => verdict !== undefined);
  if (retrying) return retrying;
  const verdicts = copies.map((copy) => judgeProof(copy.report, copy.file, copy.neutralised));
  const failing = verdicts.find((v) => v.verdict === 'unproved') ?? verdicts.find((v) => v.verdict !== 'proved');
  if (failing || verdicts.length === 1) return failing ?? verdicts[0]!;
  const actions = [...new Set(verdicts.flatMap((v) => v.actions))];
  return { verdict: 'proved', message: `its assertions fail when ${listed(actions)} ${actions.length === 1 ? 'is' : 'are'} not done, each group of actions on its own`, actions, line: Math.min(...verdicts.map((v) => v.line)) };
}

export function judgeProof(proofReport: PlaywrightReport, proofFile: string, neutralised: NeutralisedSpec): ProofResult {
  const acting = neutralised.tests.filter((test) => test.actions.length > 0);
  if (acting.length === 0) {
    const signIn = neutralised.tests.flatMap((t) => t.signIn).length > 0 ? ' besides signing in' : '';
    return {
      verdict: 'no_actions',
      message: `the spec does nothing${signIn} that an assertion checks afterwards: do what the request asks (fill, click, select, …), then assert what it changes`,
      actions: [],
      line: neutralised.tests[0]?.line ?? 1,
    };
  }
  const ran = testsOf(proofReport);
  const outcomes = acting.map((test) => ({ test, outcome: outcomeOf(test, ran.find((r) => r.line === test.line), proofFile) }));
  const unproved = outcomes.filter((o) => o.outcome.kind === 'passed');
  if (unproved.length > 0) {
    const actions = unproved.flatMap((o) => o.test.actions.map((a) => a.source));
    const setAside = [...new Set(unproved.flatMap((o) => o.test.setAside))];
    const onTheWay = setAside.length > 0 ? `; the ${setAside.length === 1 ? 'check' : 'checks'} at line ${setAside.join(', ')}, which the test moves on from, ${setAside.length === 1 ? 'does' : 'do'} not count: end on what the request asks to see, and make it depend on the actions` : '';
    return {
      verdict: 'unproved',
      message: `your ${setAside.length > 0 ? 'last ' : ''}assertions pass even when ${listed(actions)} ${actions.length === 1 ? 'is' : 'are'} never done (the spec was run once more with ${actions.length === 1 ? 'it' : 'them'} made no-ops, and it still passed): assert what doing ${actions.length === 1 ? 'it' : 'them'} changes (the text, count or page it leads to, a value the app computes), not what the page shows before nor the value the spec itself typed or the box it ticked; where earlier steps set the stage, assert the state they make before the action under test${onTheWay}`,
      actions,
      line: unproved[0]!.test.actions[0]!.line,
    };
  }
  const elsewhere = outcomes.find((o) => o.outcome.kind === 'elsewhere');
  if (elsewhere) {
    return {
      verdict: 'inconclusive',
      message: `the spec run without ${listed(elsewhere.test.actions.map((a) => a.source))} did not fail on a check after them, so it does not show the assertions depend on them: ${elsewhere.outcome.kind === 'elsewhere' ? elsewhere.outcome.reason : ''}`,
      actions: elsewhere.test.actions.map((a) => a.source),
      line: elsewhere.test.actions[0]!.line,
    };
  }
  return {
    verdict: 'proved',
    message: `its assertions fail when ${listed(acting.flatMap((t) => t.actions.map((a) => a.source)))} ${acting.flatMap((t) => t.actions).length === 1 ? 'is' : 'are'} not done`,
    actions: acting.flatMap((t) => t.actions.map((a) => a.source)),
    line: acting[0]!.actions[0]!.line,
  };
}

/**
 * Inconclusive without a run when an action under test is retried by an assertion around it: in the copy
 * that assertion would retry no-ops until the test's limit, and its failure then says nothing of the action.
 */
export function retried(neutralised: NeutralisedSpec): ProofResult | undefined {
  const test = neutralised.tests.find((t) => t.actions.length > 0 && t.retriedAt.length > 0);
  if (!test) return undefined;
  const actions = test.actions.map((a) => a.source);
  return {
    verdict: 'inconclusive',
    message: `${listed(actions)} ${actions.length === 1 ? 'is' : 'are'} retried inside the assertion at line ${test.retriedAt.join(', ')} (\`expect(async () => { … }).toPass()\`), so the spec cannot be run without ${actions.length === 1 ? 'it' : 'them'} to show its assertions depend on ${actions.length === 1 ? 'it' : 'them'}: do the actions once, outside any assertion, then assert what they change with web-first assertions, which retry on their own`,
    actions,
    line: test.actions[0]!.line,
  };
}

type Outcome = { kind: 'passed' } | { kind: 'failed_after' } | { kind: 'elsewhere'; reason: string };

function outcomeOf(test: NeutralisedTest, ran: ExecutedTest | undefined, proofFile: string): Outcome {
  const result = ran?.result;
  if (!result || result.status === 'skipped') return { kind: 'elsewhere', reason: 'the proof run did not run it' };
  if (result.status === 'passed') return { kind: 'passed' };
  const errors = result.errors.length > 0 ? result.errors : result.error ? [result.error] : [];
  const lines = errors.flatMap((error) => (error.location && sameFile(error.location.file, proofFile) ? [error.location.line] : []));
  if (lines.some((line) => test.snapshotLines.includes(line))) {
    return { kind: 'elsewhere', reason: 'it failed on a snapshot comparison, and the copy has no snapshot to compare against (snapshot files are named by the test file), so that says nothing about the actions; assert what the actions change with a check that is not a snapshot' };
  }
  if (lines.some((line) => test.checkLines.includes(line))) return { kind: 'failed_after' };
  const first = errorText(errors[0]).split('\n')[0] ?? result.status;
  return { kind: 'elsewhere', reason: lines.length > 0 ? `it failed at line ${lines[0]}: ${first}` : first };
}

function sameFile(file: string, proofFile: string): boolean {
  return file === proofFile || file.endsWith(`/${proofFile.split('/').at(-1)}`);
}

function listed(actions: readonly string[]): string {
  const unique = [...new Set(actions)];
  const shown = unique.slice(0, 3).map((a) => `\`${a}\``);
  const more = unique.length > 3 ? ` and ${unique.length - 3} more` : '';
  return shown.length <= 1 ? `${shown[0] ?? ''}${more}` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}${more}`;
}
