/**
 * A cancelled batch in worker threads leaves no child process behind. Each thread's validator keeps a native
 * type checker (TypeScript 7) in a process of its own; a thread terminated while it runs leaves it unreaped (a
 * zombie of this process), since only the thread's own event loop would reap it. Read from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadProject } from '../../src/project/context.ts';
import { generateBatch, requestItems } from '../../src/workflow/batch.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

/** This process's child processes (of any of its threads): the command name and state of each, from /proc. */
function children(): Array<{ pid: string; name: string; state: string }> {
  const pids = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean));
  return pids.flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return [{ pid, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state: stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) }];
    } catch {
      return [];
    }
  });
}

/**
 * The children this batch is answerable for: those started since `before` was read. tsx's esbuild, which compiles
 * the worker's TypeScript when Scribe runs from its sources (as here), is tsx's: started in a loader thread Scribe
 * cannot reach, and absent from a build. Test files share this worker process (isolate: false), so a checker an
 * earlier file's validator keeps until its idle time ends may still be here: it is not this batch's.
 */
const batchsChildren = (before: Set<string>) => children().filter((child) => child.name !== 'esbuild' && !before.has(child.pid));

let project: ScribeProject;
beforeEach(() => {
  project = makeScribeProject();
});
afterEach(() => project.remove());

it('a batch cancelled while its threads type-check leaves no child process, running or zombie', { timeout: 120_000 }, async () => {
  const before = new Set(children().map((child) => child.pid));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home };
  const loaded = await loadProject({ cwd: project.dir, env });
  const items = requestItems(['home', 'about', 'contact', 'orders'].map((page) => ({ description: `open the ${page} page and see its heading` })));
  const controller = new AbortController();
  let whileRunning: ReturnType<typeof children> = [];
  const batch = generateBatch({
    project: loaded,
    items,
    source: 'test',
    workers: 2,
    run: false,
    stats: false,
    signal: controller.signal,
    onProgress: (event) => {
      if (event.type !== 'finished' || controller.signal.aborted) return;
      whileRunning = batchsChildren(before);
      controller.abort(new Error('the user cancelled the batch'));
    },
  });
  await expect(batch).rejects.toThrow('the user cancelled the batch');
  // The threads had type checkers running when the batch was cancelled: the check below can fail.
  expect(whileRunning.map((child) => child.name)).toContain('tsc');
  expect(batchsChildren(before)).toEqual([]);
});
