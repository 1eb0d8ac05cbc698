/** What a command needs from the process: streams, environment, and where to put its exit code. */
import type { Writable } from 'node:stream';

export interface CliContext {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** 0 success or clean, 1 the work failed, 2 usage or configuration error. */
  exitCode: number;
}

/** Exit code of a run Scribe itself could not complete (a bug or limit of Scribe's, not a finding nor a usage error). */
export const INTERNAL_ERROR_EXIT = 3;

/** A usage error: the command line asked for something that cannot be done (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The project's warnings, each on its own line of stderr. */
export function printWarnings(ctx: CliContext, warnings: readonly string[]): void {
  for (const warning of warnings) ctx.stderr.write(`scribe: warning: ${warning}\n`);
}
