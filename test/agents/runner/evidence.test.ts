import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatherEvidence } from '../../../src/agents/runner/evidence.ts';
import { readPlaywrightReport, type PlaywrightReport } from '../../../src/agents/runner/playwright-report.ts';
import { regularFileInside } from '../../../src/agents/runner/run-folders.ts';

const EVIDENCE = 'scribe-evidence-test';
const LIMITS = { errorContextChars: 1000, consoleErrors: 3 };
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
    const evidence = gatherEvidence(spec, dir, EVIDENCE, LIMITS, proof);
    expect(evidence.screenshots).toEqual([path.join(dir, 'spec/shots/search.png'), path.join(dir, 'results/search-t/extra.png')]);
  });

  it('keeps a screenshot both the spec and its proof copy wrote to the same path', () => {
    const dir = runFolder(['spec/shots/search.png']);
    const shot = path.join(dir, 'spec/shots/search.png');
    const evidence = gatherEvidence(reportOf('a.spec.ts', 'passed', [shot], []), dir, EVIDENCE, LIMITS, reportOf('a.spec.ts.proof.ts', 'failed', [shot], []));
    expect(evidence.screenshots).toEqual([shot]);
  });

  it('without a proof run, keeps every image in the run folder', () => {
    const dir = runFolder(['spec/a.png', 'results/x/test-failed-1.png']);
    const evidence = gatherEvidence(reportOf('a.spec.ts', 'failed', [], [path.join(dir, 'results/x/test-failed-1.png')]), dir, EVIDENCE, LIMITS);
    expect(evidence.screenshots.sort()).toEqual([path.join(dir, 'results/x/test-failed-1.png'), path.join(dir, 'spec/a.png')]);
  });

  it('reads and keeps no link the run made: a linked screenshot, trace or error context is missing, not copied or read', () => {
    const dir = runFolder(['spec/own.png']);
    const host = runFolder(['secret.png']);
    writeFileSync(path.join(host, 'context.md'), 'HOST TEXT');
    const linked = (name: string, target: string) => {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      symlinkSync(target, path.join(dir, name));
      return path.join(dir, name);
    };
    const shot = linked('work/shot.png', path.join(host, 'secret.png'));
    const trace = linked('work/trace.zip', path.join(host, 'secret.png'));
    const context = linked('work/context/error-context.md', path.join(host, 'context.md'));
    // A folder of the run linked elsewhere: a regular file reached through it is not the run's either.
    linked('work/out', host);
    const report = reportOf('a.spec.ts', 'failed', [shot, path.join(dir, 'work/out/secret.png')], []);
    const attachments = report.suites[0]!.specs[0]!.tests[0]!.results[0]!.attachments!;
    attachments.push({ name: 'trace', contentType: 'application/zip', path: trace }, { name: 'error-context', contentType: 'text/markdown', path: context });
    const evidence = gatherEvidence(report, dir, EVIDENCE, LIMITS);
    expect(evidence.screenshots).toEqual([path.join(dir, 'spec/own.png')]);
    expect(evidence.traces).toEqual([]);
    expect(evidence.errorContext).toBeNull();
    expect(evidence.missing).toEqual([shot, path.join(dir, 'work/out/secret.png'), trace, context]);
  });
});

describe('gatherEvidence: what a page logs', () => {
  it('keeps the first console errors and counts the rest, without control characters or bidirectional overrides', () => {
    const dir = runFolder([]);
    const errors = ['plain', 'osc \u009d0;title\u0007 end', 'rtl \u202eevil', 'nul \u0000 and esc \u001b[2J', 'fifth', 'sixth'];
    const body = Buffer.from(JSON.stringify({ consoleErrors: errors, screenshots: [], pages: [] })).toString('base64');
    const report: PlaywrightReport = { errors: [], suites: [{ title: 'a.spec.ts', specs: [{ title: 't', line: 3, tests: [{ results: [{ status: 'passed', duration: 1, errors: [], attachments: [{ name: EVIDENCE, contentType: 'application/json', body }] }] }] }] }] };
    expect(gatherEvidence(report, dir, EVIDENCE, { ...LIMITS, consoleErrors: 4 }).consoleErrors).toEqual(['plain', 'osc 0;title end', 'rtl evil', 'nul  and esc ', '… and 2 more console errors']);
  });
});

describe('regularFileInside', () => {
  it('is true of a regular file inside the folder only: not of a link, a file through a linked folder, the folder, or a file outside', () => {
    const dir = runFolder(['work/report.json']);
    const outside = runFolder(['report.json']);
    symlinkSync(path.join(outside, 'report.json'), path.join(dir, 'work/linked.json'));
    symlinkSync(outside, path.join(dir, 'work/folder'));
    expect(regularFileInside(dir, path.join(dir, 'work/report.json'))).toBe(true);
    expect(regularFileInside(dir, path.join(dir, 'work/linked.json'))).toBe(false);
    expect(regularFileInside(dir, path.join(dir, 'work/folder/report.json'))).toBe(false);
    expect(regularFileInside(dir, path.join(dir, 'work'))).toBe(false);
    expect(regularFileInside(dir, path.join(outside, 'report.json'))).toBe(false);
    expect(regularFileInside(dir, path.join(dir, 'work/none.json'))).toBe(false);
  });

  it("keeps Playwright's report from being read through a link: a host file's text never reaches the parse error", () => {
    const dir = runFolder([]);
    const outside = runFolder([]);
    writeFileSync(path.join(outside, 'secret.txt'), 'HOSTSECRET not json');
    mkdirSync(path.join(dir, 'work'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'work/report.json'));
    const read = readPlaywrightReport(dir, path.join(dir, 'work/report.json'));
    expect(read).toEqual({ problem: "Playwright's report is not a regular file of the run's folder" });
    expect(readPlaywrightReport(dir, path.join(dir, 'work/none.json'))).toEqual({ problem: 'Playwright wrote no report' });
  });
});
