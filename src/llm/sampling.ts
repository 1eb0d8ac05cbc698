/**
 * The MCP host's own model, asked through `sampling/createMessage`: a user inside Claude Code, VS Code
 * or Cursor needs no API key. The host decides which model answers (and may ask its user first); the
 * configured model name is sent as a hint only.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Completion, CompletionRequest, ModelProvider } from './types.ts';

export interface SamplingOptions {
  /** The connected MCP server whose client is asked. */
  server: Pick<Server, 'createMessage'>;
  /** The longest answer asked for (agents/server.yaml mcp.sampling_max_tokens). */
  maxTokens: number;
}

export class SamplingProvider implements ModelProvider {
  readonly name = 'mcp';
  private readonly options: SamplingOptions;

  constructor(options: SamplingOptions) {
    this.options = options;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    const result = await this.options.server.createMessage(
      {
        ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
        messages: request.messages
          .filter((m) => m.role !== 'system')
          .map((m) => ({ role: m.role as 'user' | 'assistant', content: { type: 'text' as const, text: m.content } })),
        maxTokens: this.options.maxTokens,
        temperature: request.temperature,
        modelPreferences: { hints: [{ name: request.model }] },
        includeContext: 'none',
      },
      { signal: request.signal },
    );
    const text = result.content.type === 'text' ? result.content.text : '';
    // Sampling reports no token counts; the stats say 0 rather than a guess.
    return { text, model: result.model, usage: { prompt: 0, completion: 0, total: 0 }, attempts: 1 };
  }
}
