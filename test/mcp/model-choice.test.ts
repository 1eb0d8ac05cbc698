import { describe, expect, it } from 'vitest';
import { createProvider, ProviderSetupError } from '../../src/llm/provider.ts';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import { chooseModel } from '../../src/mcp/model-choice.ts';

const configured = { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' };

describe('the model of a generate_test call', () => {
  it('prefers the configured model, then the host (sampling), then offline; --provider decides when given', () => {
    expect(chooseModel(configured, undefined, true)).toMatchObject({ provider: 'openai' });
    expect(chooseModel({}, undefined, true)).toMatchObject({ provider: 'mcp', note: expect.stringMatching(/no model configured/) });
    expect(chooseModel({}, undefined, false)).toMatchObject({ provider: 'offline', note: expect.stringMatching(/does not support sampling/) });
    expect(chooseModel(configured, 'mcp', true)).toMatchObject({ provider: 'mcp' });
    expect(chooseModel(configured, 'mcp', false)).toMatchObject({ provider: 'openai', note: expect.stringMatching(/^--provider mcp, but the client does not support sampling/) });
    expect(chooseModel({}, 'mcp', false)).toMatchObject({ provider: 'offline', note: expect.stringMatching(/used the offline generator/) });
    expect(chooseModel({}, 'offline', true)).toMatchObject({ provider: 'offline' });
  });

  it('--provider mcp outside scribe mcp is a setup error that says where it works', async () => {
    const settings = loadScribeConfig().provider;
    await expect(createProvider({ env: {}, settings, explicit: 'mcp' })).rejects.toThrow(ProviderSetupError);
    await expect(createProvider({ env: {}, settings, explicit: 'mcp' })).rejects.toThrow(/works under `scribe mcp`/);
  });
});
