/** Runs the real CLI in-process (`main()` of src/cli.ts) with captured output, an environment and a cwd. */
import { Writable } from 'node:stream';
import { main } from '../../src/cli.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => new Writable({ write: (chunk, _encoding, done) => (into.push(String(chunk)), done()) });
  const code = await main(['node', 'scribe', ...args], { stdout: sink(out), stderr: sink(err), env: options.env, cwd: options.cwd });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
