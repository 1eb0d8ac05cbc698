import { estimateDuration, MaxDurationOptions, type TestDuration } from '../analysis/duration.ts';
import { STEP_KINDS, testLabel } from '../analysis/test-steps.ts';
import { defineRule, type Finding } from './types.ts';

export default defineRule({
  id: 'max-duration',
  description: 'A test is estimated to finish within `max_ms` (a cost per step plus explicit waits).',
  fixable: false,
  options: MaxDurationOptions,
  check(model, options) {
    const findings: Finding[] = [];
    for (const test of estimateDuration(model, options).tests) {
      if (test.ms <= options.max_ms) continue;
      findings.push({
        node: test.call,
        message: `${testLabel(model, test)} is estimated at ${seconds(test.ms)} (${breakdown(test)}), over the ${seconds(options.max_ms)} limit; split it into smaller tests or replace fixed waits with web-first assertions.`,
      });
    }
    return findings;
  },
});

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function breakdown(test: TestDuration): string {
  const parts = STEP_KINDS.filter((k) => test.counts[k] > 0).map((k) => `${test.counts[k]} ${k === 'other' ? 'other calls' : k === 'navigation' ? 'navigations' : `${k}s`}`);
  if (test.waits_ms > 0) parts.push(`${seconds(test.waits_ms)} of explicit waits`);
  return parts.length > 0 ? parts.join(', ') : 'no steps';
}
