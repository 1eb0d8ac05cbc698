/**
 * Structured logs: one JSON object a line. Entries carry what an operator needs (method, path, status,
 * time taken, job id) and never a secret: no Authorization header, no request body, no query string.
 */
import type { Writable } from 'node:stream';

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
