/**
 * A generation's events in words a person reads: the lines of the terminal's step list and of an HTTP
 * job's stages (PipelineEvent). One of the reporters behind the pipeline's multiplexer.
 */
import path from 'node:path';
import type { GenerationEvent, GenerationReporter } from '../agents/reporter.ts';
import type { PipelineEvent } from '../contracts.ts';

/**
 * Each event that reads as a line, handed to `line` as a PipelineEvent stamped now; `name` is what a failure of
 * it is called (the terminal, an HTTP job's stages, MCP progress notifications).
 */
export function progressReporter(cwd: string, line: (event: PipelineEvent) => void, name?: string): GenerationReporter {
  return {
    ...(name ? { name } : {}),
    report: (event) => {
      const described = describe(event, cwd);
      if (described) line({ ...described, at: new Date().toISOString() });
    },
  };
}

/** The line, and the generation's warning, that a reporter failed. */
export function reporterFailure(event: { reporter: string; error: string }): string {
  return `${event.reporter} failed (${event.error}); the generation goes on without it`;
}

/**
 * A line that would repeat the run's error (a kept spec's note, the final message) with the error left
 * out: the run's own line has shown it once, in full.
 */
export function withoutRunError(text: string, runError: string | null | undefined): string {
  if (!runError?.trim() || !text.includes(runError)) return text;
  return text.split(runError).join("the run's error above");
}

export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function modelWords(provider: string, model: string): string {
  if (provider === 'openai') return model;
  return provider === 'mcp' ? "the MCP host's model" : `the ${provider} generator`;
}

function describe(event: GenerationEvent, cwd: string): Omit<PipelineEvent, 'at'> | undefined {
  switch (event.type) {
    case 'stage':
      return { stage: event.stage, status: event.status, message: event.message };
    case 'attempt':
      return { stage: 'scribe', status: 'started', message: `attempt ${event.attempt}/${event.maxAttempts}: asking ${modelWords(event.provider, event.model)}` };
    case 'model_retry':
      return { stage: 'scribe', status: 'info', message: `model call failed (${event.notice.reason}); trying again in ${(event.notice.delayMs / 1000).toFixed(1)} s (${event.notice.attempt + 1}/${event.notice.maxAttempts})` };
    case 'validating':
      return { stage: 'scribe', status: 'started', message: `attempt ${event.attempt}: validating ${event.chosen}` };
    case 'autofixed':
      return { stage: 'scribe', status: 'info', message: `autofixed ${event.fixes.map((f) => `${f.rule} (line ${f.line})`).join(', ')}` };
    case 'validated': {
      if (event.accepted) {
        const warnings = event.issues.length;
        return { stage: 'scribe', status: 'done', message: `attempt ${event.attempt}: passed every rule${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}` };
      }
      const because = [...new Set(event.issues.filter((i) => i.severity === 'error').map((i) => i.rule))].join(', ');
      return { stage: 'scribe', status: 'failed', message: event.retrying ? `attempt ${event.attempt}: retrying because of ${because}` : `attempt ${event.attempt}: still failing ${because}` };
    }
    case 'attempts_failed':
      return { stage: 'scribe', status: 'failed', message: event.error };
    case 'reporter_failed':
      return { stage: 'report', status: 'info', message: reporterFailure(event) };
    case 'written':
      return { stage: 'write', status: 'done', message: `wrote ${displayPath(event.testPath, cwd)}` };
    default:
      return undefined;
  }
}
