/**
 * The part of Playwright's JSON report the Runner reads, checked with zod: a report that does not
 * parse is no evidence of anything, so it can never count as a pass.
 */
import { existsSync, readFileSync } from 'node:fs';
import { regularFileInside } from './run-folders.ts';
import { printable } from '../../util/terminal.ts';
import { z } from 'zod';

const Location = z.looseObject({ file: z.string(), line: z.number().int(), column: z.number().int() });

export const ReportError = z.looseObject({
  message: z.string().optional(),
  stack: z.string().optional(),
  location: Location.optional(),
});
export type ReportError = z.infer<typeof ReportError>;

const Attachment = z.looseObject({
  name: z.string(),
  contentType: z.string(),
  path: z.string().optional(),
  body: z.string().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

const Result = z.looseObject({
  status: z.enum(['passed', 'failed', 'timedOut', 'skipped', 'interrupted']),
  duration: z.number(),
  error: ReportError.optional(),
  errors: z.array(ReportError),
  attachments: z.array(Attachment),
});
export type TestRun = z.infer<typeof Result>;

const Test = z.looseObject({ results: z.array(Result), projectName: z.string().optional() });

const Spec = z.looseObject({ title: z.string(), line: z.number().int(), file: z.string().optional(), tests: z.array(Test) });

interface Suite {
  title: string;
  specs: Array<z.infer<typeof Spec>>;
  suites?: Suite[];
}
const Suite: z.ZodType<Suite> = z.lazy(() => z.looseObject({ title: z.string(), specs: z.array(Spec), suites: z.array(Suite).optional() }));

export const PlaywrightReport = z.looseObject({
  suites: z.array(Suite),
  errors: z.array(ReportError),
});
export type PlaywrightReport = z.infer<typeof PlaywrightReport>;

export interface ExecutedTest {
  title: string;
  line: number;
  /** The file as the report names it (relative to the config's folder), and the project it ran in. */
  file?: string;
  project?: string;
  /** The last try (there are no retries, so the only one); none when the test never started. */
  result: TestRun | undefined;
}

/** The report, or why there is none to read: only a regular file of the run's folder `dir` is read (run-folders.ts). */
export function readPlaywrightReport(dir: string, file: string): { report: PlaywrightReport } | { problem: string } {
  let text: string;
  if (existsSync(file) && !regularFileInside(dir, file)) return { problem: "Playwright's report is not a regular file of the run's folder" };
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { problem: 'Playwright wrote no report' };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `Playwright's report is not JSON (${(error as Error).message})` };
  }
  const parsed = PlaywrightReport.safeParse(data);
  return parsed.success ? { report: parsed.data } : { problem: `Playwright's report has an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'})` };
}

/** Every test of every (nested) suite, in report order, with its result. */
export function testsOf(report: PlaywrightReport): ExecutedTest[] {
  const tests: ExecutedTest[] = [];
  const visit = (suite: Suite, parents: string[]) => {
    const titles = suite.title ? [...parents, suite.title] : parents;
    for (const spec of suite.specs) {
      for (const test of spec.tests) {
        tests.push({ title: [...titles.slice(1), spec.title].join(' › '), line: spec.line, file: spec.file, project: test.projectName, result: test.results.at(-1) });
      }
    }
    for (const child of suite.suites ?? []) visit(child, titles);
  };
  for (const suite of report.suites) visit(suite, []);
  return tests;
}

/** An error's message as a person reads it: no colour codes, no trailing blank lines. */
export function errorText(error: ReportError | undefined): string {
  return printable(error?.message ?? error?.stack ?? 'unknown error').trimEnd();
}
