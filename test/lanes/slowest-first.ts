/**
 * The order test files start in: the slowest known e2e files first, so the last file to start is a short
 * one and no worker idles while another finishes a long file (on a clean clone vitest has no durations
 * and starts the largest files first; the 233 s hostile-run file, 48 lines, then started last). Files not
 * listed keep vitest's own order after them. The list is a lane's measured durations, slowest first
 * (seconds in the clean-clone CI run of 26 Nov, 08:15, on 2 cores); it only orders, so a stale entry costs time, never a result.
 */
import path from 'node:path';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

export const SLOWEST_FIRST = [
  'test/agents/runner-hostile.test.ts', // 251 s (20 s of it an attack waiting out a test limit since halved)
  'test/agents/runner.test.ts', // 219 s
  'test/package/playwright-versions.test.ts', // 145 s
  'test/workflow/real-apps.test.ts', // 138 s
  'test/workflow/pipeline.test.ts', // 113 s
  'test/commands/explore-signed-in.test.ts', // 108 s
  'test/commands/heal.test.ts', // 94 s
  'test/agents/runner/proof.test.ts', // 77 s (34 s of it a test waiting out two navigation limits, since fixed)
  'test/commands/generate-proof.test.ts', // 72 s
  'test/package/install.test.ts', // 71 s
  'test/agents/runner-user-config.test.ts', // 61 s
  'test/commands/batch.test.ts', // 60 s
  'test/workflow/hostile-pipeline.test.ts', // 51 s
  'test/queue/limits.test.ts', // 43 s
  'test/mcp/stdio.test.ts', // 42 s
  'test/commands/plan.test.ts', // 38 s
  'test/library.test.ts', // 36 s
  'test/commands/demo.test.ts', // 32 s
  'test/project/context.test.ts', // 30 s
  'test/commands/eval.test.ts', // 29 s
  'test/validate/type-checker.test.ts', // 26 s
  'test/http/server.test.ts', // 25 s
  'test/commands/validate.test.ts', // 22 s
  'test/commands/interrupt.test.ts', // 22 s
  'test/queue/scale-out.test.ts', // 19 s
];

/** Files (paths relative to the root) in starting order: the listed ones first, in the list's order; the rest as they came. */
export function slowestFirst<T>(files: readonly T[], relativePath: (file: T) => string): T[] {
  const rank = (file: T) => {
    const index = SLOWEST_FIRST.indexOf(relativePath(file));
    return index === -1 ? SLOWEST_FIRST.length : index;
  };
  // Array sort is stable: files of equal rank keep vitest's order.
  return [...files].sort((a, b) => rank(a) - rank(b));
}

/** vitest's sequencer, with the slowest known files moved to the front of each project's files. */
export class SlowestFirstSequencer implements TestSequencer {
  private readonly ctx: Vitest;

  constructor(ctx: Vitest) {
    this.ctx = ctx;
  }

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base()).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await this.base()).sort(files);
    const root = this.ctx.config.root;
    // Projects run one after the other in vitest's order: reorder within each, never across.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) => slowestFirst(sorted.filter((file) => file.project.name === name), (file) => path.relative(root, file.moduleId).split(path.sep).join('/')));
  }

  // Loaded when vitest asks, not when a test imports vitest.config.ts for its lane lists.
  private async base(): Promise<TestSequencer> {
    const { BaseSequencer } = await import('vitest/node');
    return new BaseSequencer(this.ctx);
  }
}
