/**
 * `scribe validate --format sarif`: SARIF 2.1.0 for code-scanning annotations (GitHub, Azure DevOps,
 * GitLab). Every rule critic.yaml names becomes a reportingDescriptor: its id, the rule's one-line
 * description, critic.yaml's reason as help, the configured severity as default level, and the rule's
 * page in docs/rules/<id>.md (its text as help markdown, its file URL as helpUri) when there is one.
 * Results point at the file relative to the working directory (uriBaseId SRCROOT), with 1-based line
 * and column in UTF-16 code units, as the TypeScript compiler counts them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CriticConfig } from '../config/critic.ts';
import { PACKAGE_ROOT } from '../config/paths.ts';
import type { Issue, ValidateReport } from '../contracts.ts';
import { RULES } from '../rules/index.ts';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = 'SRCROOT';

export interface SarifOptions {
  /** What file paths in the report are relative to. */
  cwd: string;
  /** Where the rule pages live; default: Scribe's own docs/rules/. */
  docsDir?: string;
}

interface Descriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: 'error' | 'warning' | 'none'; enabled: boolean };
  properties: { tags: string[]; configuredAt?: string };
}

export function sarifReport(report: ValidateReport, config: CriticConfig, options: SarifOptions) {
  const docsDir = options.docsDir ?? path.join(PACKAGE_ROOT, 'docs', 'rules');
  const descriptors = config.criteria.map((criterion) => describeRule(criterion, config, options.cwd, docsDir));
  const known = new Set(descriptors.map((d) => d.id));
  // An issue of no configured rule (a failed attempt's `no-code-block`, a rule from a newer critic.yaml) still needs a descriptor.
  for (const rule of new Set(report.files.flatMap((f) => f.issues.map((i) => i.rule)))) {
    if (!known.has(rule)) descriptors.push(describeUnconfigured(rule));
  }
  const ruleIndex = new Map(descriptors.map((d, index) => [d.id, index]));
  const artifacts = report.files.map((file) => ({ location: artifactLocation(file.file) }));
  const results = report.files.flatMap((file, fileIndex) =>
    file.issues.map((issue) => result(issue, ruleIndex.get(issue.rule)!, { ...artifactLocation(file.file), index: fileIndex })),
  );
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0' as const,
    runs: [
      {
        tool: { driver: { name: 'scribe', fullName: 'Scribe (Playwright spec checks)', version: packageVersion(), semanticVersion: packageVersion(), rules: descriptors } },
        originalUriBaseIds: { [SRCROOT]: { uri: `${pathToFileURL(options.cwd).href.replace(/\/$/, '')}/` } },
        artifacts,
        results,
        columnKind: 'utf16CodeUnits' as const,
        invocations: [{ executionSuccessful: true }],
      },
    ],
  };
}

function describeRule(criterion: CriticConfig['criteria'][number], config: CriticConfig, cwd: string, docsDir: string): Descriptor {
  const builtIn = RULES.find((rule) => rule.id === criterion.id);
  const docsFile = path.join(docsDir, `${criterion.id}.md`);
  const docs = existsSync(docsFile) ? readFileSync(docsFile, 'utf8') : undefined;
  const configFile = path.relative(cwd, config.file).startsWith('..') ? config.file : path.relative(cwd, config.file);
  return {
    id: criterion.id,
    name: pascalCase(criterion.id),
    shortDescription: { text: builtIn?.description ?? criterion.reason },
    fullDescription: { text: criterion.reason },
    help: {
      text: criterion.reason,
      markdown: docs ?? `${criterion.reason}\n\nA custom rule of \`${configFile}\`.`,
    },
    ...(docs !== undefined ? { helpUri: pathToFileURL(docsFile).href } : {}),
    defaultConfiguration: { level: criterion.severity === 'off' ? 'none' : criterion.severity, enabled: criterion.severity !== 'off' },
    properties: { tags: ['playwright', builtIn ? 'scribe' : 'custom'], configuredAt: `${configFile}:${config.lineOfRule(criterion.id)}` },
  };
}

function describeUnconfigured(id: string): Descriptor {
  const text = `Reported by Scribe; ${id} is not a rule of critic.yaml.`;
  return {
    id,
    name: pascalCase(id),
    shortDescription: { text },
    fullDescription: { text },
    help: { text, markdown: text },
    defaultConfiguration: { level: 'error', enabled: true },
    properties: { tags: ['playwright', 'scribe'] },
  };
}

function result(issue: Issue, ruleIndex: number, location: ReturnType<typeof artifactLocation> & { index: number }) {
  // SARIF lines and columns start at 1; 0 means the issue concerns the whole file.
  const region = issue.line >= 1 ? { startLine: issue.line, ...(issue.column >= 1 ? { startColumn: issue.column } : {}) } : undefined;
  return {
    ruleId: issue.rule,
    ruleIndex,
    level: issue.severity,
    message: { text: issue.message },
    locations: [{ physicalLocation: { artifactLocation: location, ...(region ? { region } : {}) } }],
    properties: { fixable: issue.fixable },
  };
}

/** A path of the report as a URI: relative to SRCROOT when inside the working directory, else a file URL. */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  if (path.isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: file.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function pascalCase(id: string): string {
  return id.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
