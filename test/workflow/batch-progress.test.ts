/**
 * A batch in worker threads, offline, two requests without a URL (nothing explored, nothing run), two workers:
 * its stage lines reach its caller (generateBatch's onProgress), each with the scenario and the worker it
 * belongs to (what bench/suite.ts --timeline reads to show where a batch's time goes); and the threads take
 * the project's Playwright config as the caller read it, without a config reader of their own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProject } from '../../src/project/context.ts';
import { generateBatch, requestItems, type BatchProgress } from '../../src/workflow/batch.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

let project: ScribeProject;
beforeEach(() => {
  project = makeScribeProject();
});
afterEach(() => project.remove());

describe("a batch's progress", { timeout: 120_000 }, () => {
  it("carries every scenario's stage lines, stamped, with its index and worker, between its start and its end", async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home };
    const loaded = await loadProject({ cwd: project.dir, env });
    const events: BatchProgress[] = [];
    const items = requestItems([{ description: 'open the home page and see its heading' }, { description: 'open the about page and see its heading' }]);
    const result = await generateBatch({ project: loaded, items, source: 'test', workers: 2, run: false, stats: false, onProgress: (event) => events.push(event) });
    expect(result.workers).toBe(2);

    const started = events.filter((e) => e.type === 'started');
    const stages = events.filter((e) => e.type === 'stage');
    expect(started.map((e) => e.index).sort()).toEqual([1, 2]);
    for (const { index, worker } of started) {
      const own = stages.filter((e) => e.index === index);
      expect(own.map((e) => e.event.stage)).toContain('scribe');
      expect(new Set(own.map((e) => e.worker))).toEqual(new Set([worker]));
      const times = own.map((e) => Date.parse(e.event.at));
      expect(times.every((t, i) => Number.isFinite(t) && (i === 0 || t >= times[i - 1]!))).toBe(true);
      // Every stage line of a scenario comes after its start and before its end.
      const at = (predicate: (e: BatchProgress) => boolean) => events.findIndex(predicate);
      const first = at((e) => e.type === 'stage' && e.index === index);
      expect(first).toBeGreaterThan(at((e) => e.type === 'started' && e.index === index));
      expect(events.findLastIndex((e) => e.type === 'stage' && e.index === index)).toBeLessThan(at((e) => e.type === 'finished' && e.outcome.index === index));
    }
  });

  it("reads the project's Playwright config once, in the caller: the worker threads take that read", async () => {
    // The user's config is code Playwright's loader runs: each read leaves a line.
    const reads = path.join(project.dir, 'config-reads.txt');
    writeFileSync(
      path.join(project.dir, 'playwright.config.ts'),
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(reads)}, 'read\\n');\nexport default { testDir: './e2e', use: { testIdAttribute: 'data-qa' } };\n`,
    );
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: project.home };
    const loaded = await loadProject({ cwd: project.dir, env });
    expect(loaded.agents.critic.testIdAttribute).toBe('data-qa');
    const items = requestItems([{ description: 'open the home page and see its heading' }, { description: 'open the about page and see its heading' }]);
    const result = await generateBatch({ project: loaded, items, source: 'test', workers: 2, run: false, stats: false });
    expect(result.scenarios).toHaveLength(2);
    expect(readFileSync(reads, 'utf8')).toBe('read\n');
  });
});
