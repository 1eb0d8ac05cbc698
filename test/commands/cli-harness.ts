/** Runs the real CLI in-process with captured output, the way a user's shell would see it. */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function scribe(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await main(['node', 'scribe', ...args], {
    stdout,
    stderr,
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
