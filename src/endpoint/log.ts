/**
 * Structured logs: one JSON object a line. Entries carry what an operator needs (method, path, status,
 * time taken, job id) and never a secret: no Authorization header, no request body, no query string.
 */
import type { Writable } from 'node:stream';
import type { JobView } from '../contracts.ts';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export type LogSink = (entry: LogEntry) => void;

export function jsonLines(stream: Writable): LogSink {
  return (entry) => {
    stream.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };
}

/** A job's change of status, as one log line. */
export function logJob(job: JobView, log: LogSink): void {
  const finished = job.status === 'done' || job.status === 'failed';
  log({
    level: job.status === 'failed' ? 'warn' : 'info',
    msg: 'job',
    job: job.id,
    status: job.status,
    ...(finished ? { ms: Date.parse(job.finished_at!) - Date.parse(job.created_at), exit_code: job.exit_code ?? null } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
  });
}
