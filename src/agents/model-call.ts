/**
 * One model call as every agent makes it: the completion, and a `model_call` event reported whether it
 * succeeded or not. A failure comes back as a value (why and what to tell the user), never a throw, so
 * a model that is down ends an agent's work with a reason instead of a crash.
 */
import { ModelCallError } from '../llm/client.ts';
import { redactMessages, type Redaction } from '../llm/redact.ts';
import type { Completion, CompletionRequest, ModelProvider } from '../llm/types.ts';
import type { GenerationReporter } from './reporter.ts';

/** `model_config`: for the user to fix (key, model, URL); `model_error`: the call failed, it may pass later. */
export type ModelFailure = 'model_error' | 'model_config';

export interface FailedCall {
  failure: ModelFailure;
  error: string;
}

export async function completeRecorded(
  provider: ModelProvider,
  request: CompletionRequest,
  generation: string,
  reporter: GenerationReporter,
  redaction: Redaction,
): Promise<Completion | FailedCall> {
  try {
    // The declared secrets' values are redacted from whatever a prompt quotes, before it leaves (the request and the page's own words kept whole).
    const completion = await provider.complete({ ...request, messages: redactMessages(request.messages, redaction) });
    reporter.report({ type: 'model_call', generation, provider: provider.name, model: completion.model, attempts: completion.attempts, tokens: completion.usage, error: null });
    return completion;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const attempts = error instanceof ModelCallError ? error.attempts : 1;
    reporter.report({ type: 'model_call', generation, provider: provider.name, model: request.model, attempts, tokens: { prompt: 0, completion: 0, total: 0 }, error: message });
    return { failure: error instanceof ModelCallError && error.kind === 'config' ? 'model_config' : 'model_error', error: message };
  }
}

export function isFailedCall(answer: Completion | FailedCall): answer is FailedCall {
  return 'failure' in answer;
}
