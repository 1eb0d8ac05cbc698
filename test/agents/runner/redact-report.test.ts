import { describe, expect, it } from 'vitest';
import { redactReport } from '../../../src/agents/runner.ts';
import type { RunnerReport } from '../../../src/contracts.ts';

const SECRET = { variable: 'E2E_PASSWORD', value: 'scribe-demo' };

describe('redactReport', () => {
  it('redacts a secret from every text of the report, the final page and test titles included', () => {
    const report: RunnerReport = {
      status: 'fail',
      classification: 'app_bug',
      duration_ms: 10,
      error_message: 'expected scribe-demo',
      error_line: 3,
      screenshots: [],
      console_errors: ['c2NyaWJlLWRlbW8 logged'],
      final_page: { url: 'http://127.0.0.1:3000/login?debug=scribe-demo', testIds: ['login'], roles: [] },
      tests: [{ title: 'signs in with omed-ebircs', line: 4, status: 'failed', duration_ms: 9 }],
    };
    const redacted = redactReport(report, [SECRET]);
    expect(redacted.final_page?.url).toBe('http://127.0.0.1:3000/login?debug=[redacted E2E_PASSWORD]');
    expect(redacted.error_message).toBe('expected [redacted E2E_PASSWORD]');
    expect(redacted.console_errors).toEqual(['[redacted E2E_PASSWORD] logged']);
    expect(redacted.tests?.[0]?.title).toBe('signs in with [redacted E2E_PASSWORD]');
    expect(JSON.stringify(redacted)).not.toMatch(/scribe-demo|c2NyaWJlLWRlbW8|omed-ebircs/);
    // Nothing but the texts changes.
    expect({ ...redacted, error_message: null, console_errors: [], final_page: null, tests: [] }).toEqual({ ...report, error_message: null, console_errors: [], final_page: null, tests: [] });
  });
});
