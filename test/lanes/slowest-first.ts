/**
 * The order test files start in: the slowest known e2e files first, so the last file to start is a short
 * one and no worker idles while another finishes a long file (on a clean clone vitest has no durations
 * and starts the largest files first; the 233 s hostile-run file, 48 lines, then started last). Files not
 * listed keep vitest's own order after them. The list is a lane's measured durations, slowest first
 * (seconds in the clean-clone CI run of 26 Nov, 19:55, on 2 cores, where the e2e lane took 784 s); it only
 * orders, so a stale entry costs time, never a result.
 */
import path from 'node:path';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

export const SLOWEST_FIRST = [
  'test/agents/runner.test.ts', // 133 s
  'test/agents/runner-hostile.test.ts', // 132 s
  'test/package/playwright-versions.test.ts', // 95 s
  'test/workflow/real-apps.test.ts', // 82 s
  'test/agents/runner/proof.test.ts', // 75 s
  'test/workflow/pipeline.test.ts', // 55 s
  'test/commands/explore-signed-in.test.ts', // 54 s
  'test/commands/heal.test.ts', // 53 s
  'test/commands/generate-proof.test.ts', // 46 s
  'test/agents/runner-user-config.test.ts', // 41 s
  'test/package/install.test.ts', // 40 s
  'test/commands/batch.test.ts', // 40 s
  'test/workflow/hostile-pipeline.test.ts', // 36 s
  'test/queue/limits.test.ts', // 33 s
  'test/mcp/stdio.test.ts', // 31 s
  'test/agents/runner-esm-loader.test.ts', // 26 s
  'test/explore/sign-in.test.ts', // 24 s
  'test/project/context.test.ts', // 23 s
  'test/commands/validate.test.ts', // 21 s
  'test/validate/type-checker.test.ts', // 19 s
  'test/library.test.ts', // 19 s
  'test/commands/plan.test.ts', // 19 s
  'test/commands/demo.test.ts', // 18 s
  'test/commands/interrupt.test.ts', // 18 s
  'test/http/server.test.ts', // 17 s
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
