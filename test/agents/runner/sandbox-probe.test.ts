/**
 * Whether bubblewrap can make a sandbox is probed once per process and bwrap, and a run under `auto` that
 * goes without it says why (the report's containment, and from there the terminal and the statistics).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { osSandboxAvailable, sandboxPrefix, SandboxUnavailableError } from '../../../src/agents/runner/sandbox.ts';
import { FAKE_BWRAP_ERROR, fakeBwrap, type FakeBwrap } from '../../fixtures/fake-bwrap.ts';

const paths = { runDir: '/nonexistent', workDir: '/nonexistent/work', readOnly: [], userFolders: [], hidden: [], networkDir: '/nonexistent/net', tempDir: '/nonexistent/tmp', limits: { tempBytes: 1024, fileBytes: 1024 } };

let fake: FakeBwrap;
afterEach(() => fake?.remove());

describe('the OS sandbox probe', () => {
  it('runs once per process for a bwrap, whatever asks: its answer is kept', () => {
    fake = fakeBwrap();
    const env = { PATH: fake.path };
    expect(osSandboxAvailable(env)).toBe(false);
    expect(sandboxPrefix('auto', paths, env)).toEqual({ unavailable: `bwrap failed: ${FAKE_BWRAP_ERROR}` });
    expect(osSandboxAvailable(env)).toBe(false);
    expect(fake.starts()).toBe(1);
  });

  it('under `required`, refuses with the probe’s own words; under `off`, says it was switched off and probes nothing', () => {
    fake = fakeBwrap();
    const env = { PATH: fake.path };
    expect(() => sandboxPrefix('required', paths, env)).toThrow(SandboxUnavailableError);
    expect(() => sandboxPrefix('required', paths, env)).toThrow(FAKE_BWRAP_ERROR);
    expect(sandboxPrefix('off', paths, env)).toEqual({ unavailable: 'runner.yaml containment.os_sandbox is "off"' });
    expect(fake.starts()).toBe(1);
  });
});
