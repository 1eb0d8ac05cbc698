/**
 * The contained run of code a model may have written (the pipeline's candidates and the Medic's heals,
 * MCP run_spec, `scribe run --untrusted`): it takes only a spec the gate passed (validate/gate.ts), and
 * runs exactly the text the gate checked, whatever the file holds by then.
 */
import path from 'node:path';
import type { RunnerReport } from '../contracts.ts';
import { isGatedSpec, type GatedSpec } from '../validate/gate.ts';
import { runSpec, type RunSpecOptions } from './runner.ts';

/** The Runner's options but the spec's source: that is the gated spec. */
export type ContainedRunOptions = Omit<RunSpecOptions, 'specPath' | 'specText' | 'fileName' | 'sourceDir' | 'untrusted'>;

export async function runContained(spec: GatedSpec, options: ContainedRunOptions): Promise<RunnerReport> {
  // The type says so already; a caller in plain JavaScript is told too.
  if (!isGatedSpec(spec)) throw new TypeError('a contained run takes only a spec the gate passed (passGate in validate/gate.ts)');
  return runSpec({ ...options, specText: spec.text, fileName: path.basename(spec.file), sourceDir: path.dirname(spec.file), untrusted: true });
}
