/** `scribe report` and `GET /report`: the HTML report of what this project's Scribe home holds. */
import { statsHome } from '../stats/log.ts';
import { gatherReport } from './data.ts';
import { renderReport } from './html.ts';

export interface ReportSource {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where specs and their provenance records are (the project's output folder, and any others). */
  specRoots: readonly string[];
}

export function reportHtml(source: ReportSource, now: Date = new Date()): string {
  const data = gatherReport(statsHome(source.env, source.cwd), [...new Set([...source.specRoots, source.cwd])], { project: source.cwd, home: source.env.HOME });
  return renderReport(data, { title: 'Scribe report', generatedAt: now.toISOString(), cwd: source.cwd });
}
