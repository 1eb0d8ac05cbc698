/** A configuration problem, where it is (file, key, line): apart from the YAML reader, so reporting one loads no parser. */
export interface ConfigProblem {
  file: string;
  key: string;
  line: number;
  message: string;
}

export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}: ${p.key ? `${p.key}: ` : ''}${p.message}`;
}
