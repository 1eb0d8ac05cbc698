/**
 * A batch's stage lines reach its caller (generateBatch's onProgress), each with the scenario and the worker
 * it belongs to, from the generations' worker threads: what bench/suite.ts --timeline reads to show where a
 * batch's time goes. Offline, two requests without a URL (nothing explored, nothing run), two workers.
 */
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
});
