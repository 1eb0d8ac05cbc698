/** What every model provider offers the agents: one chat completion, with usage recorded. */
import type { PageInventory } from '../contracts.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  model: string;
  temperature: number;
  /** Stream the answer (the text is the same; some servers only stream). */
  stream?: boolean;
  signal?: AbortSignal;
  /**
   * The request behind the prompt, structured. A model reads the rendered messages; the offline
   * generator, which has no language model, writes its spec from this instead.
   */
  task?: GenerationTask;
}

export interface GenerationTask {
  description: string;
  feature: string;
  url?: string;
  inventory?: PageInventory;
  /** The declared credential variables by what they hold (critic.yaml settings.credentials). */
  credentials?: Readonly<Record<string, string>>;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

export interface Completion {
  text: string;
  model: string;
  usage: TokenUsage;
  /** How many HTTP attempts the call took (retries on 429/5xx/timeouts included). */
  attempts: number;
  /** Set when the spec is a stand-in that does not test the request (the offline smoke test): why. */
  substitute?: string;
}

export interface ModelProvider {
  /** `openai` or `offline`, for provenance and stats. */
  readonly name: string;
  complete(request: CompletionRequest): Promise<Completion>;
}
