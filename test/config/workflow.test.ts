/**
 * agents/workflow.yaml checked at load against the workers' contract: signals a worker does not emit,
 * routes to blocks that do not exist, signals left without a route, and routes that take a spec past the
 * Critic are configuration errors naming the file, the key and the line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/config/agents.ts';
import { parseYaml } from '../../src/config/load.ts';
import { DEFAULT_WORKFLOW_PATH, healableClassifications, loadWorkflow, workflowFrom } from '../../src/config/workflow.ts';
import { PIPELINE_WORKERS } from '../../src/config/worker-contracts.ts';
import { scribe } from '../commands/cli-harness.ts';
import { configProblems, writeOverride } from './overrides.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-workflow-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));



const bundled = readFileSync(DEFAULT_WORKFLOW_PATH, 'utf8');

describe('agents/workflow.yaml against the workers’ contract', () => {
  it('the bundled file routes every signal each worker emits, and only those', () => {
    const manifest = loadWorkflow();
    for (const block of Object.values(manifest.blocks)) {
      if ('terminal' in block) continue;
      expect(Object.keys(block.on).sort()).toEqual([...PIPELINE_WORKERS[block.worker].signals].sort());
    }
  });

  it('a signal the worker does not emit is refused with the file, the key and the line', () => {
    const file = writeOverride(dir, 'workflow.yaml', '# mine\nblocks:\n  critic:\n    on: { APPROVD: stage }\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([
      { file, key: 'blocks.critic.on.APPROVD', line: 4, message: 'unknown signal APPROVD: worker "critic" emits APPROVED, REJECTED' },
    ]);
  });

  it('a route to a block that does not exist is refused with the file, the key and the line', () => {
    const file = writeOverride(dir, 'workflow.yaml', 'blocks:\n  run:\n    on:\n      APP_BUG: reprt\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([{ file, key: 'blocks.run.on.APP_BUG', line: 4, message: 'unknown block "reprt"' }]);
  });

  it('a signal a block leaves without a route (and no default) is refused', () => {
    const file = writeOverride(dir, 'workflow.yaml', 'blocks:\n  scribe:\n    on: { CANDIDATE: second_look }\n  second_look:\n    worker: critic\n    on: { APPROVED: critic }\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([
      { file, key: 'blocks.second_look.on', line: 6, message: 'no route for REJECTED of worker "critic" (name each under on, or set default)' },
    ]);
  });

  it('is checked when the project loads, so every command refuses it (exit 2)', async () => {
    const file = writeOverride(dir, 'workflow.yaml', 'blocks:\n  critic:\n    on: { APPROVD: stage }\n');
    writeFileSync(path.join(dir, 'login.spec.ts'), "import { test } from '@playwright/test';\n");
    const run = await scribe(['validate', 'login.spec.ts'], { cwd: dir, env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:3: blocks.critic.on.APPROVD: unknown signal APPROVD`);
  });
});

describe('the Critic’s gate', () => {
  const bypass = () => configProblems(() => loadAgents(dir)).find((p) => p.message.includes('the Critic has not approved'));

  it('refuses a Critic that sends a rejected spec on to be run, naming that route', () => {
    const file = writeOverride(dir, 'workflow.yaml', 'blocks:\n  critic:\n    on: { REJECTED: stage }\n');
    expect(bypass()).toEqual({
      file,
      key: 'blocks.critic.on.REJECTED',
      line: 3,
      message: expect.stringContaining('reaches worker "runner", which runs or writes it: scribe -CANDIDATE-> critic -REJECTED-> stage -STAGED-> run.'),
    });
  });

  it('refuses a new spec sent past the Critic, to a run or straight to a write', () => {
    const past = writeOverride(dir, 'workflow.yaml', 'blocks:\n  scribe:\n    on: { CANDIDATE: stage }\n');
    expect(bypass()).toMatchObject({ file: past, key: 'blocks.scribe.on.CANDIDATE', line: 3, message: expect.stringContaining('scribe -CANDIDATE-> stage -STAGED-> run') });
    const written = writeOverride(dir, 'workflow.yaml', 'blocks:\n  scribe:\n    on: { CANDIDATE: accept }\n');
    expect(bypass()).toMatchObject({ file: written, key: 'blocks.scribe.on.CANDIDATE', message: expect.stringContaining('reaches worker "accept"') });
  });

  it('refuses a heal that skips the Critic, or a rejected heal that is run anyway', () => {
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  medic:\n    on: { HEALED: stage }\n');
    expect(bypass()).toMatchObject({ key: 'blocks.medic.on.HEALED', message: expect.stringContaining('medic -HEALED-> stage -STAGED-> run') });
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  critic_heal:\n    on: { REJECTED: run }\n');
    expect(bypass()).toMatchObject({ key: 'blocks.critic_heal.on.REJECTED', message: expect.stringContaining('medic -HEALED-> critic_heal -REJECTED-> run') });
  });

  it('refuses running a spec a second Critic rejected, though a first one approved it', () => {
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  critic:\n    on: { APPROVED: second_look }\n  second_look:\n    worker: critic\n    on: { APPROVED: stage, REJECTED: stage }\n');
    expect(bypass()).toMatchObject({ key: 'blocks.second_look.on.REJECTED', message: expect.stringContaining('critic -APPROVED-> second_look -REJECTED-> stage -STAGED-> run') });
  });

  it('refuses keeping a spec for review when the Critic approved none on the way', () => {
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  scribe:\n    on: { GAVE_UP: fallback }\n');
    expect(bypass()).toMatchObject({ key: 'blocks.scribe.on.GAVE_UP', message: expect.stringContaining('writes the last approved spec, and none was approved on the way') });
  });

  it('follows a default route too', () => {
    const text = bundled.replace('on: { APPROVED: stage, REJECTED: scribe }', 'on: { APPROVED: stage }\n    default: run');
    const problems = configProblems(() => workflowFrom(parseYaml('workflow.yaml', text)));
    expect(problems).toEqual([expect.objectContaining({ key: 'blocks.critic.default', line: text.split('\n').findIndex((l) => l.includes('default: run')) + 1 })]);
  });

  it('accepts routes that keep the gate: a second Critic, an app bug sent to the fallback', () => {
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  scribe:\n    on: { CANDIDATE: second_look }\n  second_look:\n    worker: critic\n    on: { APPROVED: critic, REJECTED: scribe }\n  run:\n    on: { APP_BUG: fallback }\n');
    const { workflow } = loadAgents(dir);
    expect(workflow.blocks.second_look).toEqual({ worker: 'critic', on: { APPROVED: 'critic', REJECTED: 'scribe' } });
  });
});

describe('what is healed', () => {
  it('is what the routing sends from the Runner to the Medic: test bugs and timeouts in the bundled file', () => {
    expect(healableClassifications(loadWorkflow())).toEqual(['test_bug', 'timeout']);
  });

  it('follows a project’s routing, a default route included', () => {
    writeOverride(dir, 'workflow.yaml', 'blocks:\n  run:\n    on: { TIMEOUT: fallback }\n');
    expect(healableClassifications(loadAgents(dir).workflow)).toEqual(['test_bug']);
    const text = bundled.replace('APP_BUG: keep_app_bug, ', '').replace('TIMEOUT: medic', 'TIMEOUT: keep_app_bug').replace('default: keep_app_bug', 'default: medic');
    expect(healableClassifications(workflowFrom(parseYaml('workflow.yaml', text)))).toEqual(['test_bug', 'app_bug']);
  });
});
