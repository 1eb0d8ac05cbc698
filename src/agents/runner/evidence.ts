/**
 * What a run leaves to look at: the browser's console errors, the screenshots (the spec's own and the
 * one taken at failure) and Playwright's error context (the page snapshot at failure). Screenshots are
 * copied out of the run's temporary folder before it is removed.
 *
 * Scribe trusts only what it wrote itself: the evidence attachment under the name it chose for this
 * run, regular files inside the run folder (a path elsewhere is neither copied nor reported missing; a link
 * is neither read nor copied), and the error context Playwright writes (not an attachment the spec named so).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { testsOf, type Attachment, type PlaywrightReport } from './playwright-report.ts';
import { isInside } from '../../util/fs.ts';
import { printable } from '../../util/terminal.ts';
import { isRunId, regularFileInside } from './run-folders.ts';

const IMAGE = /\.(png|jpe?g)$/i;

const PageElements = z.object({ url: z.string(), testIds: z.array(z.string()), roles: z.array(z.string()) });
const FixtureEvidence = z.object({ consoleErrors: z.array(z.string()), screenshots: z.array(z.string()), pages: z.array(PageElements).default([]) });

/** agents/runner.yaml `report`: how much of the page's text is kept. */
export interface EvidenceLimits {
  errorContextChars: number;
  consoleErrors: number;
}

export interface Evidence {
  consoleErrors: string[];
  /** Screenshots on disk, the spec's own first. */
  screenshots: string[];
  /** Playwright's traces of the spec's own tests (its `trace` attachments inside the run folder). */
  traces: string[];
  /** Files the run says it wrote (screenshots, attachments) that are not there. */
  missing: string[];
  errorContext: string | null;
  /** The test ids and named elements of each page the test reached, in order; the last is where it ended. */
  pages: Array<z.infer<typeof PageElements>>;
}

/**
 * `report` holds the spec's own tests; `otherTests`, those of other files in the same run (the proof copy),
 * whose files (a failure screenshot of the proof copy, which fails by design) are not the spec's evidence.
 */
export function gatherEvidence(report: PlaywrightReport | undefined, runDir: string, evidenceName: string, limits: EvidenceLimits, otherTests?: PlaywrightReport): Evidence {
  const attachments = attachmentsOf(report);
  const recorded = attachments.filter((a) => a.name === evidenceName).flatMap(fixtureEvidence);
  const inRun = (file: string) => isInside(runDir, file);
  // A link is no file of the run: it is neither read nor copied, and a declared one counts as missing.
  const onDisk = (file: string) => regularFileInside(runDir, file);
  const declared = declaredFiles(attachments, evidenceName).filter(inRun);
  const images = declared.filter((file) => IMAGE.test(file) && onDisk(file));
  const ownFiles = new Set(declared.map((file) => path.resolve(runDir, file)));
  const othersOnly = new Set(declaredFiles(attachmentsOf(otherTests), evidenceName).map((file) => path.resolve(runDir, file)).filter((file) => !ownFiles.has(file)));
  return {
    consoleErrors: capped(unique(recorded.flatMap((r) => r.consoleErrors)).map(printable), limits.consoleErrors),
    screenshots: unique([...images, ...imagesUnder(runDir).filter((file) => !othersOnly.has(file))]),
    traces: unique(attachments.flatMap((a) => (a.name === 'trace' && a.path && inRun(a.path) && a.path.endsWith('.zip') && onDisk(a.path) ? [a.path] : []))),
    missing: declared.filter((file) => !onDisk(file)),
    errorContext: errorContext(attachments, runDir, limits.errorContextChars),
    pages: recorded.flatMap((r) => r.pages),
  };
}

/** The first `max` lines, and one that counts the rest: a page may log thousands. */
function capped(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `… and ${lines.length - max} more console errors`];
}

function attachmentsOf(report: PlaywrightReport | undefined): Attachment[] {
  return report ? testsOf(report).flatMap((test) => test.result?.attachments ?? []) : [];
}

/** The files the tests say they wrote: screenshots their fixtures saw taken, and attachments with a path. */
function declaredFiles(attachments: Attachment[], evidenceName: string): string[] {
  const recorded = attachments.filter((a) => a.name === evidenceName).flatMap(fixtureEvidence);
  return unique([...recorded.flatMap((r) => r.screenshots), ...attachments.flatMap((a) => (a.path ? [a.path] : []))]);
}

function fixtureEvidence(attachment: Attachment): Array<z.infer<typeof FixtureEvidence>> {
  if (!attachment.body) return [];
  try {
    const parsed = FixtureEvidence.safeParse(JSON.parse(Buffer.from(attachment.body, 'base64').toString('utf8')));
    return parsed.success ? [parsed.data] : [];
  } catch {
    return [];
  }
}

/**
 * Playwright's own page snapshot: the file it writes as `error-context.md` in the test's output folder.
 * An attachment a spec names `error-context` has a body, or a path in an `attachments` folder (Playwright
 * copies an attached file there): neither is read.
 */
function errorContext(attachments: Attachment[], runDir: string, maxChars: number): string | null {
  const own = attachments.filter((a) => a.name === 'error-context' && a.path && regularFileInside(runDir, a.path) && path.basename(a.path) === 'error-context.md' && path.basename(path.dirname(a.path)) !== 'attachments');
  for (const attachment of own) {
    try {
      const text = printable(withoutInstructions(readFileSync(attachment.path!, 'utf8')));
      if (text.trim()) return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (cut at ${maxChars} characters)` : text;
    } catch {
      // unreadable: try the next one
    }
  }
  return null;
}

/** Playwright opens the file with instructions for an AI assistant; the Medic has its own prompt. */
function withoutInstructions(markdown: string): string {
  return markdown.replace(/^# Instructions\n[\s\S]*?(?=^# )/m, '');
}

/** Images written anywhere in the run's folder (a spec's relative screenshot paths land there). */
function imagesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : imagesUnder(full);
    return entry.isFile() && IMAGE.test(entry.name) ? [full] : [];
  });
}

/**
 * Copies the files (screenshots and traces, all inside the run's folder) to `<artifactsRoot>/<runId>/`, keeping
 * their paths there, and removes the oldest run folders beyond `keepRuns`. Returns the copies' paths, in order.
 */
export function keepRunFiles(files: string[], runDir: string, artifactsRoot: string, runId: string, keepRuns: number): string[] {
  if (files.length === 0) return [];
  const target = path.join(artifactsRoot, runId);
  const taken = new Set<string>();
  const kept = files.map((file) => {
    const destination = freeName(path.join(target, path.relative(runDir, file)), taken);
    mkdirSync(path.dirname(destination), { recursive: true });
    copyFileSync(file, destination);
    return destination;
  });
  pruneRuns(artifactsRoot, keepRuns);
  return kept;
}

function freeName(file: string, taken: Set<string>): string {
  const { dir, name, ext } = path.parse(file);
  let candidate = file;
  for (let n = 2; taken.has(candidate); n++) candidate = path.join(dir, `${name}-${n}${ext}`);
  taken.add(candidate);
  return candidate;
}

function pruneRuns(artifactsRoot: string, keepRuns: number): void {
  const runs = readdirSync(artifactsRoot).filter(isRunId).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - keepRuns))) rmSync(path.join(artifactsRoot, old), { recursive: true, force: true });
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
