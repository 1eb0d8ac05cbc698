import { describe, expect, it } from 'vitest';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import { OpenAIProvider } from '../../src/llm/client.ts';
import { chooseProviderName, createProvider, ProviderSetupError } from '../../src/llm/provider.ts';

const settings = loadScribeConfig().provider;

describe('chooseProviderName', () => {
  it('is openai when a key or a base URL is set, else offline', () => {
    expect(chooseProviderName({ OPENAI_API_KEY: 'sk-x' })).toBe('openai');
    expect(chooseProviderName({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBe('openai');
    expect(chooseProviderName({})).toBe('offline');
    expect(chooseProviderName({ OPENAI_API_KEY: '  ' })).toBe('offline');
  });

  it('follows an explicit --provider', () => {
    expect(chooseProviderName({ OPENAI_API_KEY: 'sk-x' }, 'offline')).toBe('offline');
    expect(chooseProviderName({}, 'openai')).toBe('openai');
  });
});

describe('createProvider', () => {
  it('builds the OpenAI-compatible provider from the environment', async () => {
    const provider = await createProvider({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, settings });
    expect(provider).toBeInstanceOf(OpenAIProvider);
    expect(provider.name).toBe('openai');
  });

  it('refuses --provider openai with neither a key nor a base URL, naming both', async () => {
    const error = await createProvider({ env: {}, settings, explicit: 'openai' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderSetupError);
    expect((error as Error).message).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL/);
  });
});
