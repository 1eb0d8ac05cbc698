/** The proof run's fixtures: the run's own, with assertions that wait the proof's shorter limit. */
import { expect as runExpect } from './scribe-fixtures.js';
import { readRunSettings } from './scribe-run.js';

export * from './scribe-fixtures.js';
export { default } from './scribe-fixtures.js';

const { proof } = readRunSettings();
if (!proof) throw new Error('scribe-run.json has no proof settings: this run has no proof spec');
export const expect = runExpect.configure({ timeout: proof.expectTimeoutMs });
