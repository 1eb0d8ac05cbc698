/**
 * The proof run's fixtures: the run's own, with assertions that wait the proof's shorter limit, and no trace,
 * failure screenshot or reading of its pages' elements: the proof is judged on its errors alone (it fails, as it
 * should), and the evidence kept is the spec's own. What it keeps of the evidence fixture is the containment and
 * the screenshots it took (files the spec's evidence must not count: evidence.ts).
 */
import { expect as runExpect, test } from './scribe-fixtures.js';
import { readRunSettings } from './scribe-run.js';

export * from './scribe-fixtures.js';
export { default } from './scribe-fixtures.js';

const { proof } = readRunSettings();
if (!proof) throw new Error('scribe-run.json has no proof settings: this run has no proof spec');
export const expect = runExpect.configure({ timeout: proof.expectTimeoutMs });
// Loaded by the proof spec alone, while Playwright loads it: this applies to the proof file's tests only.
test.use({ trace: 'off', screenshot: 'off', scribeReadsPages: false });
