import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatherEvidence } from '../../../src/agents/runner/evidence.ts';
import type { PlaywrightReport } from '../../../src/agents/runner/playwright-report.ts';

const EVIDENCE = 'scribe-evidence-test';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function runFolder(files: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-evidence-'));
  dirs.push(dir);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), 'png');
  }
  return dir;
}

/** A report of one file's single test, whose fixtures saw `screenshots` taken and which attached `attached`. */
function reportOf(file: string, status: 'passed' | 'failed', screenshots: string[], attached: string[]): PlaywrightReport {
  const body = Buffer.from(JSON.stringify({ consoleErrors: [], screenshots, pages: [] })).toString('base64');
  const attachments = [{ name: EVIDENCE, contentType: 'application/json', body }, ...attached.map((p) => ({ name: 'screenshot', contentType: 'image/png', path: p }))];
  return { errors: [], suites: [{ title: file, specs: [{ title: 't', line: 3, tests: [{ results: [{ status, duration: 1, errors: [], attachments }] }] }] }] };
}

describe('gatherEvidence', () => {
  it("keeps the spec's own screenshots, not the failure screenshot of the proof copy run beside it", () => {
    const dir = runFolder(['spec/shots/search.png', 'results/search-t/extra.png', 'results/search.proof-t/test-failed-1.png']);
    const spec = reportOf('search.spec.ts', 'passed', [path.join(dir, 'spec/shots/search.png')], []);
    const proof = reportOf('search.spec.ts.proof.ts', 'failed', [], [path.join(dir, 'results/search.proof-t/test-failed-1.png')]);
    const evidence = gatherEvidence(spec, dir, EVIDENCE, 1000, proof);
    expect(evidence.screenshots).toEqual([path.join(dir, 'spec/shots/search.png'), path.join(dir, 'results/search-t/extra.png')]);
  });

  it('keeps a screenshot both the spec and its proof copy wrote to the same path', () => {
    const dir = runFolder(['spec/shots/search.png']);
    const shot = path.join(dir, 'spec/shots/search.png');
    const evidence = gatherEvidence(reportOf('a.spec.ts', 'passed', [shot], []), dir, EVIDENCE, 1000, reportOf('a.spec.ts.proof.ts', 'failed', [shot], []));
    expect(evidence.screenshots).toEqual([shot]);
  });

  it('without a proof run, keeps every image in the run folder', () => {
    const dir = runFolder(['spec/a.png', 'results/x/test-failed-1.png']);
    const evidence = gatherEvidence(reportOf('a.spec.ts', 'failed', [], [path.join(dir, 'results/x/test-failed-1.png')]), dir, EVIDENCE, 1000);
    expect(evidence.screenshots.sort()).toEqual([path.join(dir, 'results/x/test-failed-1.png'), path.join(dir, 'spec/a.png')]);
  });
});
