/**
 * Which model a `generate_test` call uses under `scribe mcp`, and the words the tool result carries
 * about it: the host's model through sampling when asked for (or when nothing else is configured) and
 * the client offers it; otherwise the configured provider, else the offline generator.
 */
import { chooseProviderName, type ProviderName } from '../llm/provider.ts';

export interface ModelChoice {
  provider: ProviderName;
  note: string;
}

export function chooseModel(env: NodeJS.ProcessEnv, requested: ProviderName | undefined, clientSamples: boolean): ModelChoice {
  const configured = chooseProviderName(env);
  if (requested === 'openai' || requested === 'offline') return { provider: requested, note: `--provider ${requested}` };
  if (requested === 'mcp') {
    return clientSamples
      ? { provider: 'mcp', note: "the host's model, through sampling (--provider mcp)" }
      : { provider: configured, note: `--provider mcp, but the client does not support sampling: used ${described(configured)} instead` };
  }
  if (configured === 'openai') return { provider: 'openai', note: 'the configured OpenAI-compatible model (OPENAI_API_KEY / OPENAI_BASE_URL)' };
  return clientSamples
    ? { provider: 'mcp', note: "no model configured: the host's model, through sampling" }
    : { provider: 'offline', note: 'no model configured and the client does not support sampling: the offline generator' };
}

function described(provider: ProviderName): string {
  return provider === 'openai' ? 'the configured OpenAI-compatible model' : 'the offline generator';
}
