/**
 * Renamed keys of agents/*.yaml: a project's override that still writes an old name works as before, and
 * every run says so, naming the file, the line, the old key and the key to write now.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/config/agents.ts';
import { parseYaml } from '../../src/config/load.ts';
import { withRenamedKeys } from '../../src/config/renamed-keys.ts';
import { loadProject } from '../../src/project/context.ts';
import { scribe } from '../commands/cli-harness.ts';
import { configProblems, writeOverride } from './overrides.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-renamed-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));



describe('scribe.yaml generation.max_retries (now max_attempts and max_critic_rejections)', () => {
  it('still sets both, and is reported as deprecated with the file, the line and the new keys', () => {
    const file = writeOverride(dir, 'scribe.yaml', '# mine\ngeneration:\n  max_retries: 2\n');
    const agents = loadAgents(dir);
    expect(agents.scribe.generation).toMatchObject({ max_attempts: 2, max_critic_rejections: 2 });
    expect(agents.deprecations).toEqual([
      { file, key: 'generation.max_retries', line: 3, message: 'deprecated: read as generation.max_attempts and generation.max_critic_rejections; write those instead' },
    ]);
    expect(agents.named('scribe.yaml', ['generation', 'max_attempts'])).toBe(true);
  });

  it('sets only what the file does not set under its new name', () => {
    writeOverride(dir, 'scribe.yaml', 'generation:\n  max_retries: 2\n  max_critic_rejections: 5\n');
    const agents = loadAgents(dir);
    expect(agents.scribe.generation).toMatchObject({ max_attempts: 2, max_critic_rejections: 5 });
    expect(agents.deprecations).toEqual([expect.objectContaining({ message: 'deprecated: read as generation.max_attempts; write that instead' })]);
  });

  it('a bad value is reported under the key the file writes, at its line', () => {
    const file = writeOverride(dir, 'scribe.yaml', 'generation:\n  output_dir: out\n  max_retries: 0\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([expect.objectContaining({ file, key: 'generation.max_retries', line: 3 })]);
  });

  it('written with its new name in the same file, it is refused', () => {
    const file = writeOverride(dir, 'scribe.yaml', 'generation:\n  max_attempts: 4\n  max_retries: 2\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([
      { file, key: 'generation.max_retries', line: 3, message: 'the old name of generation.max_attempts, which this file also sets; keep only generation.max_attempts' },
    ]);
  });

  it('is said on every run: stderr, and warnings under --json', async () => {
    const file = writeOverride(dir, 'scribe.yaml', 'generation:\n  max_retries: 2\n');
    writeFileSync(path.join(dir, 'home.spec.ts'), "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('title')).toBeVisible();\n});\n");
    const run = await scribe(['validate', 'home.spec.ts', '--json', '--preset', 'recommended'], { cwd: dir, env: { BASE_URL: '' } });
    const warning = `${file}:2: generation.max_retries: deprecated: read as generation.max_attempts and generation.max_critic_rejections; write those instead`;
    expect((JSON.parse(run.stdout) as { warnings?: string[] }).warnings).toEqual([warning]);
    expect(run.stderr).toContain(`scribe: warning: ${warning}`);
    expect((await loadProject({ cwd: dir, env: {} })).warnings).toEqual([warning]);
  });
});

describe('workflow.yaml block and worker `report` (now keep_app_bug)', () => {
  it('a block override, a route and a worker under the old name still work, each reported', () => {
    const file = writeOverride(dir, 
      'workflow.yaml',
      ['blocks:', '  report:', '    on: { KEPT: failed }', '  run:', '    on: { APP_BUG: report }', '    default: report', '  second_report:', '    worker: report', '    on: { KEPT: failed }', '  fallback:', '    worker: fallback', '    on: { KEPT: second_report }', ''].join('\n'),
    );
    const agents = loadAgents(dir);
    expect(agents.workflow.blocks.keep_app_bug).toEqual({ worker: 'keep_app_bug', on: { KEPT: 'failed' } });
    expect(agents.workflow.blocks.run).toMatchObject({ on: { APP_BUG: 'keep_app_bug' }, default: 'keep_app_bug' });
    expect(agents.workflow.blocks.second_report).toEqual({ worker: 'keep_app_bug', on: { KEPT: 'failed' } });
    expect(agents.deprecations).toEqual([
      { file, key: 'blocks.report', line: 2, message: 'deprecated: read as blocks.keep_app_bug; write that instead' },
      { file, key: 'blocks.run.on.APP_BUG', line: 5, message: 'the block "report" is now "keep_app_bug"; write that instead' },
      { file, key: 'blocks.run.default', line: 6, message: 'the block "report" is now "keep_app_bug"; write that instead' },
      { file, key: 'blocks.second_report.worker', line: 8, message: 'the worker "report" is now "keep_app_bug"; write that instead' },
    ]);
  });

  it('a problem inside the renamed block names the key as the file writes it', () => {
    const file = writeOverride(dir, 'workflow.yaml', 'blocks:\n  report:\n    on: { KEPT: nowhere }\n');
    expect(configProblems(() => loadAgents(dir))).toEqual([{ file, key: 'blocks.report.on.KEPT', line: 3, message: 'unknown block "nowhere"' }]);
  });
});

describe('withRenamedKeys', () => {
  it('leaves a file without old keys as it is', () => {
    const source = parseYaml('a.yaml', 'generation:\n  max_attempts: 2\n');
    expect(withRenamedKeys(source, [{ old: ['generation', 'max_retries'], current: ['generation', 'max_attempts'] }])).toEqual({ source, deprecations: [] });
  });
});
