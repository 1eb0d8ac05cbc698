/** agents/workflow.yaml: the stages as a graph. Checked at load: every jump lands on a block, every block is reachable. */
import { z } from 'zod';
import { ConfigError, checkWithSchema, readYamlFile, type ConfigProblem, type YamlSource } from './load.ts';

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

export type WorkerBlock = z.infer<typeof WorkerBlock>;
export type TerminalBlock = z.infer<typeof TerminalBlock>;

export interface WorkflowManifest {
  file: string;
  start: string;
  maxJumps: number;
  blocks: Record<string, WorkerBlock | TerminalBlock>;
}

export function isTerminal(block: WorkerBlock | TerminalBlock): block is TerminalBlock {
  return 'terminal' in block;
}

export function loadWorkflow(file: string, workers: readonly string[]): WorkflowManifest {
  return workflowFrom(readYamlFile(file), workers);
}

/** `workers` are the names the program offers; a block naming another is an error at load. */
export function workflowFrom(source: YamlSource, workers: readonly string[]): WorkflowManifest {
  const parsed = checkWithSchema(source, WorkflowFile);
  const problems: ConfigProblem[] = [];
  const problem = (path: PropertyKey[], message: string) =>
    problems.push({ file: source.file, key: path.join('.'), line: source.lineOf(path), message });
  const names = Object.keys(parsed.blocks);

  if (!parsed.blocks[parsed.start]) problem(['start'], `unknown block "${parsed.start}" (blocks: ${names.join(', ')})`);
  for (const [name, block] of Object.entries(parsed.blocks)) {
    if (isTerminal(block)) continue;
    if (!workers.includes(block.worker)) problem(['blocks', name, 'worker'], `unknown worker "${block.worker}" (workers: ${workers.join(', ')})`);
    for (const [signal, target] of Object.entries(block.on)) {
      if (!parsed.blocks[target]) problem(['blocks', name, 'on', signal], `unknown block "${target}"`);
    }
    if (block.default && !parsed.blocks[block.default]) problem(['blocks', name, 'default'], `unknown block "${block.default}"`);
  }
  if (problems.length === 0) {
    const reachable = reachableFrom(parsed.start, parsed.blocks);
    for (const name of names) if (!reachable.has(name)) problem(['blocks', name], `block "${name}" cannot be reached from "${parsed.start}"`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { file: source.file, start: parsed.start, maxJumps: parsed.max_jumps, blocks: parsed.blocks };
}

function reachableFrom(start: string, blocks: WorkflowManifest['blocks']): Set<string> {
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
