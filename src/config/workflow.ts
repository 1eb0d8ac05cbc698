/**
 * agents/workflow.yaml: the stages as a graph. Checked at load against the workers' contract
 * (src/config/worker-contracts.ts): every block names a worker the pipeline offers, routes only signals
 * that worker emits and routes every one of them, every jump lands on a block, every block is reachable,
 * and no route takes a spec the Critic has not approved to a run or a write.
 */
import path from 'node:path';
import { z } from 'zod';
import { RunClassification } from '../contracts.ts';
import { isWorkerName, PIPELINE_WORKERS, RENAMED_WORKERS, RUNNER_SIGNAL, WORKER_NAMES, type WorkerContract, type WorkerName } from './worker-contracts.ts';
import { isMapping } from './key-paths.ts';
import { ConfigError, checkWithSchema, problemAt, readYamlFile, type ConfigProblem, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';
import { withRenamedKeys, type Renamed } from './renamed-keys.ts';

export const DEFAULT_WORKFLOW_PATH = path.join(BUNDLED_AGENTS_DIR, 'workflow.yaml');

/** Blocks of the bundled file that were renamed: a project's file may still name, or route to, the old one. */
const RENAMED_BLOCKS: Readonly<Record<string, string>> = { report: 'keep_app_bug' };

const Signal = z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'a signal is UPPER_CASE');

const WorkerBlock = z.strictObject({
  worker: z.string().min(1),
  on: z.record(Signal, z.string().min(1)),
  default: z.string().min(1).optional(),
});

const TerminalBlock = z.strictObject({
  terminal: z.enum(['success', 'failure']),
});

const WorkflowFile = z.strictObject({
  version: z.literal(1),
  start: z.string().min(1),
  max_jumps: z.number().int().positive(),
  blocks: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a block name is lower_case'), z.union([WorkerBlock, TerminalBlock])),
});

/** A block whose worker was checked against the contract. */
export type WorkerBlock = Omit<z.infer<typeof WorkerBlock>, 'worker'> & { worker: WorkerName };
export type TerminalBlock = z.infer<typeof TerminalBlock>;
type Blocks = Record<string, WorkerBlock | TerminalBlock>;

export interface WorkflowManifest {
  file: string;
  start: string;
  maxJumps: number;
  blocks: Blocks;
}

export function isTerminal(block: WorkerBlock | TerminalBlock): block is TerminalBlock {
  return 'terminal' in block;
}

/** `workers` are the names the program offers (default: every pipeline worker); a block naming another is an error. */
export function loadWorkflow(file: string = DEFAULT_WORKFLOW_PATH, workers: readonly string[] = WORKER_NAMES): WorkflowManifest {
  return workflowFrom(readYamlFile(file), workers);
}

