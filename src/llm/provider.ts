/**
 * Chooses the model provider: an OpenAI-compatible server when one is configured, else the offline
 * generator, so every command works on a fresh machine with no account. `mcp` (the model of the MCP
 * host, through sampling) exists only inside `scribe mcp`, which hands it in ready-made.
 */
import type { OfflineVocabulary } from '../config/offline.ts';
import type { ProviderSettings } from '../config/scribe.ts';
import type { RetryNotice } from './client.ts';
import type { ModelProvider } from './types.ts';

export const PROVIDER_NAMES = ['openai', 'offline', 'mcp'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The provider cannot be set up as asked (a usage or configuration error, not a failed generation). */
export class ProviderSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderSetupError';
  }
}

export interface ProviderRequest {
  env: NodeJS.ProcessEnv;
  settings: ProviderSettings;
  /** `--provider`; without it, `openai` when OPENAI_API_KEY or OPENAI_BASE_URL is set. */
  explicit?: ProviderName;
  /** The offline generator's words (the project's agents/offline.yaml); default: the bundled ones. */
  offline?: OfflineVocabulary;
  onRetry?: (notice: RetryNotice) => void;
}

export function chooseProviderName(env: NodeJS.ProcessEnv, explicit?: ProviderName): ProviderName {
  if (explicit) return explicit;
  return env.OPENAI_API_KEY?.trim() || env.OPENAI_BASE_URL?.trim() ? 'openai' : 'offline';
}

export async function createProvider(request: ProviderRequest): Promise<ModelProvider> {
  const name = chooseProviderName(request.env, request.explicit);
  if (name === 'mcp') {
    throw new ProviderSetupError('--provider mcp asks the model of an MCP host through sampling: it works under `scribe mcp`, with a client that supports sampling');
  }
  if (name === 'offline') {
    // Loaded on demand: the offline generator brings the page explorer, which `openai` runs never need.
    const { OfflineProvider } = await import('./offline.ts');
    return new OfflineProvider(request.offline);
  }
  const apiKey = request.env.OPENAI_API_KEY?.trim();
  const baseURL = request.env.OPENAI_BASE_URL?.trim();
  if (!apiKey && !baseURL) {
    throw new ProviderSetupError('--provider openai needs OPENAI_API_KEY (for OpenAI) or OPENAI_BASE_URL (for a local or self-hosted OpenAI-compatible server).');
  }
  // Loaded on demand too: the openai SDK is a tenth of a second to load, and most commands that read the project (validate) never call a model.
  const { OpenAIProvider } = await import('./client.ts');
  return new OpenAIProvider({ apiKey, baseURL, settings: request.settings, onRetry: request.onRetry });
}
