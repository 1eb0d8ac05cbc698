import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_AGENTS_DIR } from '../../src/config/paths.ts';
import { ConfigError, parseYaml } from '../../src/config/load.ts';
import { loadWorkflow, workflowFrom } from '../../src/config/workflow.ts';
import { WORKER_NAMES } from '../../src/config/worker-contracts.ts';
import { runWorkflow, WorkflowError, type Worker } from '../../src/workflow/orchestrator.ts';

const manifestFile = path.join(BUNDLED_AGENTS_DIR, 'workflow.yaml');
const WORKERS: readonly string[] = WORKER_NAMES;
const manifest = loadWorkflow(manifestFile, WORKERS);

type Seg = { type: string; value?: string };

/** Workers that answer from a script of signals per worker, recording the payload each call received. */
function scripted(script: Record<string, string[]>) {
  const received: Array<{ block: string; payload: Seg[] }> = [];
  const workers: Record<string, Worker<Seg>> = {};
  for (const name of WORKERS) {
    workers[name] = async (payload, block) => {
      received.push({ block, payload: [...payload] });
      const signal = script[name]?.shift();
      if (!signal) throw new Error(`worker ${name} was not expected to run again`);
      const segments: Seg[] = name === 'runner' ? [{ type: 'TEST_RESULT', value: `runner said ${signal}` }] : [{ type: name.toUpperCase(), value: signal }];
      return { signal, segments };
    };
  }
  return { workers, received };
}

describe('the workflow manifest', () => {
  it('sends a Runner failure to the medic with the run so far in the order it happened, then back through critic to staging', async () => {
    const { workers, received } = scripted({
      scribe: ['CANDIDATE'],
      critic: ['APPROVED', 'APPROVED'],
      stage: ['STAGED', 'STAGED'],
      runner: ['TEST_BUG', 'PASS'],
      medic: ['HEALED'],
      accept: ['ACCEPTED'],
    });
    const result = await runWorkflow<Seg>(manifest, workers, [{ type: 'REQUEST', value: 'log in' }]);
    expect(result.outcome).toBe('success');
    expect(result.steps.map((s) => s.block)).toEqual(['scribe', 'critic', 'stage', 'run', 'medic', 'critic_heal', 'stage', 'run', 'accept']);
    const medic = received.find((r) => r.block === 'medic')!;
    expect(medic.payload.map((s) => s.type)).toEqual(['REQUEST', 'SCRIBE', 'CRITIC', 'STAGE', 'TEST_RESULT']);
    expect(medic.payload.at(-1)).toEqual({ type: 'TEST_RESULT', value: 'runner said TEST_BUG' });
  });

  it('returns a Critic rejection to Scribe and never reaches staging', async () => {
    const { workers } = scripted({ scribe: ['CANDIDATE', 'GAVE_UP'], critic: ['REJECTED'] });
    const result = await runWorkflow<Seg>(manifest, workers, []);
    expect(result.steps.map((s) => `${s.block}:${s.signal}`)).toEqual(['scribe:CANDIDATE', 'critic:REJECTED', 'scribe:GAVE_UP']);
    expect(result).toMatchObject({ outcome: 'failure', end: 'failed' });
  });

  it('keeps an unrun spec on an environment failure and never heals it', async () => {
    const { workers } = scripted({ scribe: ['CANDIDATE'], critic: ['APPROVED'], stage: ['STAGED'], runner: ['ENVIRONMENT'], keep_unrun: ['KEPT'] });
    const result = await runWorkflow<Seg>(manifest, workers, []);
    expect(result.steps.map((s) => s.block)).toEqual(['scribe', 'critic', 'stage', 'run', 'keep_unrun']);
    expect(result.outcome).toBe('failure');
  });

  it('follows the default transition for a signal it does not know', async () => {
    const { workers } = scripted({ scribe: ['CANDIDATE'], critic: ['APPROVED'], stage: ['STAGED'], runner: ['SOMETHING_NEW'], keep_app_bug: ['KEPT'] });
    const result = await runWorkflow<Seg>(manifest, workers, []);
    expect(result.steps.at(-1)!.block).toBe('keep_app_bug');
  });

  it('stops a cycle that never settles at max_jumps', async () => {
    const { workers } = scripted({ scribe: Array(50).fill('CANDIDATE'), critic: Array(50).fill('REJECTED') });
    await expect(runWorkflow<Seg>(manifest, workers, [])).rejects.toThrow(WorkflowError);
    await expect(runWorkflow<Seg>(manifest, scripted({ scribe: Array(50).fill('CANDIDATE'), critic: Array(50).fill('REJECTED') }).workers, [])).rejects.toThrow(/max_jumps/);
  });

  it('fails clearly on a signal with no transition and no default', async () => {
    const { workers } = scripted({ scribe: ['WHAT'] });
    await expect(runWorkflow<Seg>(manifest, workers, [])).rejects.toThrow(/block "scribe" emitted WHAT/);
  });
});

describe('a bad manifest', () => {
  const text = readFileSync(manifestFile, 'utf8');
  const problems = (yaml: string, workers = WORKERS) => {
    try {
      workflowFrom(parseYaml('workflow.yaml', yaml), workers);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('names an unknown block in a transition, with its line', () => {
    const [problem] = problems(text.replace('APPROVED: stage, REJECTED: scribe', 'APPROVED: stag, REJECTED: scribe'));
    expect(problem).toMatchObject({ key: 'blocks.critic.on.APPROVED', message: 'unknown block "stag"' });
    expect(problem!.line).toBe(text.split('\n').findIndex((l) => l.includes('APPROVED: stage, REJECTED: scribe')) + 1);
  });

  it('names an unknown worker', () => {
    const [problem] = problems(text, WORKERS.filter((w) => w !== 'medic'));
    expect(problem).toMatchObject({ key: 'blocks.medic.worker' });
    expect(problem!.message).toContain('unknown worker "medic"');
  });

  it('names a block nothing can reach', () => {
    const [problem] = problems(`${text}\n  orphan:\n    terminal: failure\n`);
    expect(problem).toMatchObject({ key: 'blocks.orphan', message: 'block "orphan" cannot be reached from "scribe"' });
  });
});