/** A file that still writes an old block or worker name is read with the current one (the caller reports it). */
export function workflowFrom(written: YamlSource, workers: readonly string[] = WORKER_NAMES): WorkflowManifest {
  const source = renamedWorkflowNames(written).source;
  const parsed = checkWithSchema(source, WorkflowFile);
  const problems: ConfigProblem[] = [];
  const problem = (keys: PropertyKey[], message: string) => problems.push(problemAt(source, keys, message));
  const names = Object.keys(parsed.blocks);
  const offered = WORKER_NAMES.filter((name) => workers.includes(name));

  if (!parsed.blocks[parsed.start]) problem(['start'], `unknown block "${parsed.start}" (blocks: ${names.join(', ')})`);
  for (const [name, block] of Object.entries(parsed.blocks)) {
    if ('terminal' in block) continue;
    const worker = block.worker;
    if (!isWorkerName(worker) || !offered.includes(worker)) {
      problem(['blocks', name, 'worker'], `unknown worker "${worker}" (workers: ${offered.join(', ')})`);
      continue;
    }
    const signals: readonly string[] = PIPELINE_WORKERS[worker].signals;
    for (const [signal, target] of Object.entries(block.on)) {
      if (!signals.includes(signal)) problem(['blocks', name, 'on', signal], `unknown signal ${signal}: worker "${worker}" emits ${signals.join(', ')}`);
      else if (!parsed.blocks[target]) problem(['blocks', name, 'on', signal], `unknown block "${target}"`);
    }
    if (block.default && !parsed.blocks[block.default]) problem(['blocks', name, 'default'], `unknown block "${block.default}"`);
    const unrouted = signals.filter((signal) => !(signal in block.on));
    if (!block.default && unrouted.length > 0) problem(['blocks', name, 'on'], `no route for ${unrouted.join(', ')} of worker "${worker}" (name each under on, or set default)`);
  }
  if (problems.length === 0) {
    const blocks = parsed.blocks as Blocks;
    const reachable = reachableFrom(parsed.start, blocks);
    for (const name of names) if (!reachable.has(name)) problem(['blocks', name], `block "${name}" cannot be reached from "${parsed.start}"`);
    const bypass = criticBypass(parsed.start, blocks);
    if (bypass) problem(bypass.key, bypass.message);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { file: source.file, start: parsed.start, maxJumps: parsed.max_jumps, blocks: parsed.blocks as Blocks };
}

/** agents/workflow.yaml with the old names of blocks and workers (as keys, routes and `worker`) read as the current ones. */
export function renamedWorkflowNames(written: YamlSource): Renamed {
  const renamedKeys = withRenamedKeys(written, Object.entries(RENAMED_BLOCKS).map(([old, current]) => ({ old: ['blocks', old], current: ['blocks', current] })));
  const source = renamedKeys.source;
  if (!isMapping(source.data)) return renamedKeys;
  const data = structuredClone(source.data);
  const deprecations = [...renamedKeys.deprecations];
  const rename = (what: 'block' | 'worker', holder: Record<string, unknown>, key: string, keys: string[]) => {
    const names = what === 'block' ? RENAMED_BLOCKS : RENAMED_WORKERS;
    const value = holder[key];
    if (typeof value !== 'string' || !Object.hasOwn(names, value)) return;
    holder[key] = names[value];
    deprecations.push(problemAt(source, keys, `the ${what} "${value}" is now "${names[value]}"; write that instead`));
  };
  rename('block', data, 'start', ['start']);
  for (const [name, block] of Object.entries(isMapping(data.blocks) ? data.blocks : {})) {
    if (!isMapping(block)) continue;
    rename('worker', block, 'worker', ['blocks', name, 'worker']);
    const on = block.on;
    if (isMapping(on)) for (const signal of Object.keys(on)) rename('block', on, signal, ['blocks', name, 'on', signal]);
    rename('block', block, 'default', ['blocks', name, 'default']);
  }
  return { source: { ...source, data }, deprecations };
}

/**
 * The run outcomes the routing sends from the Runner to the Medic: the failures a spec may be healed of.
 * The others (in the bundled file app bugs and environment failures) are reported instead.
 */
export function healableClassifications(manifest: WorkflowManifest): RunClassification[] {
  const runners = Object.values(manifest.blocks).filter((block): block is WorkerBlock => !isTerminal(block) && block.worker === 'runner');
  const sendsToMedic = (block: WorkerBlock, signal: string) => {
    const name = block.on[signal] ?? block.default;
    const target = name === undefined ? undefined : manifest.blocks[name];
    return target !== undefined && !isTerminal(target) && target.worker === 'medic';
  };
  return RunClassification.options.filter((classification) => runners.some((block) => sendsToMedic(block, RUNNER_SIGNAL[classification])));
}

/** The block each signal of a worker block leads to, and the key that says so (its `on` entry or `default`). */
function routes(name: string, block: WorkerBlock): Array<{ signal: string; target: string; key: string[] }> {
  const signals: readonly string[] = PIPELINE_WORKERS[block.worker].signals;
  return signals.flatMap((signal) => {
    const target = block.on[signal] ?? block.default;
    if (target === undefined) return [];
    return [{ signal, target, key: signal in block.on ? ['blocks', name, 'on', signal] : ['blocks', name, 'default'] }];
  });
}

function reachableFrom(start: string, blocks: Blocks): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const block = blocks[name];
    if (seen.has(name) || !block) continue;
    seen.add(name);
    if (!isTerminal(block)) queue.push(...Object.values(block.on), ...(block.default ? [block.default] : []));
  }
  return seen;
}

