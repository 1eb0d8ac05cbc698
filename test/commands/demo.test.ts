import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scribe } from './cli-harness.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-demo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scribe demo (npm run demo)', () => {
  // Three generations, each a run with its proof, through a real browser: slow on a shared machine.
  it('with no model configured, writes three specs that pass the rules, the Critic and a real run', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(dir, '.scribe') };
    const run = await scribe(['demo'], { cwd: dir, env: { ...env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } });

    expect(run.stdout).toContain('the offline generator (no model configured)');
    expect(run.stdout).toContain('All 3 specs passed the rules, the Critic and a real run.');
    expect(run.stdout.match(/run {5}pass in/g)).toHaveLength(3);
    expect(run.code).toBe(0);
    const specs = readdirSync(path.join(dir, 'generated-tests'), { recursive: true }).map(String).filter((f) => f.endsWith('.spec.ts'));
    expect(specs).toHaveLength(3);

    const validate = await scribe(['validate', 'generated-tests'], { cwd: dir, env });
    expect(validate.code).toBe(0);
  }, 300_000);
});
