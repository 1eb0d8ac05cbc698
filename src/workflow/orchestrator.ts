/**
 * Walks agents/workflow.yaml: runs a block's worker on the payload gathered so far, appends the segments it
 * returns, and follows the signal it emits. It knows nothing of what the workers do.
 */
import { isTerminal, type WorkflowManifest } from '../config/workflow.ts';

/** A typed piece of the payload: the request, a candidate, a verdict, a TEST_RESULT, … */
export interface Segment {
  type: string;
}

/** What a worker answers: one of its signals (the pipeline's are typed by src/config/worker-contracts.ts) and the segments it adds. */
export interface WorkerOutput<S extends Segment, Signal extends string = string> {
  signal: Signal;
  segments?: S[];
}

export type Worker<S extends Segment, Signal extends string = string> = (payload: readonly S[], block: string) => Promise<WorkerOutput<S, Signal>>;

export interface Step {
  block: string;
  worker: string;
  signal: string;
}

export interface WorkflowOutcome<S extends Segment> {
  outcome: 'success' | 'failure';
  /** The terminal block the walk ended in. */
  end: string;
  steps: Step[];
  payload: S[];
}

export class WorkflowError extends Error {}

export interface WorkflowHooks {
  /** Called as each block starts, so a caller can show progress. */
  onBlock?(block: string, worker: string): void;
}

export async function runWorkflow<S extends Segment>(
  manifest: WorkflowManifest,
  workers: Readonly<Record<string, Worker<S>>>,
  initial: readonly S[],
  hooks: WorkflowHooks = {},
): Promise<WorkflowOutcome<S>> {
  const payload: S[] = [...initial];
  const steps: Step[] = [];
  let current = manifest.start;
  for (let jumps = 0; ; jumps++) {
    const block = manifest.blocks[current];
    if (!block) throw new WorkflowError(`unknown block "${current}"`);
    if (isTerminal(block)) return { outcome: block.terminal, end: current, steps, payload };
    if (jumps >= manifest.maxJumps) throw new WorkflowError(`the workflow made ${manifest.maxJumps} jumps without ending (last block "${current}"); see max_jumps in ${manifest.file}`);
    const worker = workers[block.worker];
    if (!worker) throw new WorkflowError(`block "${current}" names worker "${block.worker}", which is not offered`);
    hooks.onBlock?.(current, block.worker);
    const output = await worker(payload, current);
    payload.push(...(output.segments ?? []));
    steps.push({ block: current, worker: block.worker, signal: output.signal });
    const next = block.on[output.signal] ?? block.default;
    if (!next) throw new WorkflowError(`block "${current}" emitted ${output.signal}, which it has no transition for (and no default)`);
    current = next;
  }
}
