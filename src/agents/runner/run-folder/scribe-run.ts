/**
 * What Scribe's Runner tells one run's own modules (the evidence fixtures, the proof fixtures, the
 * overlay of the user's config): scribe-run.json, written beside them in the run folder. The modules of
 * this folder are copied into every run folder and run there, in Playwright's processes, where nothing
 * of Scribe is importable: they import packages and each other only, with `.js` specifiers, which
 * Playwright resolves to the copies (named `.ts`) as it does the compiled ones of the package.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunOverlay } from './scribe-overlay.js';

export const RUN_SETTINGS_FILE = 'scribe-run.json';
/**
 * The environment variable that names the run folder for Playwright's processes. Their working folder is
 * the run's `work/`, where the run may write; these files stay above it, where it may not.
 */
export const RUN_FOLDER_VARIABLE = 'SCRIBE_RUN_FOLDER';

export interface ProofTimings {
  expectTimeoutMs: number;
  quietMs: number;
  afterQuietMs: number;
}

export interface RunSettings {
  /** The name of the attachment the evidence fixture writes (chosen per run: a spec's own is not evidence). */
  evidenceAttachment: string;
  /** An untrusted run: its browser context reaches only http(s). */
  contained: boolean;
  /**
   * A proof run: how long the proof spec's assertions wait for their page to be still (a page's web-first
   * assertions) or to pass (the others), how long a page must not change to be still, and how long an
   * assertion on a still page has to pass.
   */
  proof?: ProofTimings;
  /** A run under the user's Playwright config: what the overlay changes in it. */
  overlay?: RunOverlay;
}

/** The run's settings, from the run folder the Runner names in the environment of Playwright's processes. */
export function readRunSettings(): RunSettings {
  const runFolder = process.env[RUN_FOLDER_VARIABLE];
  if (!runFolder) throw new Error(`${RUN_FOLDER_VARIABLE} is not set: Scribe's Runner starts Playwright with it`);
  return JSON.parse(readFileSync(path.join(runFolder, RUN_SETTINGS_FILE), 'utf8')) as RunSettings;
}