/** Where the walk stands with the spec in hand: none yet, made (or rejected) since the Critic last approved it, or approved. */
type Review = 'none' | 'not_approved' | 'approved';

interface GateStep {
  block: string;
  review: Review;
  /** Whether the Critic approved some spec on the way (what a worker keeping the last approved spec needs). */
  approvedBefore: boolean;
  /** The jump that led here, for naming the route. */
  from?: { step: GateStep; signal: string; key: string[] };
}

/**
 * The first route (shortest, from the start) on which a spec the Critic has not approved reaches a worker
 * that runs or writes it, or a success end; undefined when there is none. It walks every block in each
 * state the spec can be in there, so a project's override cannot route around the Critic.
 */
function criticBypass(start: string, blocks: Blocks): { key: string[]; message: string } | undefined {
  const seen = new Set<string>();
  const queue: GateStep[] = [{ block: start, review: 'none', approvedBefore: false }];
  for (let step = queue.shift(); step; step = queue.shift()) {
    const id = `${step.block}|${step.review}|${step.approvedBefore}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const block = blocks[step.block]!;
    const refused = refusedEntry(block, step);
    if (refused) return bypassProblem(step, refused, blocks);
    if (isTerminal(block)) continue;
    const contract: WorkerContract = PIPELINE_WORKERS[block.worker];
    for (const route of routes(step.block, block)) {
      const made = contract.newSpec?.includes(route.signal) === true;
      const approved = contract.approves === route.signal;
      // A Critic's other signals (a rejection) leave the spec not approved, whatever it was before.
      const rejected = contract.approves !== undefined && !approved;
      queue.push({
        block: route.target,
        review: made || rejected ? 'not_approved' : approved ? 'approved' : step.review,
        approvedBefore: step.approvedBefore || approved,
        from: { step, signal: route.signal, key: route.key },
      });
    }
  }
  return undefined;
}

/** Why `block` may not be entered in the state of `step`, if it may not. */
function refusedEntry(block: WorkerBlock | TerminalBlock, step: GateStep): string | undefined {
  if (isTerminal(block)) return block.terminal === 'success' && step.review !== 'approved' ? 'ends in success' : undefined;
  const contract: WorkerContract = PIPELINE_WORKERS[block.worker];
  const actsOn = contract.actsOn;
  if (actsOn === 'current_spec' && step.review !== 'approved') return `reaches worker "${block.worker}", which runs or writes it`;
  if (actsOn === 'last_approved_spec' && !step.approvedBefore) return `reaches worker "${block.worker}", which writes the last approved spec, and none was approved on the way`;
  return undefined;
}

/**
 * The problem names the jump most likely to be the mistake: the last one on the route out of a block that
 * makes or reviews specs (a Critic routing a rejection onward, a new spec sent past the Critic).
 */
function bypassProblem(end: GateStep, refused: string, blocks: Blocks): { key: string[]; message: string } {
  const jumps: Array<NonNullable<GateStep['from']>> = [];
  for (let step: GateStep | undefined = end; step?.from; step = step.from.step) jumps.unshift(step.from);
  const route = [...jumps.map((jump) => `${jump.step.block} -${jump.signal}->`), end.block].join(' ');
  const blamed = jumps.filter((jump) => makesOrReviews(blocks[jump.step.block]!)).at(-1) ?? jumps.at(-1);
  return {
    key: blamed?.key ?? ['start'],
    message: `a spec the Critic has not approved ${refused}: ${route}. Every route from a new or healed spec to a run, a write or a success must pass the Critic's approval`,
  };
}

function makesOrReviews(block: WorkerBlock | TerminalBlock): boolean {
  if (isTerminal(block)) return false;
  const contract: WorkerContract = PIPELINE_WORKERS[block.worker];
  return contract.newSpec !== undefined || contract.approves !== undefined;
}
