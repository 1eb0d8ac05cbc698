/**
 * A job's stages as they happen, for GET /v1/jobs/:id/events: the same pipeline events the job records
 * (and the terminal and MCP progress show), then the finished job. Listeners of a job are dropped once
 * it has finished.
 */
import type { JobView, PipelineEvent } from '../contracts.ts';

export type JobSignal = { type: 'stage'; event: PipelineEvent } | { type: 'end'; job: JobView };
type Listener = (signal: JobSignal) => void;

export class JobEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  subscribe(id: string, listener: Listener): () => void {
    const set = this.listeners.get(id) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(id, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(id) === set) this.listeners.delete(id);
    };
  }

  stage(id: string, event: PipelineEvent): void {
    for (const listener of [...(this.listeners.get(id) ?? [])]) listener({ type: 'stage', event });
  }

  end(job: JobView): void {
    const set = this.listeners.get(job.id);
    this.listeners.delete(job.id);
    for (const listener of [...(set ?? [])]) listener({ type: 'end', job });
  }

  /** Open streams, for tests and health: how many clients are listening. */
  listening(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
